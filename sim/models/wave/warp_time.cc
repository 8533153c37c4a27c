#include "wave/warp_time.h"

#include <algorithm>
#include <array>

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
  double issued = 0;
  for (double count : m.issued) issued += count;
  double cycles = issued * schedule.issue_cycles;
  // Loads in flight together wait for the slowest of them, once per group.
  const double group = group_load_latency(lat, kernel.hits, schedule.global_loads_per_stall);
  cycles += m.global_loads * exposed_global_load_latency(group, schedule);
  cycles += m.shared_loads * exposed_latency(lat.shared, schedule);
  cycles += m.other_lsu * exposed_latency(gpu.latency[index(InstClass::kLsu)], schedule);
  cycles += m.issued[index(InstClass::kSfu)] * exposed_latency(gpu.latency[index(InstClass::kSfu)], schedule);
  return cycles;
}

}  // namespace

double warp_time(const KernelTuple& kernel, const GpuTuple& gpu, const MemoryLatencies& lat) {
  if (kernel.schedule) return scheduled_warp_time(kernel, gpu, lat, *kernel.schedule) + sync_time(kernel, gpu);
  const WarpInstructionMix& m = kernel.mix;
  double cycles = 0;
  for (InstClass c : kArithmetic) cycles += m.issued[index(c)] * gpu.latency[index(c)];
  cycles += m.global_loads * average_load_latency(lat, kernel.hits);
  cycles += m.shared_loads * lat.shared;
  cycles += m.other_lsu * gpu.latency[index(InstClass::kLsu)];
  // A store only has to leave: its issue delay is all the path sees.
  cycles += m.stores * gpu.delay[index(InstClass::kLsu)];
  return cycles + sync_time(kernel, gpu);
}

double warp_delay(const KernelTuple& kernel, const GpuTuple& gpu) {
  double summed = 0, slots = 0, busiest_pipe = 0;
  for (std::size_t c = 0; c < kInstClassCount; ++c) {
    summed += kernel.mix.issued[c] * gpu.delay[c];
    slots += kernel.mix.issued[c];
    busiest_pipe = std::max(busiest_pipe, kernel.mix.issued[c] * gpu.delay[c]);
  }
  return gpu.issue == IssueRule::kPipesOverlap ? std::max(slots, busiest_pipe) : summed;
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
  const double latency_bound = warp_time(kernel, gpu, lat) + turnaround;
  const double issue_bound = warps * warp_delay(kernel, gpu) + turnaround;
  return issue_bound > latency_bound ? BlockTime{issue_bound, true} : BlockTime{latency_bound, false};
}

}  // namespace warpsim::models::wave
