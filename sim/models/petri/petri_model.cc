#include "petri/petri_model.h"

#include <algorithm>
#include <string>

#include "kernel_work.h"
#include "occupancy.h"

namespace warpsim::models::petri {
namespace {

double seconds(double cycles, const platform::GpuSpec& gpu) { return cycles / (gpu.sm_clock_mhz() * 1e6); }

// More than half the steps without a ready warp: latency bounds the kernel, else issuing does.
std::string limiter(const KernelCycles& c) { return c.idle_cycles * 2 > c.cycles ? "latency" : "issue"; }

}  // namespace

KernelCycles kernel_cycles(Variant variant, const KernelLaunch& launch, const platform::GpuSpec& gpu,
                           const SliceOptions& options) {
  const WavePlan plan = wave_plan(launch, gpu);
  const KernelNets nets(variant, launch.counters(), plan.total_warps(), gpu);
  KernelCycles c;
  if (plan.full_waves > 0) {
    const WaveEstimate full = estimate_wave(nets, plan.blocks_per_sm * plan.warps_per_block, options);
    c.cycles += static_cast<double>(plan.full_waves) * full.steps;
    c.idle_cycles += static_cast<double>(plan.full_waves) * full.idle_steps;
  }
  if (plan.tail_blocks_per_sm > 0) {
    const WaveEstimate tail = estimate_wave(nets, plan.tail_blocks_per_sm * plan.warps_per_block, options);
    c.cycles += tail.steps;
    c.idle_cycles += tail.idle_steps;
  }
  return c;
}

KernelPrediction PetriModel::predict(const KernelView& kernel, const platform::GpuSpec& gpu) const {
  const KernelLaunch& launch = kernel.launch();
  const Occupancy occ = occupancy(launch, gpu.sm());
  const uint64_t blocks = grid_blocks(launch);
  KernelPrediction p;
  p.blocks_per_sm = std::max<uint32_t>(occ.blocks_per_sm, 1);
  p.waves = static_cast<uint32_t>(waves(blocks, p.blocks_per_sm, gpu.sm_count()));
  p.theoretical_occupancy = occ.theoretical;
  p.sms_used = static_cast<uint32_t>(std::min<uint64_t>(gpu.sm_count(), blocks));
  p.launch_overhead_s = gpu.kernel_launch_overhead_us() * 1e-6;
  if (!kernel.has_counters()) {
    // As roofline: only the launch configuration; one DRAM latency per wave, a lower bound.
    p.estimated_without_counters = true;
    p.sm_time_s = seconds(p.waves * gpu.sm().latency_cycles().dram(), gpu);
    p.limiter = "latency (no counters)";
  } else {
    const KernelCycles c = kernel_cycles(variant_, launch, gpu, options_);
    p.sm_time_s = seconds(c.cycles, gpu);
    p.limiter = limiter(c);
    const KernelWork work = kernel_work(launch.counters());
    p.dram_bytes = work.dram_bytes;
    p.l2_bytes = work.l2_bytes;
    p.peer_bytes = work.peer_bytes;
    p.sysmem_bytes = work.sysmem_bytes;
  }
  if (occ.blocks_per_sm == 0) p.limiter = "does not fit: " + std::string(limiter_name(occ.limiter));
  return p;
}

}  // namespace warpsim::models::petri
