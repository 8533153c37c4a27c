#pragma once
// Paper 001's launch regression: empty kernels launched with one block size take t = x0 + gridSize * x1, so one
// ordinary least-squares line per block size (in warps) gives the launch time of any grid. This fits the lines;
// launch_time.h reads them back from a GpuSpec. tests/tools/fit_launch.cc runs it on a launch microbenchmark trace.
#include <cstdint>
#include <span>
#include <vector>

#include "platform.pb.h"

namespace warpsim::models::wave {

/// One timed launch of an empty kernel.
struct LaunchSample {
  uint32_t block_warps = 0;
  uint64_t grid_blocks = 0;
  double duration_ns = 0;
};

struct Line {
  double x0 = 0;  // intercept
  double x1 = 0;  // slope
};

/// Ordinary least squares of y over x. Throws std::invalid_argument with fewer than two distinct x.
Line least_squares(std::span<const double> x, std::span<const double> y);

/// One LaunchFit per block size, sorted by block_warps: each (block size, grid size) configuration contributes the
/// median of its launches (robust to the slower first launch of a configuration), then a least-squares line over
/// the grid sizes. Block sizes with fewer than two grid sizes get no fit.
std::vector<platform::LaunchFit> fit_launches(std::span<const LaunchSample> samples);

}  // namespace warpsim::models::wave
