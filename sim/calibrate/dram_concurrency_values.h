#pragma once
// ws_microbench_dram_inflight: 256 MiB streamed by W warps on every SM, each keeping U one-line loads in flight,
// reading only or copying (the kernel template's arguments), CUPTI-timed.
#include "benchmark_run.h"
#include "measurement.h"

namespace warpsim::calibrate {

/// memory.dram_concurrency: the array's bytes over the median CUPTI duration of each (W, U, read or copy) kernel, the
/// grid scripts/dram-concurrency.py gives the shipped files; memory.dram_efficiency: the grid's fastest read over the
/// driver's peak DRAM bandwidth. Throws std::runtime_error when the log has no array size or the trace no grid kernel.
Measurements dram_concurrency_values(const BenchmarkRun& run);

}  // namespace warpsim::calibrate
