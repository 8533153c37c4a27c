#pragma once
// ws_microbench_chain: one warp's chains of dependent instructions, each costing its whole latency.
#include "benchmark_run.h"
#include "measurement.h"

namespace warpsim::calibrate {

/// sm.latency_cycles.fp32 (FFMA), .fp64 (DFMA), .int32 (the integer unit's add and LOP3), .sfu (the median of the MUFU
/// functions) and .shared (an LDS pointer chase) from the lines "chain CLASS INSTRUCTION CYCLES" (clock64 cycles per
/// instruction).
Measurements chain_values(const BenchmarkRun& run);

}  // namespace warpsim::calibrate
