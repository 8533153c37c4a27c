#pragma once
// ws_microbench_launch: empty kernels over a grid of block and grid sizes, CUPTI-timed.
#include <string>
#include <vector>

#include "benchmark_run.h"
#include "measurement.h"
#include "wave/launch_fit.h"

namespace warpsim::calibrate {

/// Every timed launch of a kernel whose (mangled) name contains `kernel` in a timeline trace: block size in warps,
/// grid blocks, CUPTI duration (tests/tools/fit_launch.cc fits the shipped files' launch lines from these too).
std::vector<models::wave::LaunchSample> launch_samples(const std::string& trace, const std::string& kernel);

/// kernel_launch_overhead_us: the median CUPTI duration of empty_kernel<<<1, 32>>>; launch_fits: paper 001's launch
/// regression, one line per block size (sim/models/wave/launch_fit.h, as scripts/fit-launch.sh fits the shipped
/// files). Each fit is a "launch_fits[]" measurement: a LaunchFit in text format, appended. Throws
/// std::runtime_error when the trace has no empty_kernel launch.
Measurements launch_values(const BenchmarkRun& run);

}  // namespace warpsim::calibrate
