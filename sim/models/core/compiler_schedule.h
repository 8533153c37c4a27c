#pragma once
// What the compiler scheduled, from a kernel's static SASS summary (trace KernelLaunch.sass, recorded by the tracer
// from the loaded cubin): how many cycles one warp waits between two issues, and how far a variable-latency result
// (a load, MUFU, S2R) is from its first use. Counters show how many instructions ran, not which depend on which;
// the compiler's stall counts and scoreboard waits do: 4 cycles after an FFMA whose result the next instruction
// needs, 1 when the next one is independent (a GEMM's register tile), and a load placed many instructions before
// its use hides that much of its latency.
//
// Averages over the code, not over the executed instructions: a kernel whose time goes to a loop is weighted as its
// code is (unrolled loop bodies dominate the code of such kernels).
#include <optional>

#include "trace.pb.h"

namespace warpsim::models {

struct CompilerSchedule {
  double issue_cycles = 1;  // mean stall count: cycles from one issue of a warp to its next
  double cover_cycles = 0;  // mean cycles between a variable-latency instruction and the first wait for its result
  // Global loads in flight per stall (SassSummary.main_loop_global_loads / main_loop_global_stall_points, the whole
  // code's where the summary has no main loop): loads issued back to back before the first use of any wait their
  // latency once together. 1 where the trace lacks the counts.
  double global_loads_per_stall = 1;
  // Block barriers per instruction of the code (SassSummary.barriers / instructions): no counter counts executed
  // barriers, so a warp's are taken as this share of its executed instructions. 0 where the trace lacks the count.
  double barriers_per_instruction = 0;
  // The cover of the global loads alone, where the summary splits it (SassSummary.global_cover_cycles); cover_cycles
  // is then the other producers' (shared loads, MUFU, S2R, shuffles): a global load is placed far from its use, the
  // others near. Unset: the one mean holds for both.
  std::optional<double> global_cover_cycles = std::nullopt;
  // Constant loads (LDC, SassSummary.constant_*): the cycles between one and its first waiter, and the stalls a warp
  // makes for them (set for the warp's executed instructions by warp_constant_stalls; the whole code's here). 0 where
  // the trace lacks the counts.
  double constant_cover_cycles = 0;
  double constant_stalls = 0;
};

/// The schedule of `launch`'s SASS summary; nothing when the trace has none (recorded before the tracer kept it, or
/// a module the tracer did not see) or it counts no instructions.
std::optional<CompilerSchedule> compiler_schedule(const KernelLaunch& launch);

/// The global loads in flight per stall of a warp that issues `issued` instructions and waits on `waited_loads` global
/// loads, from `schedule`'s count. A warp that issues fewer instructions than the main loop's body never ran one whole
/// iteration of it (spmv_csr_vector: a warp per row of ~15 nonzeros, a main loop of 89 instructions as compiled),
/// so the main loop's count does not hold for it: its loads then wait at the global stall points its instructions hold
/// at the code's density (at least one load a stall). Otherwise, and without the summary's counts, the schedule's.
double warp_global_loads_per_stall(const KernelLaunch& launch, const CompilerSchedule& schedule, double issued,
                                   double waited_loads);

/// The issue spacing of a warp that issues `issued` instructions: the code's instructions outside the main loop taken
/// as run once, the rest as the main loop's iterations, each part at its own stall cycles per instruction (a loop's
/// body is spaced tighter than its prologue and epilogue: workloads/microbench_branch's FFMA loops, 1.0-1.3 cycles an
/// instruction in the loop, 1.4-2.7 over the whole code). Without a main loop, the schedule's. Where the kernel's
/// instructions were counted (SassSummary's executed fields), their stall counts weighted by how often each ran
/// instead: the spacing the warps saw, whichever loops they spent their time in.
double warp_issue_cycles(const KernelLaunch& launch, const CompilerSchedule& schedule, double issued);

/// The constant-load stalls of a warp that issues `issued` instructions, as warp_issue_cycles runs the code: those
/// outside the main loop once (most are the kernel's arguments, loaded at its top), the main loop's once an iteration
/// of its body's instructions. The schedule's without a main loop.
double warp_constant_stalls(const KernelLaunch& launch, const CompilerSchedule& schedule, double issued);

/// Cycles of `latency` a warp still waits after the compiler's cover: max(0, latency - cover).
inline double exposed_latency(double latency, const CompilerSchedule& schedule) {
  return latency > schedule.cover_cycles ? latency - schedule.cover_cycles : 0;
}

/// Cycles of a group of global loads' `latency` a warp still waits after their cover: max(0, latency - global cover).
inline double exposed_global_group_latency(double latency, const CompilerSchedule& schedule) {
  const double cover = schedule.global_cover_cycles.value_or(schedule.cover_cycles);
  return latency > cover ? latency - cover : 0;
}

}  // namespace warpsim::models
