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

/// Global loads a warp waits on together: the compiler's loads per stall (1 without its schedule), never more than the
/// loads the warp waits on (a warp that leaves early waits on a group of its own loads).
double global_loads_per_group(const KernelTuple& kernel);

/// Cycles of one warp's path spent waiting for the global loads it waits on one by one (not its asynchronous copies,
/// kernel_tuple.h): with the compiler's schedule, each group of loads in flight waits for its slowest, beyond the
/// compiler's cover; without, every load its mean latency.
double global_load_wait(const KernelTuple& kernel, const MemoryLatencies& lat);

/// Cycles one warp alone needs: with the kernel's compiler schedule, its issue spacing plus the load latencies it
/// does not cover; without, each instruction waiting for the one before (README.md, "dependent path").
double warp_time(const KernelTuple& kernel, const GpuTuple& gpu, const MemoryLatencies& lat);

/// Cycles one warp occupies its processing block's issue: sum over classes of count * issue delay (paper 001), or
/// with IssueRule::kPipesOverlap its shared dispatch cycles (below).
double warp_delay(const KernelTuple& kernel, const GpuTuple& gpu);

/// How a sub-partition's dispatch and pipes share time (workloads/microbench_pipes, H100): a warp's instructions go
/// to their pipes in program order, and one whose pipe is busy holds the others back, so pipes kept equally busy
/// each reach about 77% (LSU and FMA-heavy, 4 cycles each a body: 5.23 cycles). The time is the p-norm of the
/// issue slots' and each pipe's cycles, with the exponent that fits the microbenchmark's pipe-bound bodies best (53:
/// mean error 5.2%, where their max, the rule before, has 11.5% and up to 42% fast; workloads/microbench_pipes/fit.py).
/// The L1 data stage stays a level of its own (wave_time.h), as a 2-wavefront load shows (8 cycles, the LSU and FMA
/// pipes below it).
inline constexpr double kDispatchSharingExponent = 4.5;
/// IMAD.WIDE takes the FMA-heavy pipe twice as long as IMAD (4.0 and 2.0 busy cycles a warp, ncu) and holds dispatch
/// about 2.5 cycles beyond its issue slot (the same fit: loads with IMAD.WIDE ran 1.3-1.6x the pipes' cycles).
inline constexpr double kWideMultiplyPasses = 2;
inline constexpr double kWideMultiplyDispatchCycles = 2.5;
/// Cycles a warp waits after a branch beyond the compiler's stall counts: workloads/microbench_branch (H100, one warp
/// an SM, FFMA loops of 16-256 instructions) runs each iteration 4.0 cycles longer than its stall counts say (5.0 for
/// 8). Measured on taken loop branches; the counter the models read counts every branch.
inline constexpr double kBranchResolveCycles = 4;

/// A warp's cycles on the two FMA pipes of its sub-partition: floating-point work alternates between them (each
/// FFMA one pipe's two cycles, half of them on each: one cycle a warp, the FP32 delay), integer multiply-adds run on
/// the heavy one alone at the int32 delay, IMAD.WIDE in two passes, packed FP16 FMAs (HFMA2) on the heavy one alone at
/// their own delay (lanes.fp16 / 2 lanes: 2 cycles a warp on H100, workloads/microbench_fp16). The heavy pipe, the
/// busier, sets it.
double fma_pipes_cycles(const WarpInstructionMix& m, const GpuTuple& gpu);

/// The p-norm of a warp's issue slots (IMAD.WIDE's extra dispatch cycles included) and its cycles on each pipe: the
/// FMA pipes, ALU (int), FP64, SFU, tensor and LSU.
double shared_dispatch_cycles(const WarpInstructionMix& m, const GpuTuple& gpu);

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
