#include "petri/petri_model.h"

#include <string>

#include "kernel_work.h"
#include "occupancy.h"
#include "prediction_shape.h"

namespace warpsim::models::petri {
namespace {

// More than half the steps without a ready warp: latency bounds the kernel, else issuing does.
std::string limiter(const KernelCycles& c) { return c.idle_cycles * 2 > c.cycles ? "latency" : "issue"; }

}  // namespace

KernelCycles kernel_cycles(Variant variant, const KernelLaunch& launch, const platform::GpuSpec& gpu,
                           const SliceOptions& options) {
  const WarpPlan plan = warp_plan(launch, gpu);
  const KernelNets nets(variant, launch.counters(), plan.total_warps(), gpu);
  KernelCycles c;
  if (plan.waves.full_waves > 0) {
    const WaveEstimate full = estimate_wave(nets, plan.full_wave_warps(), options);
    c.cycles += static_cast<double>(plan.waves.full_waves) * full.steps;
    c.idle_cycles += static_cast<double>(plan.waves.full_waves) * full.idle_steps;
  }
  if (plan.waves.tail_blocks_per_sm > 0) {
    const WaveEstimate tail = estimate_wave(nets, plan.tail_wave_warps(), options);
    c.cycles += tail.steps;
    c.idle_cycles += tail.idle_steps;
  }
  c.cycles /= steps_per_cycle(variant);
  c.idle_cycles /= steps_per_cycle(variant);
  return c;
}

KernelPrediction PetriModel::predict(const KernelView& kernel, const platform::GpuSpec& gpu) const {
  const KernelLaunch& launch = kernel.launch();
  const Occupancy occ = occupancy(launch, gpu.sm());
  KernelPrediction p = shaped_prediction(launch, occ, gpu);
  if (!kernel.has_counters()) {
    // As roofline: only the launch configuration; one DRAM latency per wave, a lower bound.
    p.sm_time_s = cycles_to_seconds(no_counters_cycles(p, gpu, launch), gpu);
  } else {
    const KernelCycles c = kernel_cycles(variant_, launch, gpu, options_);
    p.sm_time_s = cycles_to_seconds(c.cycles, gpu);
    p.limiter = limiter(c);
    add_bytes(p, kernel_work(launch.counters()));
  }
  mark_does_not_fit(p, occ);
  return p;
}

}  // namespace warpsim::models::petri
