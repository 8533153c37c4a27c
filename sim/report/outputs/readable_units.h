#pragma once
/// @brief Durations and sizes at a readable scale, as every text output prints them (inspect, compare, the names of
/// timeline slices).

#include <cstdint>
#include <string>

namespace warpsim::report {

/// "1.234 ms", "56.7 us", "890 ns": a duration at a readable scale.
std::string format_duration(std::uint64_t ns);
/// "16.0 MiB", "512 B": a size at a readable scale.
std::string format_bytes(std::uint64_t bytes);

}  // namespace warpsim::report
