#include "wave/wave_model.h"

#include <algorithm>

#include "kernel_work.h"
#include "launch_time.h"
#include "occupancy.h"
#include "prediction_shape.h"
#include "wave/gpu_tuple.h"
#include "wave/kernel_tuple.h"
#include "wave/wave_time.h"
#include "wave_plan.h"

namespace warpsim::models {
namespace {

struct WavesTime {
  double cycles = 0;
  std::string_view limiter;
};

// Full waves hold blocks_per_sm blocks on every SM; the tail's blocks spread over the SMs, tail_blocks_per_sm on the
// busiest (wave_plan.h). The limiter is the full waves' when there are any: they are most of the time.
WavesTime all_waves(const wave::KernelTuple& k, const wave::GpuTuple& gpu, const WavePlan& plan) {
  WavesTime total;
  if (plan.tail_blocks > 0) {
    const wave::WaveShape shape{static_cast<double>(plan.tail_blocks), static_cast<double>(plan.tail_blocks_per_sm)};
    const wave::WaveTime t = wave::wave_time(k, gpu, shape);
    total = {t.cycles, t.limiter};
  }
  if (plan.full_waves > 0) {
    const wave::WaveShape shape{static_cast<double>(plan.blocks_per_wave()), static_cast<double>(plan.blocks_per_sm)};
    const wave::WaveTime t = wave::wave_time(k, gpu, shape);
    total = {total.cycles + static_cast<double>(plan.full_waves) * t.cycles, t.limiter};
  }
  return total;
}

// The launch regression's time split into what precedes the first block and what the dispatcher still does while
// blocks run. Dispatching first (paper 001): the whole grid precedes. Pipelined: only the first wave's blocks do.
struct LaunchSplit {
  double before_s = 0;
  double during_s = 0;
};

LaunchSplit launch_split(const platform::GpuSpec& gpu, const Occupancy& occ, const WavePlan& plan,
                         wave::BlockRule blocks) {
  const double whole = launch_time(gpu, occ.warps_per_block, plan.blocks).seconds;
  if (blocks == wave::BlockRule::kDispatchFirst) return {whole, 0};
  const double first_wave =
      launch_time(gpu, occ.warps_per_block, std::min(plan.blocks, plan.blocks_per_wave())).seconds;
  return {first_wave, whole - first_wave};
}

}  // namespace

std::string_view WaveModel::name() const {
  if (blocks_ == wave::BlockRule::kPipelined) return "wave-blocks";
  return issue_ == wave::IssueRule::kSumOfDelays ? "wave" : "wave-pipes";
}

KernelPrediction WaveModel::predict(const KernelView& kernel, const platform::GpuSpec& gpu) const {
  const KernelLaunch& launch = kernel.launch();
  const Occupancy occ = occupancy(launch, gpu.sm());
  const WavePlan plan = wave_plan(launch, occ, gpu);
  wave::GpuTuple tuple = wave::gpu_tuple(gpu);
  tuple.issue = issue_;
  tuple.blocks = blocks_;
  KernelPrediction p = shaped_prediction(launch, occ, gpu);
  // The launch regression replaces kernel_launch_overhead_us (which it falls back to): never both.
  const LaunchSplit launch_s = launch_split(gpu, occ, plan, blocks_);
  p.launch_overhead_s = launch_s.before_s;
  double cycles = 0;
  if (!kernel.has_counters()) {
    // Timeline-only trace: each wave waits at least one DRAM round trip (most kernels read global memory).
    cycles = no_counters_cycles(p, gpu, launch);
  } else {
    wave::KernelTuple k = wave::kernel_tuple(launch, tuple.warp_size, gpu.sm().lanes());
    k.recorded_l2_slices = kernel.recorded_l2_slices();
    k.hits.inflight = wave::inflight_hit_share(launch, occ.blocks_per_sm, k.hits.l1);
    const WavesTime t = all_waves(k, tuple, plan);
    cycles = t.cycles;
    p.limiter = std::string(t.limiter);
    add_bytes(p, kernel_work(launch.counters()));
  }
  // The rest of the dispatch overlaps the waves: the grid lasts at least that long.
  p.sm_time_s = std::max(tuple.clock_hz > 0 ? cycles / tuple.clock_hz : 0, launch_s.during_s);
  mark_does_not_fit(p, occ);
  return p;
}

}  // namespace warpsim::models
