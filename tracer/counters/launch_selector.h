#pragma once
/// @brief Counters mode profiles only the launches the user asked for (--kernels REGEX, --launch-skip N,
/// --launch-count N, as ncu does): replaying every kernel of a large application takes long. Pure, thread-safe.

#include <cstdint>
#include <mutex>
#include <optional>
#include <regex>
#include <string>

namespace warpsim::tracer {

class LaunchSelector {
 public:
  /// Empty `regex`: every kernel matches. Among matching launches, the first `skip` are passed over, then at most
  /// `count` are selected.
  LaunchSelector(const std::string& regex, std::uint64_t skip, std::optional<std::uint64_t> count);

  /// Whether to profile this launch of kernel `name` (mangled; the regex is also tried on the demangled name).
  bool select(const std::string& name);

 private:
  std::optional<std::regex> regex_;
  std::uint64_t skip_;
  std::optional<std::uint64_t> count_;
  std::mutex mutex_;
  std::uint64_t matched_ = 0;
};

}  // namespace warpsim::tracer
