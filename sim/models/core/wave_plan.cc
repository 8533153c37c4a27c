#include "wave_plan.h"

#include <algorithm>

namespace warpsim::models {

WavePlan wave_plan(uint64_t blocks, uint32_t blocks_per_sm, uint32_t sm_count) {
  WavePlan plan;
  plan.blocks = blocks;
  plan.blocks_per_sm = std::max<uint32_t>(blocks_per_sm, 1);
  plan.sm_count = std::max<uint32_t>(sm_count, 1);
  const uint64_t per_wave = plan.blocks_per_wave();
  const uint64_t sms = plan.sm_count;
  plan.full_waves = blocks / per_wave;
  plan.tail_blocks = blocks % per_wave;
  // tail_blocks < blocks_per_sm x SMs, so the busiest SM holds fewer than blocks_per_sm: it fits a uint32.
  plan.tail_blocks_per_sm = static_cast<uint32_t>((plan.tail_blocks + sms - 1) / sms);
  return plan;
}

WavePlan wave_plan(const KernelLaunch& launch, const Occupancy& occupancy, const platform::GpuSpec& gpu) {
  return wave_plan(grid_blocks(launch), occupancy.blocks_per_sm, gpu.sm_count());
}

}  // namespace warpsim::models
