#include "roofline/roofline_model.h"

#include <algorithm>
#include <array>

#include "launch_time.h"
#include "occupancy.h"
#include "prediction_shape.h"

namespace warpsim::models {
namespace {

struct Term {
  std::string_view name;
  double cycles;
};

// A pipe retires lanes / warp_size warp instructions per clock. A spec without the rate (0 lanes) cannot bound.
double pipe_cycles(double warp_instructions, double lanes, uint32_t warp_size) {
  if (lanes <= 0) return 0;
  return warp_instructions / (lanes / std::max<uint32_t>(warp_size, 1));
}

double per_clock(double amount, double rate) { return rate <= 0 ? 0 : amount / rate; }

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

BlockTime block_time(const KernelWork& work, uint64_t blocks, const platform::GpuSpec& gpu) {
  const platform::SmSpec& sm = gpu.sm();
  const platform::Lanes& lanes = sm.lanes();
  const uint32_t ws = sm.warp_size();
  // In tie order: a pipe that bounds as hard as issue is the more useful name.
  const std::array<Term, 9> terms{{
      {"fma pipe", pipe_cycles(work.pipes.fma, lanes.fp32(), ws)},
      {"alu pipe", pipe_cycles(work.pipes.alu, lanes.int32(), ws)},
      {"fp64 pipe", pipe_cycles(work.pipes.fp64, lanes.fp64(), ws)},
      {"xu pipe", pipe_cycles(work.pipes.xu, lanes.sfu(), ws)},
      {"lsu pipe", pipe_cycles(work.pipes.lsu, lanes.ldst(), ws)},
      {"tensor pipe", tensor_cycles(work.tensor_flops, lanes)},
      {"l1 bandwidth", per_clock(work.l1_bytes, sm.l1_bytes_per_cycle())},
      {"shared wavefronts", work.shared_wavefronts},
      {"issue", per_clock(work.issue_slots, sm.schedulers())},
  }};
  const auto slowest =
      std::max_element(terms.begin(), terms.end(), [](const Term& a, const Term& b) { return a.cycles < b.cycles; });
  return BlockTime{slowest->cycles / static_cast<double>(std::max<uint64_t>(blocks, 1)), slowest->name};
}

double wave_cycles(uint64_t blocks, uint32_t blocks_per_sm, uint32_t sm_count, double block_cycles,
                   double floor_cycles) {
  const uint64_t sms = std::max<uint32_t>(sm_count, 1);
  const uint64_t per_wave = uint64_t{std::max<uint32_t>(blocks_per_sm, 1)} * sms;
  const uint64_t full_waves = blocks / per_wave;
  const uint64_t tail_blocks = blocks % per_wave;
  // Blocks resident on one SM share its pipes: a full wave is blocks_per_sm block-times.
  const double full_wave = std::max(static_cast<double>(blocks_per_sm) * block_cycles, floor_cycles);
  double cycles = static_cast<double>(full_waves) * full_wave;
  if (tail_blocks > 0) {
    // The block scheduler spreads the tail over the SMs: the busiest holds ceil(tail / SMs) blocks.
    const uint64_t tail_per_sm = (tail_blocks + sms - 1) / sms;
    cycles += std::max(static_cast<double>(tail_per_sm) * block_cycles, floor_cycles);
  }
  return cycles;
}

KernelPrediction RooflineModel::predict(const KernelView& kernel, const platform::GpuSpec& gpu) const {
  const KernelLaunch& launch = kernel.launch();
  const Occupancy occ = occupancy(launch, gpu.sm());
  const uint64_t blocks = grid_blocks(launch);
  KernelPrediction p = shaped_prediction(launch, occ, gpu);
  if (!kernel.has_counters()) {
    // Timeline-only trace: nothing but the launch configuration. Assume the kernel reads global memory, as most do.
    p.sm_time_s = cycles_to_seconds(no_counters_cycles(p, gpu), gpu);
  } else {
    const KernelWork work = kernel_work(launch.counters());
    const BlockTime block = block_time(work, blocks, gpu);
    const double floor = latency_floor(work.reads_global, gpu.sm());
    const double throughput = wave_cycles(blocks, p.blocks_per_sm, gpu.sm_count(), block.cycles, 0);
    p.sm_time_s = cycles_to_seconds(wave_cycles(blocks, p.blocks_per_sm, gpu.sm_count(), block.cycles, floor), gpu);
    p.limiter = p.waves * floor > throughput ? "latency" : std::string(block.limiter);
    add_bytes(p, work);
  }
  apply_dispatch_roof(p, launch_time(gpu, occ.warps_per_block, blocks));
  mark_does_not_fit(p, occ);
  return p;
}

}  // namespace warpsim::models
