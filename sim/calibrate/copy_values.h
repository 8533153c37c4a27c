#pragma once
// ws_microbench_copy --step 2: cudaMemset and device-to-device cudaMemcpy from 4 bytes to 256 MiB, CUPTI-timed.
#include "benchmark_run.h"
#include "measurement.h"

namespace warpsim::calibrate {

/// memory.memset_bandwidth_gb_per_s and memory.device_copy_bandwidth_gb_per_s: bytes over the median CUPTI duration
/// at the largest size (past the L2, so DRAM-bound), as scripts/copy-constants.py takes them. Throws
/// std::runtime_error when the trace has no memset or no copy within one GPU.
Measurements copy_values(const BenchmarkRun& run);

}  // namespace warpsim::calibrate
