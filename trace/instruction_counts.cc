#include "instruction_counts.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>
#include <vector>

#include "trace_error.h"

namespace warpsim::trace {
namespace {

// A whole token as an unsigned number (base 16 with a 0x prefix, else 10); nullopt for anything else.
template <typename T>
std::optional<T> parse_number(std::string_view token) {
  int base = 10;
  if (token.starts_with("0x") || token.starts_with("0X")) {
    token.remove_prefix(2);
    base = 16;
  }
  T value{};
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value, base);
  if (token.empty() || error != std::errc{} || end != token.data() + token.size()) return std::nullopt;
  return value;
}

void read_file(const std::filesystem::path& path, ExecutionsByFunction& counts) {
  std::ifstream in(path);
  if (!in) throw TraceError(path.string(), std::nullopt, "cannot open the instruction counts");
  std::string line;
  for (std::uint64_t number = 1; std::getline(in, line); ++number) {
    std::istringstream fields(line);
    std::string keyword, function, pc, executions, extra;
    fields >> keyword;
    if (keyword.empty() || keyword.starts_with('#')) continue;
    fields >> function >> pc >> executions >> extra;
    const auto offset = parse_number<std::uint32_t>(pc);
    const auto warps = parse_number<std::uint64_t>(executions);
    if (keyword != "count" || function.empty() || !offset || !warps || !extra.empty())
      throw TraceError(path.string(), std::nullopt,
                       "line " + std::to_string(number) +
                           ": not `count <function> <pc offset> <warp executions>`: " + line.substr(0, 120));
    counts[function][*offset] += *warps;
  }
  if (in.bad()) throw TraceError(path.string(), std::nullopt, "cannot read the instruction counts");
}

}  // namespace

void add_instruction_counts(const std::filesystem::path& path, ExecutionsByFunction& counts) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(path, error))
      if (entry.is_regular_file()) files.push_back(entry.path());
    if (error) throw TraceError(path.string(), std::nullopt, "cannot list the directory: " + error.message());
    std::sort(files.begin(), files.end());
    for (const auto& file : files) read_file(file, counts);
    return;
  }
  if (!std::filesystem::is_regular_file(path, error))
    throw TraceError(path.string(), std::nullopt, "no such file or directory of instruction counts");
  read_file(path, counts);
}

ExecutionsByFunction read_instruction_counts(const std::filesystem::path& path) {
  ExecutionsByFunction counts;
  add_instruction_counts(path, counts);
  return counts;
}

}  // namespace warpsim::trace
