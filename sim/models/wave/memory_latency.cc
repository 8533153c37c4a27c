#include "wave/memory_latency.h"

#include <algorithm>
#include <cmath>

namespace warpsim::models::wave {

namespace {

// A hit on a line still on its way waits for it: as long as the requests that miss the L1, on average.
double inflight_latency(const MemoryLatencies& lat, const HitFractions& hits) {
  const double missing = hits.l2 + hits.dram + hits.peer + hits.host;
  if (missing <= 0) return lat.l1;  // nothing misses: no line is ever on its way
  return (hits.l2 * lat.l2 + hits.dram * lat.dram + hits.peer * lat.peer + hits.host * lat.host) / missing;
}

}  // namespace

double average_load_latency(const MemoryLatencies& lat, const HitFractions& hits) {
  const double inflight = hits.l1 * hits.inflight;
  const double levels = (hits.l1 - inflight) * lat.l1 + inflight * inflight_latency(lat, hits) + hits.l2 * lat.l2 +
                        hits.dram * lat.dram + hits.peer * lat.peer + hits.host * lat.host;
  // coalpct * levels + uncoalpct * (levels + extra): uncoalesced sectors still hit where they hit.
  return levels + hits.uncoal * lat.uncoal_extra;
}

double GroupLatencyGrowth::at(double group_loads) const {
  if (points == 0 || group_loads <= 1) return 1;
  // Interpolated in log2(loads) from (1 load, 1) through the measured points; the last ratio beyond the last point.
  double previous_loads = 1;
  double previous_ratio = 1;
  for (std::size_t i = 0; i < points; ++i) {
    if (group_loads <= loads[i]) {
      if (loads[i] <= previous_loads) return ratio[i];
      const double f = std::log2(group_loads / previous_loads) / std::log2(loads[i] / previous_loads);
      return previous_ratio + f * (ratio[i] - previous_ratio);
    }
    previous_loads = loads[i];
    previous_ratio = ratio[i];
  }
  return previous_ratio;
}

double group_load_latency(const MemoryLatencies& lat, const HitFractions& hits, double loads) {
  const double n = std::max(1.0, loads);
  const double total = hits.l1 + hits.l2 + hits.dram + hits.peer + hits.host;
  if (total <= 0) return average_load_latency(lat, hits);
  // The hits on lines on their way rank between the L2's hits and DRAM's loads: they wait for the mean miss.
  const double settled_l1 = hits.l1 * (1 - hits.inflight);
  const double all_l1 = std::pow(settled_l1 / total, n);
  const double up_to_l2 = std::pow((settled_l1 + hits.l2) / total, n);
  const double up_to_inflight = std::pow((hits.l1 + hits.l2) / total, n);
  const double up_to_dram = std::pow((hits.l1 + hits.l2 + hits.dram) / total, n);
  const double up_to_peer = std::pow((hits.l1 + hits.l2 + hits.dram + hits.peer) / total, n);
  // A group that waits on DRAM waits on all of its DRAM loads, longer the more there are: as many as the group holds
  // given that it holds one (n x share over the chance of at least one).
  const double dram_share = hits.dram / total;
  const double with_dram = 1 - std::pow(1 - dram_share, n);
  const double dram_loads = with_dram > 0 ? n * dram_share / with_dram : 1;
  const double dram = lat.dram * lat.dram_group.at(dram_loads);
  const double slowest =
      all_l1 * lat.l1 + (up_to_l2 - all_l1) * lat.l2 + (up_to_inflight - up_to_l2) * inflight_latency(lat, hits) +
      (up_to_dram - up_to_inflight) * dram + (up_to_peer - up_to_dram) * lat.peer + (1 - up_to_peer) * lat.host;
  return slowest + hits.uncoal * lat.uncoal_extra;
}

}  // namespace warpsim::models::wave
