#pragma once
/// @brief Traffic mode's counters: the PM-sampling metrics it samples, the TrafficSample field each one fills, and a
/// decoded sample (its times and one value per sampled metric) turned into a TrafficSample row. Pure: no CUDA.

#include <cstdint>
#include <optional>
#include <vector>

#include "trace.pb.h"

namespace warpsim::tracer {

/// One sampled metric and where its bytes go in a TrafficSample.
struct TrafficCounter {
  const char* metric;  ///< CUPTI's name, rollup included ("pcie__read_bytes.sum")
  void (*set)(TrafficSample& sample, std::uint64_t bytes);
};

/// PCIe read and write, NVLink received and transmitted, DRAM read and written bytes: what the trace's TrafficSample
/// holds. Should a chip need more than one pass for them all, the last ones are given up first.
const std::vector<TrafficCounter>& traffic_counters();

/// One sample as CUPTI decodes it: its interval on the activity records' clock and, per counter of the session, the
/// value CUPTI evaluated (a double, although these metrics count bytes).
struct DecodedSample {
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
  std::vector<double> values;  ///< values[i] belongs to the session's counters[i]
};

/// The trace row of `decoded`, whose values belong to `counters` (those the chip offered, in their order): a counter
/// not sampled, or whose value is negative or not finite, is left unset. nullopt for a sample that ends before it
/// starts, which the trace would refuse.
std::optional<TrafficSample> to_traffic_sample(const DecodedSample& decoded,
                                               const std::vector<TrafficCounter>& counters);

}  // namespace warpsim::tracer
