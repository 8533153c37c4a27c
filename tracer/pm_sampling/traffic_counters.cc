#include "pm_sampling/traffic_counters.h"

#include <cmath>
#include <limits>

namespace warpsim::tracer {
namespace {

// CUPTI evaluates every metric as a double; byte counts are whole numbers up to its rounding. A value that says
// nothing (NaN, infinite, negative: no bytes cannot be fewer than none) is no measurement: the field stays unset.
std::optional<std::uint64_t> bytes_of(double value) {
  if (!std::isfinite(value) || value < 0.0) return std::nullopt;
  const double rounded = std::round(value);
  constexpr double kTwoTo64 = 18446744073709551616.0;
  if (rounded >= kTwoTo64) return std::numeric_limits<std::uint64_t>::max();
  return static_cast<std::uint64_t>(rounded);
}

}  // namespace

const std::vector<TrafficCounter>& traffic_counters() {
  static const std::vector<TrafficCounter> counters = {
      {"pcie__read_bytes.sum", [](TrafficSample& s, std::uint64_t b) { s.set_pcie_read_bytes(b); }},
      {"pcie__write_bytes.sum", [](TrafficSample& s, std::uint64_t b) { s.set_pcie_write_bytes(b); }},
      {"nvlrx__bytes.sum", [](TrafficSample& s, std::uint64_t b) { s.set_nvlink_rx_bytes(b); }},
      {"nvltx__bytes.sum", [](TrafficSample& s, std::uint64_t b) { s.set_nvlink_tx_bytes(b); }},
      {"dram__bytes_read.sum", [](TrafficSample& s, std::uint64_t b) { s.set_dram_read_bytes(b); }},
      {"dram__bytes_write.sum", [](TrafficSample& s, std::uint64_t b) { s.set_dram_write_bytes(b); }}};
  return counters;
}

std::optional<TrafficSample> to_traffic_sample(const DecodedSample& decoded,
                                               const std::vector<TrafficCounter>& counters) {
  if (decoded.end_ns < decoded.start_ns) return std::nullopt;
  TrafficSample sample;
  sample.set_start_ns(decoded.start_ns);
  sample.set_end_ns(decoded.end_ns);
  for (std::size_t i = 0; i < counters.size() && i < decoded.values.size(); ++i)
    if (auto bytes = bytes_of(decoded.values[i])) counters[i].set(sample, *bytes);
  return sample;
}

}  // namespace warpsim::tracer
