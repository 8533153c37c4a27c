#include "wave/memory_latency.h"

#include <algorithm>
#include <cmath>

namespace warpsim::models::wave {

double average_load_latency(const MemoryLatencies& lat, const HitFractions& hits) {
  const double levels = hits.l1 * lat.l1 + hits.l2 * lat.l2 + hits.dram * lat.dram + hits.peer * lat.peer;
  // coalpct * levels + uncoalpct * (levels + extra): uncoalesced sectors still hit where they hit.
  return levels + hits.uncoal * lat.uncoal_extra;
}

double group_load_latency(const MemoryLatencies& lat, const HitFractions& hits, double loads) {
  const double n = std::max(1.0, loads);
  const double total = hits.l1 + hits.l2 + hits.dram + hits.peer;
  if (total <= 0) return average_load_latency(lat, hits);
  const double all_l1 = std::pow(hits.l1 / total, n);
  const double up_to_l2 = std::pow((hits.l1 + hits.l2) / total, n);
  const double up_to_dram = std::pow((hits.l1 + hits.l2 + hits.dram) / total, n);
  const double slowest =
      all_l1 * lat.l1 + (up_to_l2 - all_l1) * lat.l2 + (up_to_dram - up_to_l2) * lat.dram + (1 - up_to_dram) * lat.peer;
  return slowest + hits.uncoal * lat.uncoal_extra;
}

}  // namespace warpsim::models::wave
