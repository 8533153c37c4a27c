#pragma once
/// @file
/// @brief The one exception the trace library throws: what went wrong, in which file, at which byte.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace warpsim {

/// A trace could not be read or written. what() is one line: "FILE: offset N: PROBLEM" (no offset when the problem
/// is the file as a whole, e.g. it does not exist).
class TraceError : public std::runtime_error {
 public:
  TraceError(std::string file, std::optional<std::uint64_t> offset, std::string problem);

  const std::string& file() const { return file_; }
  std::optional<std::uint64_t> offset() const { return offset_; }
  const std::string& problem() const { return problem_; }

 private:
  std::string file_;
  std::optional<std::uint64_t> offset_;
  std::string problem_;
};

}  // namespace warpsim
