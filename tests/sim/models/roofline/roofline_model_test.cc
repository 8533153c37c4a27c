#include "roofline/roofline_model.h"

#include <gtest/gtest.h>

#include "test_gpu.h"
#include "test_launch.h"

namespace warpsim::models {
namespace {

constexpr double kClockHz = 1980e6;

KernelPrediction predict(const KernelLaunch& k, const platform::GpuSpec& gpu = testing::h100()) {
  return RooflineModel().predict(KernelView::of(k), gpu);
}

// 528 blocks of 8 warps, 8 resident per SM: one partial wave, ceil(528 / 132) = 4 blocks on each SM.
// A block's 8192 FMA warp instructions at 128 / 32 = 4 per clock take 2048 cycles; 4 blocks, 8192 cycles.
TEST(Roofline, FmaOnlyKernelRunsAtTheFmaRate) {
  const KernelPrediction p = predict(testing::fma_kernel(528, 256, 8192));
  EXPECT_DOUBLE_EQ(p.sm_time_s, 4 * 8192 / (128.0 / 32) / kClockHz);
  EXPECT_EQ(p.limiter, "fma pipe");
  EXPECT_EQ(p.blocks_per_sm, 8u);
  EXPECT_EQ(p.waves, 1u);
  EXPECT_EQ(p.sms_used, 132u);
  EXPECT_DOUBLE_EQ(p.theoretical_occupancy, 1.0);
  EXPECT_DOUBLE_EQ(p.launch_overhead_s, 2e-6);
  EXPECT_FALSE(p.estimated_without_counters);
}

// Two full waves of 1056 blocks: each is 8 resident blocks sharing one SM, 8 * 2048 cycles.
TEST(Roofline, FullWavesShareTheSm) {
  EXPECT_DOUBLE_EQ(predict(testing::fma_kernel(2112, 256, 8192)).sm_time_s, 2 * 8 * 2048 / kClockHz);
}

// 8192 FMA + 4096 ALU per block: fma 2048, alu 4096 / 2 = 2048, issue 12288 / 4 = 3072 cycles.
TEST(Roofline, MixedPipesAreIssueBound) {
  KernelLaunch k = testing::fma_kernel(1, 256, 8192);
  k.mutable_counters()->mutable_pipes()->set_alu(4096);
  k.mutable_counters()->mutable_warp_instructions()->set_total(8192 + 4096);
  const KernelPrediction p = predict(k);
  EXPECT_DOUBLE_EQ(p.sm_time_s, 3072 / kClockHz);
  EXPECT_EQ(p.limiter, "issue");
  EXPECT_EQ(p.sms_used, 1u);
}

TEST(Roofline, TailWaveCostsAWholeBlockTime) {
  platform::GpuSpec gpu = testing::h100();
  gpu.mutable_sm()->set_max_blocks(1);
  const KernelPrediction one_wave = predict(testing::fma_kernel(132, 256, 8192), gpu);
  const KernelPrediction with_tail = predict(testing::fma_kernel(133, 256, 8192), gpu);
  EXPECT_DOUBLE_EQ(one_wave.sm_time_s, 2048 / kClockHz);
  EXPECT_DOUBLE_EQ(with_tail.sm_time_s, 2 * 2048 / kClockHz);
  EXPECT_EQ(with_tail.waves, 2u);
}

TEST(Roofline, BytesPassThroughAndStayOutOfSmTime) {
  KernelLaunch plain = testing::fma_kernel(528, 256, 8192);
  plain.mutable_counters()->mutable_warp_instructions()->set_global_ld(528);
  KernelLaunch k = plain;
  MemoryTraffic& m = *k.mutable_counters()->mutable_memory();
  m.set_dram_read_bytes(1 << 30);
  m.set_dram_write_bytes(1 << 20);
  m.set_l2_bytes(3ull << 30);
  m.set_l2_peer_sectors(100);
  m.set_l2_sysmem_sectors(7);
  const KernelPrediction p = predict(k);
  EXPECT_EQ(p.dram_bytes, (1u << 30) + (1u << 20));
  EXPECT_EQ(p.l2_bytes, 3ull << 30);
  EXPECT_EQ(p.peer_bytes, 3200u);
  EXPECT_EQ(p.sysmem_bytes, 0u);  // see KernelWork.SysmemApertureSectorsAreTheProfilersNotTheKernels
  EXPECT_DOUBLE_EQ(p.sm_time_s, predict(plain).sm_time_s);
}

// One warp, one load and one FMA: the wave still waits one DRAM latency (479 cycles in the test spec).
TEST(Roofline, ManyLightBlocksAreBoundByBlockDispatch) {
  platform::GpuSpec gpu = testing::h100();
  platform::LaunchFit& fit = *gpu.add_launch_fits();
  fit.set_block_warps(8);
  fit.set_x0_ns(800);
  fit.set_x1_ns_per_block(0.6);
  const KernelPrediction light = predict(testing::fma_kernel(262144, 256, 64), gpu);
  EXPECT_EQ(light.limiter, "block dispatch");
  EXPECT_NEAR(light.sm_time_s + light.launch_overhead_s, (800 + 262144 * 0.6) * 1e-9, 1e-12);
  // Heavy blocks: their work, not the dispatch, sets the time.
  const KernelPrediction heavy = predict(testing::fma_kernel(528, 256, 8192), gpu);
  EXPECT_EQ(heavy.limiter, "fma pipe");
  EXPECT_DOUBLE_EQ(heavy.sm_time_s, predict(testing::fma_kernel(528, 256, 8192)).sm_time_s);
}

TEST(Roofline, TinyKernelWaitsOneDramLatency) {
  KernelLaunch k = testing::fma_kernel(1, 32, 1);
  k.mutable_counters()->mutable_warp_instructions()->set_global_ld(1);
  const KernelPrediction p = predict(k);
  EXPECT_DOUBLE_EQ(p.sm_time_s, 479 / kClockHz);
  EXPECT_EQ(p.limiter, "latency");
  EXPECT_DOUBLE_EQ(predict(testing::fma_kernel(1, 32, 1)).sm_time_s, 4 / kClockHz);  // no load: one FP32 latency
}

TEST(Roofline, WithoutCountersOnlyTheLatencyFloorIsFlagged) {
  const KernelPrediction p = predict(testing::launch(264, 256));  // 264 blocks, 8 per SM: one wave
  EXPECT_TRUE(p.estimated_without_counters);
  EXPECT_DOUBLE_EQ(p.sm_time_s, 479 / kClockHz);
  EXPECT_EQ(p.dram_bytes + p.l2_bytes + p.peer_bytes + p.sysmem_bytes, 0u);
  EXPECT_EQ(p.waves, 1u);
}

TEST(Roofline, BlockThatDoesNotFitRunsAloneAndSaysSo) {
  const KernelPrediction p = predict(testing::fma_kernel(1, 2048, 1));
  EXPECT_EQ(p.blocks_per_sm, 1u);
  EXPECT_EQ(p.limiter, "does not fit: threads per block");
}

// The predictive rule: a launch's recorded times cannot change its prediction.
TEST(Roofline, RecordedTimesDoNotChangeThePrediction) {
  KernelLaunch a = testing::fma_kernel(700, 128, 5000);
  KernelLaunch b = a;
  a.set_start_ns(1000);
  a.set_end_ns(2000);
  b.set_start_ns(5);
  b.set_end_ns(999999999);
  const KernelPrediction pa = predict(a);
  const KernelPrediction pb = predict(b);
  EXPECT_EQ(pa.sm_time_s, pb.sm_time_s);
  EXPECT_EQ(pa.limiter, pb.limiter);
  EXPECT_EQ(pa.waves, pb.waves);
  EXPECT_EQ(pa.blocks_per_sm, pb.blocks_per_sm);
}

}  // namespace
}  // namespace warpsim::models
