#pragma once
// How a grid's blocks fall into waves: full waves of blocks_per_sm resident blocks on every SM, then a last, partial
// wave whose blocks the block scheduler spreads over the SMs, ceil(tail blocks / SMs) on the busiest one. Every model
// that times waves (roofline, wave, mwp's repetitions, petri's nets) and the prediction's wave count use this split.
//
//   300 blocks, 2 per SM, 132 SMs:  per wave 264  ->  1 full wave, a tail of 36 blocks, 1 on the busiest SM
#include <cstdint>

#include "occupancy.h"
#include "platform.pb.h"
#include "trace.pb.h"

namespace warpsim::models {

struct WavePlan {
  uint64_t blocks = 0;         // blocks in the grid
  uint32_t blocks_per_sm = 1;  // resident blocks per SM of a full wave (a block that does not fit counts as 1)
  uint32_t sm_count = 1;       // the GPU's SMs (a spec without any counts as 1)
  uint64_t full_waves = 0;
  uint64_t tail_blocks = 0;         // blocks of the last, partial wave; 0: no partial wave
  uint32_t tail_blocks_per_sm = 0;  // blocks on the busiest SM of the partial wave: ceil(tail_blocks / SMs)

  uint64_t blocks_per_wave() const { return uint64_t{blocks_per_sm} * sm_count; }
  /// SMs the partial wave occupies: min(tail_blocks, SMs).
  uint32_t tail_sms() const { return static_cast<uint32_t>(tail_blocks < sm_count ? tail_blocks : sm_count); }
  /// All waves, the partial one included: ceil(blocks / blocks_per_wave).
  uint64_t waves() const { return full_waves + (tail_blocks > 0 ? 1 : 0); }
};

/// `blocks` at `blocks_per_sm` resident per SM (0: a block that does not fit, run alone) on `sm_count` SMs.
WavePlan wave_plan(uint64_t blocks, uint32_t blocks_per_sm, uint32_t sm_count);

/// The plan of `launch`'s grid at `occupancy` on `gpu`.
WavePlan wave_plan(const KernelLaunch& launch, const Occupancy& occupancy, const platform::GpuSpec& gpu);

}  // namespace warpsim::models
