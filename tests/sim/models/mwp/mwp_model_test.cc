// The model end to end on the H100-like test GPU: 132 SMs at 1980 MHz, DRAM 3352 GB/s x 0.92, DRAM latency 479,
// 4 schedulers, FP32 4 and LSU 1 warp instructions per clock. One SM's DRAM share is 12.825 B per clock, so a
// coalesced 128 B request departs every 9.98 cycles and MWP_Without_BW_full = 479 / 9.98 = 48.0; with all 132 SMs
// active, MWP_peak_BW = 3083.84e9 / (1.98e9 * 128 / 479 * 132) = 44.15.
#include "mwp/mwp_model.h"

#include <gtest/gtest.h>

#include "mwp_kernel.h"
#include "registry.h"
#include "test_gpu.h"

namespace warpsim::models {
namespace {

constexpr double kClockHz = 1980e6;
constexpr double kShare = 3352e9 / (132 * kClockHz);  // DRAM bytes per SM per clock
const double kPeakBwAllSms = 3352e9 * 0.92 / (kClockHz * 128 / 479 * 132);

KernelPrediction predict(const KernelLaunch& k, const platform::GpuSpec& gpu = testing::h100()) {
  return MwpModel().predict(KernelView::of(k), gpu);
}

double cycles(const KernelPrediction& p) { return p.sm_time_s * kClockHz; }

// One block of 4 warps; each: 10 coalesced loads and 10 FMAs. Comp_cycles = 10 (the LSU), Mem_cycles = 4790;
// MWP = CWP = N = 4. Exec = 4790 + 10 + (10 / 10) * (4 - 1).
TEST(Mwp, FewWarpsHideNothing) {
  const KernelPrediction p = predict(testing::mwp_kernel(1, 128, 10, 10, 4));
  EXPECT_NEAR(cycles(p), 4803, 1e-6);
  EXPECT_EQ(p.limiter, "not enough warps (MWP = CWP = N)");
  EXPECT_EQ(p.sms_used, 1u);
  EXPECT_EQ(p.waves, 1u);
  EXPECT_DOUBLE_EQ(p.launch_overhead_s, 2e-6);
  EXPECT_FALSE(p.estimated_without_counters);
}

// 1056 blocks of 8 warps fill 132 SMs with N = 64. Memory heavy: CWP = 64 >= MWP = 44.15 (bandwidth).
// Exec = 4790 * 64 / 44.15 + 1 * (44.15 - 1) = 6986.
TEST(Mwp, MemoryBoundByDramBandwidth) {
  const KernelPrediction p = predict(testing::mwp_kernel(1056, 256, 10, 10, 4));
  EXPECT_NEAR(cycles(p), 4790 * 64 / kPeakBwAllSms + kPeakBwAllSms - 1, 1e-6);
  EXPECT_NEAR(cycles(p), 6986.0, 0.01);
  EXPECT_EQ(p.limiter, "memory bound (CWP >= MWP): dram bandwidth");
  EXPECT_EQ(p.blocks_per_sm, 8u);
  EXPECT_DOUBLE_EQ(p.theoretical_occupancy, 1.0);
}

// One block of 32 warps, uncoalesced (32 sectors per load): Mem_L = 479 + 31 * 2.495 = 556.3, Departure_delay
// 32 * 2.495 = 79.8, so MWP = 6.97 (one SM: the bandwidth bound is 846). Exec = 5563 * 32 / 6.97 + 1 * 5.97.
TEST(Mwp, MemoryBoundByDepartureDelay) {
  const KernelPrediction p = predict(testing::mwp_kernel(1, 1024, 10, 10, 32));
  const double del_uncoal = 32 / kShare;
  const double mem_l = 479 + 31 * del_uncoal;
  const double mwp = mem_l / (32 * del_uncoal);
  EXPECT_NEAR(cycles(p), mem_l * 10 * 32 / mwp + (mwp - 1), 1e-6);
  EXPECT_NEAR(cycles(p), 25555.6, 0.1);
  EXPECT_EQ(p.limiter, "memory bound (CWP >= MWP): departure delay");
}

// Each warp: 1 load, 1000 FMAs. Comp_cycles = 1001 / 4 = 250.25 (issue), CWP = (479 + 250.25) / 250.25 = 2.9 < MWP.
// Exec = Mem_L + Comp_cycles * N = 479 + 250.25 * 64.
TEST(Mwp, ComputeBound) {
  const KernelPrediction p = predict(testing::mwp_kernel(1056, 256, 1, 1000, 4));
  EXPECT_NEAR(cycles(p), 479 + 250.25 * 64, 1e-6);
  EXPECT_EQ(p.limiter, "compute bound (MWP > CWP): issue");
}

// Each warp: 1 load, 4000 FMAs. Comp_cycles = 4001 / 4 = 1000.25 (issue) > Mem_cycles = 479, and
// CWP = (479 + 1000.25) / 1000.25 = 1.48 < MWP = 44.15: the paper's summary equation takes the memory formula,
// Exec = 479 * 64 / 44.15 + 1000.25 * (44.15 - 1), not Mem_L + Comp_cycles * N.
TEST(Mwp, ComputationOverMemoryTakesTheMemoryFormula) {
  const KernelPrediction p = predict(testing::mwp_kernel(1056, 256, 1, 4000, 4));
  EXPECT_NEAR(cycles(p), 479 * 64 / kPeakBwAllSms + 1000.25 * (kPeakBwAllSms - 1), 1e-6);
  EXPECT_NEAR(cycles(p), 43859.9, 0.1);
  EXPECT_EQ(p.limiter, "computation over memory (Comp_cycles > Mem_cycles): issue");
}

// 1320 blocks: one full repetition (1056) and a tail of 264 = 2 blocks on every SM, N = 16: 479 + 250.25 * 16.
TEST(Mwp, TailRepetitionRunsWithTheWarpsItHas) {
  const KernelPrediction p = predict(testing::mwp_kernel(1320, 256, 1, 1000, 4));
  EXPECT_NEAR(cycles(p), (479 + 250.25 * 64) + (479 + 250.25 * 16), 1e-6);
  EXPECT_EQ(p.waves, 2u);
  EXPECT_EQ(p.limiter, "compute bound (MWP > CWP): issue");  // the full repetition costs more
}

// A tail of 10 blocks: one block on each of 10 SMs (N = 8). Two full repetitions before it.
TEST(Mwp, SmallTailUsesFewSms) {
  const KernelPrediction p = predict(testing::mwp_kernel(2 * 1056 + 10, 256, 1, 1000, 4));
  EXPECT_NEAR(cycles(p), 2 * (479 + 250.25 * 64) + (479 + 250.25 * 8), 1e-6);
  EXPECT_EQ(p.waves, 3u);
}

// The paper's #Rep: a memory-bound round repeated. 3 full repetitions of the bandwidth-bound kernel cost 3 times one.
TEST(Mwp, FullRepetitionsMultiply) {
  const double one = cycles(predict(testing::mwp_kernel(1056, 256, 10, 10, 4)));
  EXPECT_NEAR(cycles(predict(testing::mwp_kernel(3 * 1056, 256, 10, 10, 4))), 3 * one, 1e-6);
}

TEST(Mwp, UncoalescedLoadsTakeLonger) {
  const double coalesced = predict(testing::mwp_kernel(1, 128, 10, 10, 4)).sm_time_s;
  const double scattered = predict(testing::mwp_kernel(1, 128, 10, 10, 32)).sm_time_s;
  // N = 4 in both: not enough warps, Exec = Mem_cycles + 10 + 3: only Mem_L changes, 479 -> 479 + 31 * 2.495.
  EXPECT_NEAR((scattered - coalesced) * kClockHz, 10 * 31 * 32 / kShare, 1e-6);
}

TEST(Mwp, WithoutCountersOneDramLatencyPerRepetition) {
  const KernelPrediction p = predict(testing::launch(2 * 1056, 256));
  EXPECT_TRUE(p.estimated_without_counters);
  EXPECT_NEAR(cycles(p), 2 * 479, 1e-9);
  EXPECT_EQ(p.limiter, "latency (no counters)");
  EXPECT_EQ(p.dram_bytes + p.l2_bytes + p.peer_bytes + p.sysmem_bytes, 0u);
}

TEST(Mwp, BytesPassThrough) {
  KernelLaunch k = testing::mwp_kernel(1056, 256, 10, 10, 4);
  MemoryTraffic& m = *k.mutable_counters()->mutable_memory();
  m.set_dram_read_bytes(1 << 30);
  m.set_dram_write_bytes(1 << 20);
  m.set_l2_bytes(3ull << 30);
  m.set_l2_peer_sectors(100);
  const KernelPrediction p = predict(k);
  EXPECT_EQ(p.dram_bytes, (1u << 30) + (1u << 20));
  EXPECT_EQ(p.l2_bytes, 3ull << 30);
  EXPECT_EQ(p.peer_bytes, 3200u);
  EXPECT_EQ(p.sysmem_bytes, 0u);
}

TEST(Mwp, BlockThatDoesNotFitRunsAloneAndSaysSo) {
  const KernelPrediction p = predict(testing::mwp_kernel(1, 2048, 1, 1, 4));
  EXPECT_EQ(p.blocks_per_sm, 1u);
  EXPECT_EQ(p.limiter, "does not fit: threads per block");
}

TEST(Mwp, SamePredictionEveryTime) {
  const KernelLaunch k = testing::mwp_kernel(5000, 192, 7, 123, 9);
  const KernelPrediction a = predict(k);
  const KernelPrediction b = predict(k);
  EXPECT_EQ(a.sm_time_s, b.sm_time_s);
  EXPECT_EQ(a.limiter, b.limiter);
  EXPECT_GT(a.sm_time_s, 0);
}

// The predictive rule: a launch's recorded times cannot change its prediction.
TEST(Mwp, RecordedTimesDoNotChangeThePrediction) {
  KernelLaunch a = testing::mwp_kernel(700, 128, 3, 500, 4);
  KernelLaunch b = a;
  a.set_start_ns(1000);
  a.set_end_ns(2000);
  b.set_start_ns(5);
  b.set_end_ns(999999999);
  EXPECT_EQ(predict(a).sm_time_s, predict(b).sm_time_s);
  EXPECT_EQ(predict(a).limiter, predict(b).limiter);
}

TEST(Mwp, RegisteredAsMwp) { EXPECT_EQ(make_model("mwp")->name(), "mwp"); }

}  // namespace
}  // namespace warpsim::models
