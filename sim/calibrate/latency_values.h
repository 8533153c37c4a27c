#pragma once
// ws_microbench_latency: one thread's pointer chase through sets that fit the L1, the L2, and neither.
#include "benchmark_run.h"
#include "measurement.h"

namespace warpsim::calibrate {

/// sm.latency_cycles.l1_hit, .l2_hit and .dram from the unloaded chases ("latency unloaded LEVEL BYTES CYCLES NS"):
/// the 16 KiB, 4 MiB and 256 MiB sets (the L2 flushed before the DRAM one).
Measurements latency_values(const BenchmarkRun& run);

}  // namespace warpsim::calibrate
