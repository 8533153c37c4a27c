#include "trace_error.h"

#include <utility>

namespace warpsim {
namespace {

std::string describe(const std::string& file, std::optional<std::uint64_t> offset, const std::string& problem) {
  std::string text = file + ": ";
  if (offset) text += "offset " + std::to_string(*offset) + ": ";
  return text + problem;
}

}  // namespace

TraceError::TraceError(std::string file, std::optional<std::uint64_t> offset, std::string problem)
    : std::runtime_error(describe(file, offset, problem)),
      file_(std::move(file)),
      offset_(offset),
      problem_(std::move(problem)) {}

}  // namespace warpsim
