// The compiler's schedule from a kernel's SASS summary (sim/models/compiler_schedule.h).
#include "compiler_schedule.h"

#include <gtest/gtest.h>

namespace warpsim::models {
namespace {

KernelLaunch with_sass(uint64_t instructions, uint64_t stalls, uint64_t variable, uint64_t cover, uint64_t uncovered) {
  KernelLaunch launch;
  SassSummary& s = *launch.mutable_sass();
  s.set_instructions(instructions);
  s.set_stall_cycles(stalls);
  s.set_variable_latency(variable);
  s.set_cover_cycles(cover);
  s.set_uncovered(uncovered);
  return launch;
}

TEST(CompilerSchedule, NoSummaryNoSchedule) {
  EXPECT_FALSE(compiler_schedule(KernelLaunch{}).has_value());
  EXPECT_FALSE(compiler_schedule(with_sass(0, 0, 0, 0, 0)).has_value());
}

TEST(CompilerSchedule, MeansOverTheCodeAndOverTheCoveredProducers) {
  const auto s = compiler_schedule(with_sass(200, 300, 10, 240, 2));
  ASSERT_TRUE(s.has_value());
  EXPECT_DOUBLE_EQ(s->issue_cycles, 1.5);
  EXPECT_DOUBLE_EQ(s->cover_cycles, 30);  // 240 cycles over the 8 producers that have a waiter
}

TEST(CompilerSchedule, IssueSpacingIsAtLeastOneCycleAndUncoveredProducersAloneCoverNothing) {
  const auto s = compiler_schedule(with_sass(100, 50, 3, 0, 3));
  ASSERT_TRUE(s.has_value());
  EXPECT_DOUBLE_EQ(s->issue_cycles, 1);
  EXPECT_DOUBLE_EQ(s->cover_cycles, 0);
}

// A column walk's main loop issues 16 loads before their first use; its remainder loops fewer, which the whole code's
// count averages in: the main loop's count is the one the warps spend their time in.
TEST(CompilerSchedule, GlobalLoadsPerStallFromTheMainLoopWhereThereIsOne) {
  KernelLaunch launch = with_sass(120, 300, 21, 1200, 0);
  SassSummary& s = *launch.mutable_sass();
  s.set_global_loads(29);
  s.set_global_stall_points(4);
  EXPECT_DOUBLE_EQ(compiler_schedule(launch)->global_loads_per_stall, 7.25);
  s.set_main_loop_global_loads(16);
  s.set_main_loop_global_stall_points(1);
  EXPECT_DOUBLE_EQ(compiler_schedule(launch)->global_loads_per_stall, 16);
}

// spmv_csr_vector's shape: a 257-instruction code whose 89-instruction main loop holds 48 loads at 5 stall points; a
// warp that issues 78.7 instructions never finishes one iteration of it, so its 5.49 loads wait at the stall points its
// instructions hold at the code's density (12 in 257), not 9.6 at a time.
TEST(CompilerSchedule, AWarpThatNeverRunsTheMainLoopWaitsAtTheCodesStallDensity) {
  KernelLaunch launch = with_sass(257, 785, 103, 3259, 0);
  SassSummary& s = *launch.mutable_sass();
  s.set_global_loads(89);
  s.set_global_stall_points(12);
  s.set_main_loop_instructions(89);
  s.set_main_loop_global_loads(48);
  s.set_main_loop_global_stall_points(5);
  const CompilerSchedule schedule = *compiler_schedule(launch);
  EXPECT_DOUBLE_EQ(schedule.global_loads_per_stall, 9.6);
  EXPECT_NEAR(warp_global_loads_per_stall(launch, schedule, 78.7, 5.49), 5.49 / (78.7 * 12 / 257), 1e-12);
  // A warp that runs the loop keeps its count; one whose few loads fall below one a stall waits on each alone.
  EXPECT_DOUBLE_EQ(warp_global_loads_per_stall(launch, schedule, 6707, 2048), 9.6);
  EXPECT_DOUBLE_EQ(warp_global_loads_per_stall(launch, schedule, 60, 1), 1);
  // Without the summary the schedule's count stands.
  EXPECT_DOUBLE_EQ(warp_global_loads_per_stall(KernelLaunch{}, schedule, 60, 5), 9.6);
}

// microbench_branch's 32-FFMA loop: 78 instructions, 156 stall cycles (2.0 a instruction), its main loop 36 and 48
// (1.33). A warp that runs the loop 1000 times issues the 42 others once: 1000 x 36 + 42 instructions.
TEST(CompilerSchedule, AWarpsIssueSpacingWeighsTheMainLoopByItsShareOfTheWarpsInstructions) {
  KernelLaunch launch = with_sass(78, 156, 1, 0, 1);
  SassSummary& s = *launch.mutable_sass();
  const CompilerSchedule code = *compiler_schedule(launch);
  EXPECT_DOUBLE_EQ(code.issue_cycles, 2);
  EXPECT_DOUBLE_EQ(warp_issue_cycles(launch, code, 36042), 2) << "no main loop: the code's";
  s.set_main_loop_instructions(36);
  s.set_main_loop_stall_cycles(48);
  const double in_loop = 36000.0 / 36042;
  EXPECT_NEAR(warp_issue_cycles(launch, code, 36042), in_loop * 48 / 36 + (1 - in_loop) * 108 / 42, 1e-12);
  EXPECT_DOUBLE_EQ(warp_issue_cycles(launch, code, 30), 108.0 / 42) << "fewer than the rest: the rest's spacing";
}

// Counted instructions replace the main-loop estimate: 1,000 executions at 3,360 stall cycles are 3.36 a warp
// instruction, whatever the code's or its main loop's spacing (lud_perimeter's case: main loop 1.92, executed 3.36).
TEST(CompilerSchedule, AWarpsIssueSpacingIsTheExecutedInstructionsWhereCounted) {
  KernelLaunch launch = with_sass(78, 156, 1, 0, 1);
  SassSummary& s = *launch.mutable_sass();
  s.set_main_loop_instructions(36);
  s.set_main_loop_stall_cycles(48);
  const CompilerSchedule code = *compiler_schedule(launch);
  const double estimated = warp_issue_cycles(launch, code, 3000);
  s.set_executed_instructions(1000);
  s.set_executed_stall_cycles(3360);
  EXPECT_DOUBLE_EQ(warp_issue_cycles(launch, code, 3000), 3.36);
  EXPECT_NE(warp_issue_cycles(launch, code, 3000), estimated);
  s.set_executed_stall_cycles(500);
  EXPECT_DOUBLE_EQ(warp_issue_cycles(launch, code, 3000), 1) << "at least a cycle an instruction";
}

TEST(CompilerSchedule, BarriersPerInstructionOfTheCode) {
  KernelLaunch launch = with_sass(200, 300, 10, 240, 2);
  EXPECT_DOUBLE_EQ(compiler_schedule(launch)->barriers_per_instruction, 0);  // not recorded
  launch.mutable_sass()->set_barriers(5);
  EXPECT_DOUBLE_EQ(compiler_schedule(launch)->barriers_per_instruction, 0.025);
}

// 8 covered producers, 240 cycles: 2 global loads with 200 of them, 6 others with 40. Without the split, one mean.
TEST(CompilerSchedule, GlobalLoadsCoverApartFromTheOtherProducers) {
  KernelLaunch launch = with_sass(200, 300, 10, 240, 2);
  launch.mutable_sass()->set_global_loads(2);
  EXPECT_FALSE(compiler_schedule(launch)->global_cover_cycles.has_value());
  EXPECT_DOUBLE_EQ(exposed_global_group_latency(130, *compiler_schedule(launch)), 100);  // the mean, 30
  launch.mutable_sass()->set_global_cover_cycles(200);
  const auto s = compiler_schedule(launch);
  EXPECT_DOUBLE_EQ(*s->global_cover_cycles, 100);
  EXPECT_DOUBLE_EQ(s->cover_cycles, 40.0 / 6);
  EXPECT_DOUBLE_EQ(exposed_global_group_latency(130, *s), 30);
  EXPECT_DOUBLE_EQ(exposed_latency(30, *s), 30 - 40.0 / 6);
  launch.mutable_sass()->set_global_cover_cycles(500);  // inconsistent (more than all producers'): not split
  EXPECT_FALSE(compiler_schedule(launch)->global_cover_cycles.has_value());
}

// remote_access's remote_read_kernel as compiled: 284 instructions (a 19-instruction main loop without constant
// loads), 11 covered LDCs 80 cycles from their waiters, at 9 stalls. A warp meets the code's stalls outside the main
// loop once and the loop's once an iteration.
TEST(CompilerSchedule, ConstantLoadStallsOutsideTheMainLoopOnceAndInsideItEveryIteration) {
  KernelLaunch launch = with_sass(284, 1294, 14, 173, 0);
  SassSummary& s = *launch.mutable_sass();
  EXPECT_DOUBLE_EQ(compiler_schedule(launch)->constant_stalls, 0) << "not recorded";
  s.set_constant_loads(11);
  s.set_constant_stall_points(9);
  s.set_constant_cover_cycles(80);
  CompilerSchedule schedule = *compiler_schedule(launch);
  EXPECT_DOUBLE_EQ(schedule.constant_stalls, 9);
  EXPECT_DOUBLE_EQ(schedule.constant_cover_cycles, 80.0 / 11);
  EXPECT_DOUBLE_EQ(warp_constant_stalls(launch, schedule, 43), 9) << "no main loop: the code's";
  s.set_main_loop_instructions(19);
  s.set_main_loop_constant_stall_points(2);
  schedule = *compiler_schedule(launch);
  EXPECT_DOUBLE_EQ(warp_constant_stalls(launch, schedule, 43), 7) << "fewer than the rest: the loop never runs";
  EXPECT_DOUBLE_EQ(warp_constant_stalls(launch, schedule, 265 + 190), 7 + 10 * 2);
  s.set_constant_cover_cycles(500);  // more than every producer's cover: inconsistent, not used
  EXPECT_DOUBLE_EQ(compiler_schedule(launch)->constant_stalls, 0);
}

TEST(CompilerSchedule, ExposedLatencyIsWhatTheCoverLeaves) {
  const CompilerSchedule s{1, 30};
  EXPECT_DOUBLE_EQ(exposed_latency(100, s), 70);
  EXPECT_DOUBLE_EQ(exposed_latency(20, s), 0);
}

}  // namespace
}  // namespace warpsim::models
