#pragma once
// ws_microbench_launch: empty kernels over a grid of block and grid sizes, CUPTI-timed.
#include "benchmark_run.h"
#include "measurement.h"

namespace warpsim::calibrate {

/// kernel_launch_overhead_us: the median CUPTI duration of empty_kernel<<<1, 32>>>; launch_fits: paper 001's launch
/// regression, one line per block size (sim/models/wave/launch_fit.h, as scripts/fit-launch.sh fits the shipped
/// files). Each fit is a "launch_fits[]" measurement: a LaunchFit in text format, appended. Throws
/// std::runtime_error when the trace has no empty_kernel launch.
Measurements launch_values(const BenchmarkRun& run);

}  // namespace warpsim::calibrate
