#include "wave/warp_time.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "wave/scheduler_queue.h"

namespace warpsim::models::wave {
namespace {

// The arithmetic classes: every instruction waits for its predecessor's result.
constexpr std::array<InstClass, 6> kArithmetic{InstClass::kFp32, InstClass::kInt,    InstClass::kFp64,
                                               InstClass::kSfu,  InstClass::kTensor, InstClass::kOther};

// The dependent path as the compiler scheduled it: every instruction issues after the mean stall count (which holds
// the fixed latencies of dependent arithmetic), and a variable-latency result is waited for only as long as its
// latency exceeds the cycles the compiler put between it and its first use.
double scheduled_warp_time(const KernelTuple& kernel, const GpuTuple& gpu, const MemoryLatencies& lat,
                           const CompilerSchedule& schedule) {
  const WarpInstructionMix& m = kernel.mix;
  double cycles = issued_instructions(kernel) * schedule.issue_cycles;
  cycles += global_load_wait(kernel, lat);
  cycles += m.shared_loads * exposed_latency(lat.shared, schedule);
  cycles += m.other_lsu * exposed_latency(gpu.latency[index(InstClass::kLsu)], schedule);
  cycles += m.issued[index(InstClass::kSfu)] * exposed_latency(gpu.latency[index(InstClass::kSfu)], schedule);
  cycles += schedule.constant_stalls * std::max(0.0, lat.constant - schedule.constant_cover_cycles);
  cycles += m.branches * kBranchResolveCycles;
  return cycles;
}

}  // namespace

double issued_instructions(const KernelTuple& kernel) {
  double issued = 0;
  for (double count : kernel.mix.issued) issued += count;
  return issued;
}

double global_loads_per_group(const KernelTuple& kernel) {
  return std::min(kernel.schedule ? kernel.schedule->global_loads_per_stall : 1, waited_global_loads(kernel.mix));
}

double global_load_wait(const KernelTuple& kernel, const MemoryLatencies& lat) {
  const WarpInstructionMix& m = kernel.mix;
  // Asynchronous copies (LDGSTS, TMA) are not waited on one by one: a warp waits for a pipeline stage of them at a
  // barrier while the next stages' copies are in flight, so a multi-stage pipeline hides their latency.
  const double waited = waited_global_loads(m);
  if (!kernel.schedule) return waited * average_load_latency(lat, kernel.hits);
  // Loads in flight together wait for the slowest of them, once per group (at least one load: a group's latency).
  const double per_group = std::max(1.0, global_loads_per_group(kernel));
  const double group = group_load_latency(lat, kernel.hits, per_group);
  return waited * exposed_global_group_latency(group, *kernel.schedule) / per_group;
}

double warp_time(const KernelTuple& kernel, const GpuTuple& gpu, const MemoryLatencies& lat) {
  if (kernel.schedule) return scheduled_warp_time(kernel, gpu, lat, *kernel.schedule) + sync_time(kernel, gpu);
  const WarpInstructionMix& m = kernel.mix;
  double cycles = 0;
  for (InstClass c : kArithmetic) cycles += m.issued[index(c)] * gpu.latency[index(c)];
  cycles += global_load_wait(kernel, lat);
  cycles += m.shared_loads * lat.shared;
  cycles += m.other_lsu * gpu.latency[index(InstClass::kLsu)];
  // A store only has to leave: its issue delay is all the path sees.
  cycles += m.stores * gpu.delay[index(InstClass::kLsu)];
  return cycles + sync_time(kernel, gpu);
}

double warp_delay(const KernelTuple& kernel, const GpuTuple& gpu) {
  if (gpu.issue == IssueRule::kPipesOverlap) return shared_dispatch_cycles(kernel.mix, gpu);
  double summed = 0;
  for (std::size_t c = 0; c < kInstClassCount; ++c) summed += kernel.mix.issued[c] * gpu.delay[c];
  return summed;
}

double fma_pipes_cycles(const WarpInstructionMix& m, const GpuTuple& gpu) {
  const double fma_pipe = m.issued[index(InstClass::kFp32)];
  const double integer = std::min(m.integer_multiplies, fma_pipe);
  const double fp16 = std::min(m.fp16_fmas, fma_pipe - integer);
  const double floating = fma_pipe - integer - fp16;
  const double heavy_passes = integer + (kWideMultiplyPasses - 1) * std::min(m.wide_integer_multiplies, integer);
  return heavy_passes * gpu.delay[index(InstClass::kInt)] + fp16 * gpu.hfma2_delay +
         floating * gpu.delay[index(InstClass::kFp32)];
}

double shared_dispatch_cycles(const WarpInstructionMix& m, const GpuTuple& gpu) {
  double slots = m.wide_integer_multiplies * kWideMultiplyDispatchCycles;
  for (double count : m.issued) slots += count;
  double norm =
      std::pow(slots, kDispatchSharingExponent) + std::pow(fma_pipes_cycles(m, gpu), kDispatchSharingExponent);
  for (InstClass c : {InstClass::kInt, InstClass::kFp64, InstClass::kSfu, InstClass::kTensor, InstClass::kLsu})
    norm += std::pow(m.issued[index(c)] * gpu.delay[index(c)], kDispatchSharingExponent);
  // The SM's one address-divergence unit, shared by its schedulers: a pipe of its own beside the others.
  norm += std::pow(m.adu * gpu.adu_delay, kDispatchSharingExponent);
  return std::pow(norm, 1 / kDispatchSharingExponent);
}

double sync_time(const KernelTuple& kernel, const GpuTuple& gpu) {
  if (kernel.syncs <= 0 || kernel.warps_per_block <= 1) return 0;
  return kernel.syncs * gpu.delay[index(InstClass::kLsu)] * (kernel.warps_per_block - 1);
}

BlockTime processing_block_time(const KernelTuple& kernel, const GpuTuple& gpu, const MemoryLatencies& lat,
                                double warps) {
  if (warps <= 0) return {};
  // Pipelined blocks: a wave's blocks start and end together (they share the schedulers evenly), so their slots'
  // turnaround follows the wave whichever bound it has.
  const double turnaround = gpu.blocks == BlockRule::kPipelined ? gpu.block_turnaround : 0;
  const double path = warp_time(kernel, gpu, lat);
  const double issue = warp_delay(kernel, gpu);
  const bool issue_bound = warps * issue > path;
  double cycles = std::max(path, warps * issue);
  if (gpu.issue == IssueRule::kPipesOverlap) {
    // The scheduler as a closed queue, for the share of the path whose waits vary (global loads served by L1, L2 or
    // DRAM); fixed-latency chains interleave as the bounds have it (scheduler_queue.h).
    const double varying = path > issue ? std::clamp(global_load_wait(kernel, lat) / (path - issue), 0.0, 1.0) : 0;
    const double queued = closed_queue_cycles(warps, issued_instructions(kernel), issue, path);
    cycles = varying * queued + (1 - varying) * cycles;
  }
  return {cycles + turnaround, issue_bound};
}

}  // namespace warpsim::models::wave
