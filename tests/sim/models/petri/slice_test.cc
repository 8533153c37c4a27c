// Slices: a wave extrapolated from two short slices agrees with the whole wave simulated.
#include "petri/slice.h"

#include <gtest/gtest.h>

#include "petri/engine.h"
#include "test_gpu.h"

namespace warpsim::models::petri {
namespace {

KernelCounters counters(uint64_t per_warp, uint64_t warps) {
  KernelCounters c;
  c.mutable_warp_instructions()->set_total(per_warp * warps);
  c.mutable_warp_instructions()->set_global_ld(per_warp * warps / 10);
  c.mutable_warp_instructions()->set_shared_ld(per_warp * warps / 5);
  c.mutable_pipes()->set_fma(per_warp * warps / 2);
  c.mutable_pipes()->set_alu(per_warp * warps / 5);
  return c;
}

SliceOptions budget(uint64_t firings) {
  SliceOptions o;
  o.firing_budget = firings;
  return o;
}

class SliceVsWhole : public ::testing::TestWithParam<Variant> {};

TEST_P(SliceVsWhole, ASliceScaledPredictsTheWholeWave) {
  const uint64_t warps = 32;
  const KernelNets nets(GetParam(), counters(3000, warps), warps, models::testing::h100());
  const WaveEstimate whole = estimate_wave(nets, warps, budget(uint64_t{1} << 40));
  EXPECT_FALSE(whole.sliced);
  for (const uint64_t firings : {50'000u, 100'000u}) {
    const WaveEstimate sliced = estimate_wave(nets, warps, budget(firings));
    EXPECT_TRUE(sliced.sliced);
    EXPECT_LT(sliced.firings, whole.firings / 4);
    EXPECT_NEAR(sliced.steps / whole.steps, 1.0, 0.03) << sliced.steps << " vs " << whole.steps;
    EXPECT_NEAR(sliced.idle_steps, whole.idle_steps, 0.03 * whole.steps + 1);
  }
}

TEST(Slice, StepsPerInstructionAreFlatFrom60To3000InstructionsPerWarp) {
  // Why one scaled slice suffices (slice.h): fill and drain are negligible against the noise of the random order.
  const uint64_t warps = 32;
  for (const Variant v : {Variant::kPaper, Variant::kPlatform}) {
    const KernelNets nets(v, counters(3000, warps), warps, models::testing::h100());
    const double whole = estimate_wave(nets, warps, budget(uint64_t{1} << 40)).steps;
    for (const double instructions : {60.0, 120.0, 480.0}) {
      const MixSlice slice = nets.slice(instructions);
      const double steps = static_cast<double>(run(nets.build(warps, slice)).steps) * slice.factor;
      EXPECT_NEAR(steps / whole, 1.0, 0.015) << instructions << " instructions per warp";
    }
  }
}

TEST(Slice, SliceKeepsTheHeaviestKindExactAndTheFactorMakesUpTheRest) {
  const KernelNets nets(Variant::kPaper, counters(3000, 32), 32, models::testing::h100());
  // Mix per warp: 2100 arithmetic (cost 4: 8400), 600 shared (7: 4200), 300 global (25: 7500). Arithmetic weighs
  // most: round(2100 * 64 / 3000) = 45 exactly, the others scaled alike and rounded: 12.9 -> 13, 6.4 -> 6.
  const MixSlice slice = nets.slice(64);
  ASSERT_EQ(slice.counts.size(), 3u);
  EXPECT_EQ(slice.counts[0], 45);
  EXPECT_EQ(slice.counts[1], 13);
  EXPECT_EQ(slice.counts[2], 6);
  EXPECT_DOUBLE_EQ(slice.factor, 20100.0 / (45 * 4 + 13 * 7 + 6 * 25));
  const MixSlice whole = nets.slice(5000);
  EXPECT_EQ(whole.counts[0], 2100);
  EXPECT_DOUBLE_EQ(whole.factor, 1);
}

INSTANTIATE_TEST_SUITE_P(Variants, SliceVsWhole, ::testing::Values(Variant::kPaper, Variant::kPlatform));

TEST(Slice, SmallWaveRunsWholeAndIsReproducible) {
  const KernelNets nets(Variant::kPaper, counters(40, 8), 8, models::testing::h100());
  const WaveEstimate a = estimate_wave(nets, 8);
  const WaveEstimate b = estimate_wave(nets, 8);
  EXPECT_FALSE(a.sliced);
  EXPECT_EQ(a.steps, b.steps);
  EXPECT_GT(a.steps, 40);
  EXPECT_EQ(estimate_wave(nets, 0).steps, 0);
}

}  // namespace
}  // namespace warpsim::models::petri
