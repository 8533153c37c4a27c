#pragma once
// Time of one wave: the SMs' time (paper 001: time_sm = max over processing blocks of time_pb), then raised by the
// bandwidth fixed points, level by level: shared memory and L1 per SM, then L2 and DRAM over the GPU, then the
// uncoalesced requests' tag-stage rate per SM.
//
//   resident warps of the busiest SM = blocks on it * warps per block
//   warps of its busiest processing block = ceil(resident warps / schedulers)   (warps go round-robin)
#include <string_view>

#include "wave/bandwidth_fixed_point.h"
#include "wave/gpu_tuple.h"
#include "wave/kernel_tuple.h"

namespace warpsim::models::wave {

struct WaveShape {
  double blocks = 0;         // blocks the whole wave runs
  double blocks_per_sm = 0;  // blocks on its busiest SM
};

struct WaveTime {
  double cycles = 0;
  std::string_view limiter;   // "issue", "latency", or "<level> bandwidth"
  MemoryLatencies latencies;  // after the fixed points
};

/// Warps on the busiest processing block of an SM holding `warps_per_sm` warps.
double warps_per_processing_block(double warps_per_sm, uint32_t processing_blocks);

WaveTime wave_time(const KernelTuple& kernel, const GpuTuple& gpu, const WaveShape& shape,
                   const FixedPointOptions& options = {});

}  // namespace warpsim::models::wave
