#include "wave/scheduler_queue.h"

#include <algorithm>
#include <cmath>

namespace warpsim::models::wave {

double closed_queue_cycles(double warps, double instructions, double issue_cycles, double path_cycles) {
  const double bounds = std::max(path_cycles, warps * issue_cycles);
  if (warps <= 0 || instructions <= 0 || issue_cycles <= 0) return bounds;
  const double service = issue_cycles / instructions;
  const double think = std::max(0.0, path_cycles - issue_cycles) / instructions;
  const int customers = std::max(1, static_cast<int>(std::lround(warps)));
  double queued = 0, throughput = 0;  // Q(k), X(k): warps at the scheduler, instructions issued per cycle
  for (int k = 1; k <= customers; ++k) {
    const double residence = service * (1 + queued);
    throughput = k / (residence + think);
    queued = throughput * residence;
  }
  return std::max(bounds, customers * instructions / throughput);
}

}  // namespace warpsim::models::wave
