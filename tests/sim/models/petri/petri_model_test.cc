// The petri and petri-paper models: registry, fallback, waves, and how predictions move with the kernel.
#include "petri/petri_model.h"

#include <gtest/gtest.h>

#include "kernel_model.h"
#include "registry.h"
#include "test_gpu.h"
#include "test_launch.h"

namespace warpsim::models::petri {
namespace {

using models::testing::h100;
using models::testing::launch;

// Per warp: `arith` FP32 instructions, `global` global loads; blocks of 256 threads.
KernelLaunch kernel(uint32_t blocks, uint64_t arith, uint64_t global) {
  KernelLaunch k = launch(blocks, 256);
  const uint64_t warps = uint64_t{blocks} * 8;
  KernelCounters& c = *k.mutable_counters();
  c.mutable_warp_instructions()->set_total(warps * (arith + global));
  c.mutable_warp_instructions()->set_global_ld(warps * global);
  c.mutable_pipes()->set_fma(warps * arith);
  c.mutable_memory()->set_dram_read_bytes(warps * global * 128);
  return k;
}

KernelPrediction predict(std::string_view model, const KernelLaunch& k) {
  return make_model(model)->predict(KernelView::of(k), h100());
}

TEST(PetriModel, RegisteredUnderBothNames) {
  EXPECT_EQ(make_model("petri")->name(), "petri");
  EXPECT_EQ(make_model("petri-paper")->name(), "petri-paper");
}

TEST(PetriModel, WithoutCountersFallsBackToOneDramLatencyPerWave) {
  for (const char* name : {"petri", "petri-paper"}) {
    const KernelPrediction p = predict(name, launch(2112, 256));  // two full waves
    EXPECT_TRUE(p.estimated_without_counters);
    EXPECT_EQ(p.waves, 2u);
    EXPECT_DOUBLE_EQ(p.sm_time_s, 2 * 479 / 1980e6);
    EXPECT_EQ(p.limiter, "latency (no counters)");
  }
}

TEST(PetriModel, ReportsLaunchShapeAndBytes) {
  const KernelPrediction p = predict("petri", kernel(3000, 20, 4));
  EXPECT_EQ(p.blocks_per_sm, 8u);
  EXPECT_EQ(p.waves, 3u);
  EXPECT_EQ(p.sms_used, 132u);
  EXPECT_DOUBLE_EQ(p.launch_overhead_s, 2e-6);
  EXPECT_EQ(p.dram_bytes, 3000u * 8 * 4 * 128);
  EXPECT_FALSE(p.estimated_without_counters);
  EXPECT_GT(p.sm_time_s, 0);
}

TEST(PetriModel, ArithmeticOnlyWaveIsIssueBound) {
  // One full wave of 64 warps x 100 FP32 instructions on 4 schedulers: about 64 * 100 / 4 = 1600 cycles.
  const KernelPrediction p = predict("petri", kernel(1056, 100, 0));
  EXPECT_NEAR(p.sm_time_s * 1980e6, 1600, 80);
  EXPECT_EQ(p.limiter, "issue");
}

TEST(PetriModel, GlobalLoadsWithFewWarpsAreLatencyBound) {
  const KernelPrediction p = predict("petri", kernel(132, 2, 10));  // one block (8 warps) per SM
  EXPECT_EQ(p.limiter, "latency");
  EXPECT_GT(p.sm_time_s * 1980e6, 10 * 479);
}

TEST(PetriModel, TimeGrowsWithWorkAndWaves) {
  for (const char* name : {"petri", "petri-paper"}) {
    const double base = predict(name, kernel(1056, 50, 5)).sm_time_s;
    EXPECT_GT(predict(name, kernel(1056, 100, 5)).sm_time_s, base) << name;
    EXPECT_GT(predict(name, kernel(1056, 50, 10)).sm_time_s, base) << name;
    EXPECT_NEAR(predict(name, kernel(2112, 50, 5)).sm_time_s / base, 2.0, 1e-9) << name << ": identical full waves";
    const double with_tail = predict(name, kernel(1056 + 132, 50, 5)).sm_time_s;  // plus one block per SM
    EXPECT_GT(with_tail, base) << name;
    EXPECT_LT(with_tail, 2 * base) << name;
  }
}

TEST(PetriModel, PredictionIsReproducible) {
  const KernelLaunch k = kernel(5000, 300, 30);
  EXPECT_EQ(predict("petri", k).sm_time_s, predict("petri", k).sm_time_s);
  EXPECT_EQ(predict("petri-paper", k).sm_time_s, predict("petri-paper", k).sm_time_s);
}

TEST(PetriModel, KernelCyclesAddFullWavesAndTail) {
  const KernelLaunch k = kernel(1056 * 3 + 264, 40, 4);  // three full waves, a tail of 2 blocks per SM
  const KernelCycles all = kernel_cycles(Variant::kPaper, k, h100());
  const KernelCycles one = kernel_cycles(Variant::kPaper, kernel(1056, 40, 4), h100());
  const KernelCycles tail = kernel_cycles(Variant::kPaper, kernel(264, 40, 4), h100());
  EXPECT_NEAR(all.cycles, 3 * one.cycles + tail.cycles, 1e-9);
  EXPECT_LE(all.idle_cycles, all.cycles);
}

}  // namespace
}  // namespace warpsim::models::petri
