#include "wave/bandwidth_fixed_point.h"

#include <algorithm>
#include <cmath>

namespace warpsim::models::wave {

FixedPoint settle_bandwidth(const WaveTimeFn& time_of, MemoryLatencies& lat, const Level& level, double floor,
                            const FixedPointOptions& options) {
  auto time_at = [&](const MemoryLatencies& l) { return std::max(floor, time_of(l)); };
  FixedPoint result{time_at(lat), 0};
  if (level.bandwidth <= 0 || level.demand <= 0) return result;
  // Cycles the level needs to serve the wave at full rate, after the cycles in which it cannot serve at all.
  const double bound = level.demand / level.bandwidth + level.idle_cycles;
  double& latency = lat.*level.latency;
  const double nominal = latency;
  while (result.time > 0 && result.iterations < options.max_iterations) {
    const double mul = bound / result.time;  // (demand / time) / bandwidth
    if (std::abs(mul - 1) <= options.tolerance) break;
    // Down as well as up: a step across the kink where an issue-bound wave turns latency-bound can overshoot.
    const double next = std::clamp(latency * mul, nominal, std::max(nominal, bound));
    if (next == latency) break;  // at the nominal latency with room to spare, or at the cap
    latency = next;
    result.time = time_at(lat);
    ++result.iterations;
  }
  result.time = std::max(result.time, bound);
  return result;
}

}  // namespace warpsim::models::wave
