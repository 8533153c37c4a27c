#include "cache_values.h"

#include <fmt/format.h>

#include "statistics.h"

namespace warpsim::calibrate {

Measurements cache_values(const BenchmarkRun& run) {
  const double l2_gb_per_s = median(run.log.numbers({"l1", "l2_ld_cg", "16"}, 3));
  const double l1_bytes_per_clock = median(run.log.numbers({"l1", "global_ld", "16"}, 4));
  return {
      {"memory.l2_bandwidth_gb_per_s", fmt::format("{:.0f}", l2_gb_per_s),
       fmt::format("MEASURED {}: 16-byte ld.global.cg over an L2-resident 16 MiB set, whole GPU", run.provenance())},
      {"sm.l1_bytes_per_cycle", fmt::format("{:.2f}", l1_bytes_per_clock),
       fmt::format("MEASURED {}: 16-byte loads hitting the L1, bytes a clock per SM", run.provenance())}};
}

}  // namespace warpsim::calibrate
