#pragma once
// Paper 001's warp and processing-block times:
//   time_wp  = time(main thread) + time_sync          the warp alone: its dependent path
//   delay_wp = delay(main thread)                     cycles its processing block spends issuing it
//   time_pb  = max( max_wp time_wp, sum_wp delay_wp ) latency-bound or issue-bound
// With the pipes overlapping (wave-pipes, wave-blocks), the share of the path that waits on global loads takes the
// scheduler as a closed queue instead (scheduler_queue.h): warps whose waits vary find it busy after them.
// The warps of one kernel are alike (the counters are totals), so max_wp time_wp is one warp's time and the sum of
// delays is the warps a processing block holds times one warp's delay.
#include "wave/gpu_tuple.h"
#include "wave/kernel_tuple.h"
#include "wave/memory_latency.h"

namespace warpsim::models::wave {

/// Warp instructions one warp issues, all classes.
double issued_instructions(const KernelTuple& kernel);

/// Cycles of one warp's path spent waiting for the global loads it waits on one by one (not its asynchronous copies,
/// kernel_tuple.h): with the compiler's schedule, each group of loads in flight waits for its slowest, beyond the
/// compiler's cover; without, every load its mean latency.
double global_load_wait(const KernelTuple& kernel, const MemoryLatencies& lat);

/// Cycles one warp alone needs: with the kernel's compiler schedule, its issue spacing plus the load latencies it
/// does not cover; without, each instruction waiting for the one before (README.md, "dependent path").
double warp_time(const KernelTuple& kernel, const GpuTuple& gpu, const MemoryLatencies& lat);

/// Cycles one warp occupies its processing block's issue: sum over classes of count * issue delay (paper 001), or
/// with IssueRule::kPipesOverlap the larger of its instruction count and its busiest pipe's count * delay.
double warp_delay(const KernelTuple& kernel, const GpuTuple& gpu);

/// time_sync = syncs * delay_dep * (warps per block - 1), delay_dep the LSU issue delay (README.md).
double sync_time(const KernelTuple& kernel, const GpuTuple& gpu);

struct BlockTime {
  double cycles = 0;
  bool issue_bound = false;  // the issue delays, not one warp's dependent path, set the time
};

/// time_pb of a processing block holding `warps` warps of the kernel.
BlockTime processing_block_time(const KernelTuple& kernel, const GpuTuple& gpu, const MemoryLatencies& lat,
                                double warps);

}  // namespace warpsim::models::wave
