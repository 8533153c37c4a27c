#include "roofline/roofline_model.h"

#include <algorithm>
#include <string>

#include "block_time.h"
#include "kernel_work.h"
#include "launch_time.h"
#include "occupancy.h"
#include "prediction_shape.h"

namespace warpsim::models {
namespace {

// Each wave needs at least the dependent path of one warp: one DRAM round trip when the kernel reads global memory
// (the first load of any warp goes there), else one FP32 result.
double latency_floor(bool reads_global, const platform::SmSpec& sm) {
  return reads_global ? sm.latency_cycles().dram() : sm.latency_cycles().fp32();
}

// One more roof: a kernel lasts at least as long as the same grid of empty blocks, whose time the launch
// microbenchmark measured (launch_fits: x0 + blocks * x1, the block scheduler's dispatch rate). Its work overlaps
// the dispatch, so this bounds the kernel instead of adding to it.
void apply_dispatch_roof(KernelPrediction& p, const LaunchTime& empty_grid) {
  const double dispatch_s = empty_grid.seconds - p.launch_overhead_s;
  if (dispatch_s <= p.sm_time_s) return;
  p.sm_time_s = dispatch_s;
  p.limiter = "block dispatch";
}

}  // namespace

double wave_cycles(const WavePlan& plan, double block_cycles, double floor_cycles) {
  // Blocks resident on one SM share its pipes: a full wave is blocks_per_sm block-times.
  const double full_wave = std::max(static_cast<double>(plan.blocks_per_sm) * block_cycles, floor_cycles);
  double cycles = static_cast<double>(plan.full_waves) * full_wave;
  if (plan.tail_blocks > 0) {
    cycles += std::max(static_cast<double>(plan.tail_blocks_per_sm) * block_cycles, floor_cycles);
  }
  return cycles;
}

KernelPrediction RooflineModel::predict(const KernelView& kernel, const platform::GpuSpec& gpu) const {
  const KernelLaunch& launch = kernel.launch();
  const Occupancy occ = occupancy(launch, gpu.sm());
  const WavePlan plan = wave_plan(launch, occ, gpu);
  KernelPrediction p = shaped_prediction(launch, occ, gpu);
  if (!kernel.has_counters()) {
    // Timeline-only trace: nothing but the launch configuration. Assume the kernel reads global memory, as most do.
    p.sm_time_s = cycles_to_seconds(no_counters_cycles(p, gpu, launch), gpu);
  } else {
    const KernelWork work = kernel_work(launch.counters(), launch.has_sass() ? &launch.sass() : nullptr);
    const BlockTime block = block_time(work, plan.blocks, gpu);
    const double floor = latency_floor(work.reads_global, gpu.sm());
    const double throughput = wave_cycles(plan, block.cycles, 0);
    p.sm_time_s = cycles_to_seconds(wave_cycles(plan, block.cycles, floor), gpu);
    p.limiter = p.waves * floor > throughput ? "latency" : std::string(block.limiter);
    add_bytes(p, work);
  }
  apply_dispatch_roof(p, launch_time(gpu, occ.warps_per_block, plan.blocks));
  mark_does_not_fit(p, occ);
  return p;
}

}  // namespace warpsim::models
