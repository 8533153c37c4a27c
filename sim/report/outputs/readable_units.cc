#include "outputs/readable_units.h"

#include <fmt/format.h>

namespace warpsim::report {

std::string format_duration(std::uint64_t ns) {
  const auto value = static_cast<double>(ns);
  if (ns >= 1'000'000'000) return fmt::format("{:.3f} s", value / 1e9);
  if (ns >= 1'000'000) return fmt::format("{:.3f} ms", value / 1e6);
  if (ns >= 1'000) return fmt::format("{:.1f} us", value / 1e3);
  return fmt::format("{} ns", ns);
}

std::string format_bytes(std::uint64_t bytes) {
  const auto value = static_cast<double>(bytes);
  if (bytes >= (1ull << 30)) return fmt::format("{:.1f} GiB", value / (1ull << 30));
  if (bytes >= (1ull << 20)) return fmt::format("{:.1f} MiB", value / (1ull << 20));
  if (bytes >= (1ull << 10)) return fmt::format("{:.1f} KiB", value / (1ull << 10));
  return fmt::format("{} B", bytes);
}

}  // namespace warpsim::report
