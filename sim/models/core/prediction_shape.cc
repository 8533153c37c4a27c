#include "prediction_shape.h"

#include <algorithm>
#include <string>

#include "gpu_rates.h"
#include "wave_plan.h"

namespace warpsim::models {

KernelPrediction shaped_prediction(const KernelLaunch& launch, const Occupancy& occupancy,
                                   const platform::GpuSpec& gpu) {
  const WavePlan plan = wave_plan(launch, occupancy, gpu);
  KernelPrediction p;
  p.blocks_per_sm = plan.blocks_per_sm;
  p.waves = static_cast<uint32_t>(plan.waves());
  p.theoretical_occupancy = occupancy.theoretical;
  p.sms_used = static_cast<uint32_t>(std::min<uint64_t>(gpu.sm_count(), plan.blocks));
  p.launch_overhead_s = GpuRates::of(gpu).launch_overhead_s;
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
  if (occupancy.blocks_per_sm == 0)
    prediction.limiter = "does not fit: " + std::string(limiter_name(occupancy.limiter));
}

}  // namespace warpsim::models
