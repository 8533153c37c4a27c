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
  prediction.sysmem_write_bytes = work.sysmem_write_bytes;
}

double no_counters_cycles(KernelPrediction& prediction, const platform::GpuSpec& gpu, const KernelLaunch& launch) {
  prediction.estimated_without_counters = true;
  prediction.limiter = "latency (no counters)";
  const double latency_cycles = prediction.waves * gpu.sm().latency_cycles().dram();
  if (!launch.has_counters()) return latency_cycles;
  const MemoryTraffic& memory = launch.counters().memory();
  const GpuRates rates = GpuRates::of(gpu);
  const double dram_bytes_per_cycle = bytes_per_cycle(rates.dram_sustained_bytes_per_s, rates.clock_hz);
  const double dram_bytes = static_cast<double>(memory.dram_read_bytes() + memory.dram_write_bytes());
  const double dram_cycles = dram_bytes_per_cycle > 0 ? dram_bytes / dram_bytes_per_cycle : 0;
  if (dram_cycles <= latency_cycles) return latency_cycles;
  prediction.limiter = "dram bytes (no counters)";
  return dram_cycles;
}

void mark_does_not_fit(KernelPrediction& prediction, const Occupancy& occupancy) {
  if (occupancy.blocks_per_sm == 0)
    prediction.limiter = "does not fit: " + std::string(limiter_name(occupancy.limiter));
}

}  // namespace warpsim::models
