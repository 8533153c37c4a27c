#pragma once
// A kernel's launch time (paper 001 adds it before the waves; roofline takes it as the shortest a grid can last),
// from the GpuSpec's launch_fits (one line per block size, t = x0 + grid blocks * x1). A block size between two
// fitted ones takes the line interpolated linearly in warps between them; outside the fitted range, the nearest one.
// A GPU without fits falls back to kernel_launch_overhead_us, whatever the grid.
#include <cstdint>

#include "platform.pb.h"

namespace warpsim::models {

struct LaunchTime {
  double seconds = 0;
  bool fitted = false;  // from launch_fits; false: kernel_launch_overhead_us
};

LaunchTime launch_time(const platform::GpuSpec& gpu, uint32_t block_warps, uint64_t grid_blocks);

}  // namespace warpsim::models
