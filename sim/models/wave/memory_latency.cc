#include "wave/memory_latency.h"

namespace warpsim::models::wave {

double average_load_latency(const MemoryLatencies& lat, const HitFractions& hits) {
  const double levels = hits.l1 * lat.l1 + hits.l2 * lat.l2 + hits.dram * lat.dram;
  // coalpct * levels + uncoalpct * (levels + extra): uncoalesced sectors still hit where they hit.
  return levels + hits.uncoal * lat.uncoal_extra;
}

}  // namespace warpsim::models::wave
