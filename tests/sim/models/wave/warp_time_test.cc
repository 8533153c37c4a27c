// time_wp, delay_wp, time_sync and time_pb on hand-made tuples of the H100 test GPU.
#include "wave/warp_time.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include <gtest/gtest.h>

#include "wave/scheduler_queue.h"

#include "test_gpu.h"

namespace warpsim::models::wave {
namespace {

const GpuTuple kGpu = gpu_tuple(testing::h100());

KernelTuple fma_warp(double fma) {
  KernelTuple k;
  k.warps_per_block = 8;
  k.mix.issued[index(InstClass::kFp32)] = fma;
  return k;
}

TEST(WaveWarpTime, DependentFmasCostTheirLatencyAndIssueOneCycleEach) {
  const KernelTuple k = fma_warp(100);
  EXPECT_DOUBLE_EQ(warp_time(k, kGpu, kGpu.memory), 100 * 4);
  EXPECT_DOUBLE_EQ(warp_delay(k, kGpu), 100 * 1);
}

// A load waits the average latency of where requests hit: 0.5 * 40 + 0.25 * 263 + 0.25 * 479.
TEST(WaveWarpTime, LoadsWaitTheAverageMemoryLatency) {
  KernelTuple k;
  k.mix.global_loads = 2;
  k.mix.issued[index(InstClass::kLsu)] = 2;
  k.hits = HitFractions{0.5, 0.25, 0.25, 0};
  EXPECT_DOUBLE_EQ(warp_time(k, kGpu, kGpu.memory), 2 * (20 + 0.25 * 263 + 0.25 * 479));
  EXPECT_DOUBLE_EQ(warp_delay(k, kGpu), 2 * 4);
}

// A cp.async / TMA pipeline waits for a stage of copies at a barrier while the next stages are in flight: the copies
// add their issue, not their latency, to the path.
TEST(WaveWarpTime, AsyncCopiesAddNoLoadLatency) {
  KernelTuple k;
  k.mix.global_loads = 5;
  k.mix.async_copies = 3;
  k.hits = HitFractions{0.5, 0.25, 0.25, 0};
  EXPECT_DOUBLE_EQ(global_load_wait(k, kGpu.memory), 2 * (20 + 0.25 * 263 + 0.25 * 479));
  k.mix.async_copies = 5;
  EXPECT_DOUBLE_EQ(global_load_wait(k, kGpu.memory), 0);
}

TEST(WaveWarpTime, UncoalescedRequestsAddTheirExtraLatency) {
  KernelTuple k;
  k.mix.global_loads = 1;
  k.hits = HitFractions{1, 0, 0, 0.5};
  EXPECT_DOUBLE_EQ(warp_time(k, kGpu, kGpu.memory), 40 + 0.5 * 31);  // 32 lines at 1 per clock
}

TEST(WaveWarpTime, StoresCostOnlyTheirIssueAndSharedLoadsTheSharedLatency) {
  KernelTuple k;
  k.mix.stores = 3;
  k.mix.shared_loads = 2;
  EXPECT_DOUBLE_EQ(warp_time(k, kGpu, kGpu.memory), 3 * 4 + 2 * 29);
}

TEST(WaveWarpTime, BarriersWaitForTheBlocksOtherWarps) {
  KernelTuple k = fma_warp(0);
  k.syncs = 2;
  EXPECT_DOUBLE_EQ(sync_time(k, kGpu), 2 * 4 * 7);
  EXPECT_DOUBLE_EQ(warp_time(k, kGpu, kGpu.memory), 2 * 4 * 7);
}

// With the compiler's schedule (a GEMM-like kernel: independent FMAs issued a cycle apart, loads placed well before
// their use) the path is the issue spacing plus what the cover leaves of each latency.
TEST(WaveWarpTime, ACompilerScheduleReplacesTheAllDependentPath) {
  KernelTuple k = fma_warp(100);
  k.schedule = CompilerSchedule{1.5, 20};
  EXPECT_DOUBLE_EQ(warp_time(k, kGpu, kGpu.memory), 100 * 1.5);
  k.mix.shared_loads = 2;  // shared latency 29: 9 cycles left after a cover of 20
  k.mix.issued[index(InstClass::kLsu)] = 2;
  EXPECT_DOUBLE_EQ(warp_time(k, kGpu, kGpu.memory), 102 * 1.5 + 2 * 9);
  k.schedule->cover_cycles = 100;  // fully covered
  EXPECT_DOUBLE_EQ(warp_time(k, kGpu, kGpu.memory), 102 * 1.5);
  k.mix.branches = 10;  // each waits to resolve beyond its stall count (workloads/microbench_branch)
  EXPECT_DOUBLE_EQ(warp_time(k, kGpu, kGpu.memory), 102 * 1.5 + 10 * kBranchResolveCycles);
  k.schedule.reset();  // the all-dependent path takes branches at their class's latency (issued) instead
  const double unscheduled = warp_time(k, kGpu, kGpu.memory);
  k.mix.branches = 0;
  EXPECT_DOUBLE_EQ(warp_time(k, kGpu, kGpu.memory), unscheduled);
}

// Each constant-load stall waits the constant cache's latency less the constant loads' own cover; a GPU file without
// the latency leaves them out.
TEST(WaveWarpTime, ConstantLoadStallsWaitWhatTheirCoverLeavesOfTheConstantLatency) {
  KernelTuple k = fma_warp(100);
  k.schedule = CompilerSchedule{1.5, 20};
  k.schedule->constant_stalls = 6;
  k.schedule->constant_cover_cycles = 8;
  MemoryLatencies lat = kGpu.memory;
  lat.constant = 0;
  EXPECT_DOUBLE_EQ(warp_time(k, kGpu, lat), 100 * 1.5);
  lat.constant = 29;
  EXPECT_DOUBLE_EQ(warp_time(k, kGpu, lat), 100 * 1.5 + 6 * (29 - 8));
  k.schedule->constant_cover_cycles = 40;  // covered: no wait, never a negative one
  EXPECT_DOUBLE_EQ(warp_time(k, kGpu, lat), 100 * 1.5);
}

// Loads waited on together wait for the slowest: two loads, each a DRAM miss with probability 0.25 and otherwise an
// L1 or L2 hit (0.5 / 0.25), wait l1 x 0.25 + l2 x (0.75^2 - 0.25) + dram x (1 - 0.75^2) once, where the mean
// latency would be paid once for the pair.
TEST(WaveWarpTime, LoadsInFlightTogetherWaitForTheSlowest) {
  KernelTuple k;
  k.mix.global_loads = 2;
  k.hits = HitFractions{0.5, 0.25, 0.25, 0};
  k.schedule = CompilerSchedule{1, 0, 2};
  const MemoryLatencies& lat = kGpu.memory;
  const double slowest = 0.25 * lat.l1 + (0.5625 - 0.25) * lat.l2 + (1 - 0.5625) * lat.dram;
  EXPECT_DOUBLE_EQ(group_load_latency(lat, k.hits, 2), slowest);
  EXPECT_DOUBLE_EQ(warp_time(k, kGpu, lat), slowest);  // no issued instructions counted: the wait alone
  EXPECT_GT(slowest, average_load_latency(lat, k.hits));
}

// The code's groups hold 4 loads, but a warp that leaves after its first load (a graph kernel's inactive vertex) waits
// that load's whole latency, not a quarter of a group's; two loads wait once, as a group of two.
TEST(WaveWarpTime, AWarpWithFewerLoadsThanTheCodesGroupsWaitsOnItsOwn) {
  KernelTuple k;
  k.mix.global_loads = 1;
  k.hits = HitFractions{0, 0, 1, 0};
  k.schedule = CompilerSchedule{1, 0, 4};
  const MemoryLatencies& lat = kGpu.memory;
  EXPECT_DOUBLE_EQ(warp_time(k, kGpu, lat), lat.dram);
  k.mix.global_loads = 2;
  EXPECT_DOUBLE_EQ(warp_time(k, kGpu, lat), group_load_latency(lat, k.hits, 2));
  k.mix.global_loads = 8;  // two of the code's groups
  EXPECT_DOUBLE_EQ(warp_time(k, kGpu, lat), 2 * group_load_latency(lat, k.hits, 4));
}

// With a remote share (a peer GPU's memory, or the host's), a group waits its round trip unless every load stays
// local: 1 - 0.75^2 of the time here. Host memory is the slowest destination.
TEST(WaveWarpTime, ARemoteLoadAmongLocalOnesMakesTheGroupWaitForItsRoundTrip) {
  MemoryLatencies lat = kGpu.memory;
  lat.peer = 2000;
  lat.host = 2400;
  for (const auto& [share, latency] :
       {std::pair{&HitFractions::peer, lat.peer}, std::pair{&HitFractions::host, lat.host}}) {
    HitFractions hits{0.5, 0.25, 0, 0};
    hits.*share = 0.25;
    const double slowest = 0.25 * lat.l1 + (0.5625 - 0.25) * lat.l2 + (1 - 0.5625) * latency;
    EXPECT_DOUBLE_EQ(group_load_latency(lat, hits, 2), slowest);
    EXPECT_DOUBLE_EQ(average_load_latency(lat, hits), 0.5 * lat.l1 + 0.25 * lat.l2 + 0.25 * latency);
  }
}

// A hit on a line still on its way (HitFractions.inflight, a share of the hits) waits as long as the misses do on
// average, and ranks between the L2's hits and DRAM's loads in a group's slowest load.
TEST(WaveWarpTime, InflightHitsWaitTheMissesMeanLatency) {
  const MemoryLatencies& lat = kGpu.memory;
  HitFractions hits{0.5, 0.25, 0.25, 0};
  const double misses = 0.5 * lat.l2 + 0.5 * lat.dram;
  const double settled = average_load_latency(lat, hits);
  hits.inflight = 0.5;
  EXPECT_DOUBLE_EQ(average_load_latency(lat, hits), settled + 0.25 * (misses - lat.l1));
  // Two loads: both settled hits 0.25^2; at most L2 (0.5)^2; at most in flight (0.75)^2; the rest DRAM.
  const double slowest = 0.0625 * lat.l1 + (0.25 - 0.0625) * lat.l2 + (0.5625 - 0.25) * misses +
                         (1 - 0.5625) * lat.dram * lat.dram_group.at(2 * 0.25 / (1 - 0.75 * 0.75));
  EXPECT_DOUBLE_EQ(group_load_latency(lat, hits, 2), slowest);
}

// A group of DRAM loads issued together waits longer the more it holds (workloads/microbench_column_walk): the ratio
// interpolates in log2(loads) from 1 at one load, holds beyond the last point, and is 1 where unmeasured.
TEST(WaveWarpTime, GroupGrowthInterpolatesInLog2Loads) {
  GroupLatencyGrowth g;
  EXPECT_DOUBLE_EQ(g.at(16), 1);  // unmeasured
  g.loads = {2, 4, 16};
  g.ratio = {1.1, 1.2, 1.4};
  g.points = 3;
  EXPECT_DOUBLE_EQ(g.at(1), 1);
  EXPECT_DOUBLE_EQ(g.at(2), 1.1);
  EXPECT_DOUBLE_EQ(g.at(8), 1.3);  // halfway from 4 to 16 in log2
  EXPECT_DOUBLE_EQ(g.at(64), 1.4);
  EXPECT_NEAR(g.at(std::sqrt(2.0)), 1.05, 1e-12);
}

// A group that waits on DRAM waits the DRAM latency x the growth at the DRAM loads it holds: all 16 of an all-DRAM
// group; of a group of 2 with a quarter DRAM, 2 x 0.25 / (1 - 0.75^2) of them.
TEST(WaveWarpTime, AGroupOfDramLoadsWaitsLongerTheMoreItHolds) {
  MemoryLatencies lat = kGpu.memory;
  lat.dram_group.loads = {2, 16};
  lat.dram_group.ratio = {1.2, 1.5};
  lat.dram_group.points = 2;
  EXPECT_DOUBLE_EQ(group_load_latency(lat, HitFractions{0, 0, 1, 0}, 16), 1.5 * lat.dram);
  EXPECT_DOUBLE_EQ(group_load_latency(lat, HitFractions{0, 0, 1, 0}, 1), lat.dram);
  const HitFractions hits{0.5, 0.25, 0.25, 0};
  const double dram_loads = 2 * 0.25 / (1 - 0.5625);
  const double slowest =
      0.25 * lat.l1 + (0.5625 - 0.25) * lat.l2 + (1 - 0.5625) * lat.dram * lat.dram_group.at(dram_loads);
  EXPECT_DOUBLE_EQ(group_load_latency(lat, hits, 2), slowest);
  EXPECT_GT(slowest, group_load_latency(kGpu.memory, hits, 2));
}

TEST(WaveWarpTime, OneLoadInFlightWaitsTheAverageLatency) {
  const HitFractions hits{0.5, 0.25, 0.25, 0.5};
  EXPECT_DOUBLE_EQ(group_load_latency(kGpu.memory, hits, 1), average_load_latency(kGpu.memory, hits));
  EXPECT_DOUBLE_EQ(group_load_latency(kGpu.memory, hits, 0.5), average_load_latency(kGpu.memory, hits));
  EXPECT_DOUBLE_EQ(group_load_latency(kGpu.memory, HitFractions{1, 0, 0, 0}, 8), kGpu.memory.l1);  // all hit L1
}

TEST(WaveWarpTime, TheScheduleLeavesTheIssueDelaysAlone) {
  KernelTuple k = fma_warp(100);
  const double without = warp_delay(k, kGpu);
  k.schedule = CompilerSchedule{4, 0};
  EXPECT_DOUBLE_EQ(warp_delay(k, kGpu), without);
}

// One warp of 100 dependent FMAs: 400 cycles of latency against 100 of issue.
TEST(WaveWarpTime, FewWarpsAreLatencyBound) {
  const BlockTime t = processing_block_time(fma_warp(100), kGpu, kGpu.memory, 2);
  EXPECT_DOUBLE_EQ(t.cycles, 400);
  EXPECT_FALSE(t.issue_bound);
}

// Eight warps issue 800 cycles of FMAs on one scheduler: more than one warp's 400-cycle path.
TEST(WaveWarpTime, ManyWarpsAreIssueBound) {
  const BlockTime t = processing_block_time(fma_warp(100), kGpu, kGpu.memory, 8);
  EXPECT_DOUBLE_EQ(t.cycles, 800);
  EXPECT_TRUE(t.issue_bound);
}

// FP32 (delay 1 on H100: 128 lanes over 4 schedulers) and INT32 (delay 2: 64 lanes) go to different pipes.
TEST(WaveWarpTime, PaperSumsIssueDelaysOverClassesWhilePipesOverlapInTheHardwareView) {
  KernelTuple k = fma_warp(100);
  k.mix.issued[index(InstClass::kInt)] = 100;
  EXPECT_DOUBLE_EQ(warp_delay(k, kGpu), 100 * 1 + 100 * 2);
  GpuTuple overlapping = kGpu;
  overlapping.issue = IssueRule::kPipesOverlap;
  // 200 issue slots, the integer pipe busy 200 cycles, the FMA pipes 100: the overlap is the p-norm, below the sum.
  EXPECT_GT(warp_delay(k, overlapping), 200);
  EXPECT_LT(warp_delay(k, overlapping), 300);
  k.mix.issued[index(InstClass::kInt)] = 10;
  // 110 issue slots, the FMA pipes 100 cycles: nearly as busy, they hold each other back (1.1x the slots).
  EXPECT_GT(warp_delay(k, overlapping), 110 * 1.05);
  EXPECT_LT(warp_delay(k, overlapping), 110 * 1.2);
  k.mix.issued[index(InstClass::kFp32)] = 0;
  EXPECT_NEAR(warp_delay(k, overlapping), 20, 20 * 0.05);  // a lone narrow pipe: its occupancy bounds
}

// workloads/microbench_pipes: a load (4 LSU cycles) with two IMADs (2 FMA-heavy cycles each) a body ran 5.23 cycles
// per sub-partition on H100, with its 3.9 issue slots: two units equally busy take 1.3x either. With one unit twice
// as busy as the others (a load and one IMAD: 4.09 cycles), it alone sets the time.
TEST(WaveWarpTime, EquallyBusyPipesShareDispatch) {
  WarpInstructionMix balanced;
  balanced.issued[index(InstClass::kLsu)] = 1;
  balanced.issued[index(InstClass::kFp32)] = 2;
  balanced.integer_multiplies = 2;
  balanced.issued[index(InstClass::kOther)] = 0.9;  // the body's FADD and loop share
  EXPECT_DOUBLE_EQ(fma_pipes_cycles(balanced, kGpu), 4);
  EXPECT_NEAR(shared_dispatch_cycles(balanced, kGpu), 5.23, 5.23 * 0.05);
  WarpInstructionMix unbalanced = balanced;
  unbalanced.issued[index(InstClass::kFp32)] = 1;
  unbalanced.integer_multiplies = 1;
  EXPECT_NEAR(shared_dispatch_cycles(unbalanced, kGpu), 4.09, 4.09 * 0.06);
}

// The FMA pipes: floating-point work at the FP32 delay (half of it on each pipe), integer multiply-adds on the heavy
// pipe at the int32 delay, IMAD.WIDE twice; IMAD.WIDE also holds dispatch 2.5 cycles beyond its slot.
TEST(WaveWarpTime, IntegerMultipliesLoadTheFmaHeavyPipe) {
  WarpInstructionMix m;
  m.issued[index(InstClass::kFp32)] = 100;
  EXPECT_DOUBLE_EQ(fma_pipes_cycles(m, kGpu), 100);
  m.integer_multiplies = 40;
  EXPECT_DOUBLE_EQ(fma_pipes_cycles(m, kGpu), 60 * 1 + 40 * 2);
  m.wide_integer_multiplies = 10;
  EXPECT_DOUBLE_EQ(fma_pipes_cycles(m, kGpu), 60 * 1 + (30 + 10 * 2) * 2);
  m.integer_multiplies = 500;  // counters can disagree: never more integer work than the pipe's count
  m.wide_integer_multiplies = 0;
  EXPECT_DOUBLE_EQ(fma_pipes_cycles(m, kGpu), 100 * 2);
  m.integer_multiplies = 20;
  m.fp16_fmas = 30;  // HFMA2: the heavy pipe at their own delay
  GpuTuple half_rate_fp16 = kGpu;
  half_rate_fp16.hfma2_delay = 2;
  EXPECT_DOUBLE_EQ(fma_pipes_cycles(m, half_rate_fp16), 50 * 1 + 20 * 2 + 30 * 2);
  m.fp16_fmas = 500;  // never more than what the pipe's count leaves beside the integer work
  EXPECT_DOUBLE_EQ(fma_pipes_cycles(m, half_rate_fp16), 20 * 2 + 80 * 2);
  WarpInstructionMix wide;
  wide.issued[index(InstClass::kOther)] = 100;
  const double plain = shared_dispatch_cycles(wide, kGpu);
  wide.wide_integer_multiplies = 4;
  EXPECT_DOUBLE_EQ(shared_dispatch_cycles(wide, kGpu), plain + 4 * 2.5);  // the slots alone: no pipe is busy
}

// Four warps whose 400-cycle paths are 100 issue slots and 300 cycles of DRAM waits: their bounds meet (4 x 100 =
// 400), and with pipes overlapping the scheduler queues them (scheduler_queue.h); the paper's rule keeps the max.
TEST(WaveWarpTime, WarpsWaitingOnLoadsQueueAtTheScheduler) {
  KernelTuple k = fma_warp(100);
  k.mix.global_loads = 1;
  k.hits = HitFractions{0, 0, 1};
  k.schedule = CompilerSchedule{1, kGpu.memory.dram - 300};  // one load exposing 300 cycles
  GpuTuple overlapping = kGpu;
  overlapping.issue = IssueRule::kPipesOverlap;
  ASSERT_DOUBLE_EQ(warp_time(k, kGpu, kGpu.memory), 400);  // 100 issues + 300
  EXPECT_DOUBLE_EQ(processing_block_time(k, kGpu, kGpu.memory, 4).cycles, 400);
  const double queued = processing_block_time(k, overlapping, overlapping.memory, 4).cycles;
  EXPECT_GT(queued, 400 * 1.1);
  const double issue = warp_delay(k, overlapping);  // 100 slots with the FMA pipes as busy: shared dispatch
  EXPECT_DOUBLE_EQ(queued, closed_queue_cycles(4, 100, issue, 400));  // the whole path beyond issue is the load's
  k.mix.global_loads = 0;  // fixed-latency FMAs only: they interleave as the bounds say
  k.schedule->issue_cycles = 4;
  EXPECT_DOUBLE_EQ(processing_block_time(k, overlapping, overlapping.memory, 4).cycles, std::max(400.0, 4 * issue));
}

TEST(WaveWarpTime, AnEmptyProcessingBlockTakesNoTime) {
  EXPECT_DOUBLE_EQ(processing_block_time(fma_warp(100), kGpu, kGpu.memory, 0).cycles, 0);
}

// remote_access's local kernel: 43 instructions a warp, 11 of them for the address-divergence unit (its argument
// LDCs and branches), at 8 cycles each a processing block: the unit, not the 43 issue slots, sets the warp's dispatch.
TEST(WaveWarpTime, TheAddressDivergenceUnitIsAPipeOfItsOwn) {
  WarpInstructionMix m;
  m.issued[index(InstClass::kInt)] = 15;
  m.issued[index(InstClass::kOther)] = 28;
  const double without = shared_dispatch_cycles(m, kGpu);
  m.adu = 11;
  GpuTuple with_unit = kGpu;
  with_unit.adu_delay = 8;
  EXPECT_LT(without, 50);
  EXPECT_GE(shared_dispatch_cycles(m, with_unit), 88);
  EXPECT_LT(shared_dispatch_cycles(m, with_unit), 88 * 1.1);
  with_unit.adu_delay = 0;  // unpriced
  EXPECT_DOUBLE_EQ(shared_dispatch_cycles(m, with_unit), without);
}

}  // namespace
}  // namespace warpsim::models::wave
