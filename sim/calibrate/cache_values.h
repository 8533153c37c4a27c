#pragma once
// ws_microbench_l1: the L1's and the L2's bandwidth from streaming loads that hit there.
#include "benchmark_run.h"
#include "measurement.h"

namespace warpsim::calibrate {

/// memory.l2_bandwidth_gb_per_s: the whole GPU's 16-byte ld.global.cg loads over an L2-resident set ("l1 l2_ld_cg 16
/// GB/s B/clk/SM"); sm.l1_bytes_per_cycle: 16-byte loads hitting the L1 ("l1 global_ld 16 ..."), bytes a clock per SM.
Measurements cache_values(const BenchmarkRun& run);

}  // namespace warpsim::calibrate
