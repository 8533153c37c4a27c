#include "prediction_shape.h"

#include <algorithm>
#include <string>

namespace warpsim::models {

KernelPrediction shaped_prediction(const KernelLaunch& launch, const Occupancy& occupancy,
                                   const platform::GpuSpec& gpu) {
  const uint64_t blocks = grid_blocks(launch);
  KernelPrediction p;
  p.blocks_per_sm = std::max<uint32_t>(occupancy.blocks_per_sm, 1);
  p.waves = static_cast<uint32_t>(waves(blocks, p.blocks_per_sm, gpu.sm_count()));
  p.theoretical_occupancy = occupancy.theoretical;
  p.sms_used = static_cast<uint32_t>(std::min<uint64_t>(gpu.sm_count(), blocks));
  p.launch_overhead_s = gpu.kernel_launch_overhead_us() * 1e-6;
  return p;
}

void add_bytes(KernelPrediction& prediction, const KernelWork& work) {
  prediction.dram_bytes = work.dram_bytes;
  prediction.l2_bytes = work.l2_bytes;
  prediction.peer_bytes = work.peer_bytes;
  prediction.sysmem_bytes = work.sysmem_bytes;
}

double no_counters_cycles(KernelPrediction& prediction, const platform::GpuSpec& gpu) {
  prediction.estimated_without_counters = true;
  prediction.limiter = "latency (no counters)";
  return prediction.waves * gpu.sm().latency_cycles().dram();
}

void mark_does_not_fit(KernelPrediction& prediction, const Occupancy& occupancy) {
  if (occupancy.blocks_per_sm == 0) prediction.limiter = "does not fit: " + std::string(limiter_name(occupancy.limiter));
}

}  // namespace warpsim::models
