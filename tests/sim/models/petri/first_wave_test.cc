// The net `warpsim petri export` writes: one SM of the first wave, a full one when the grid has one.
#include "petri/first_wave.h"

#include <gtest/gtest.h>

#include "test_gpu.h"
#include "test_launch.h"

namespace warpsim::models::petri {
namespace {

using models::testing::h100;

KernelLaunch with_counters(uint32_t blocks, uint32_t threads) {
  KernelLaunch k = models::testing::fma_kernel(blocks, threads, 4);
  k.mutable_counters()->mutable_warp_instructions()->set_global_ld(blocks);
  return k;
}

TEST(FirstWave, AFullWaveWhenTheGridHasOne) {
  // 3000 blocks of 8 warps, 8 per SM: two full waves of 64 warps per SM, then 7 blocks on the busiest SM.
  const FirstWaveNet first = first_wave_net(with_counters(3000, 256), h100(), Variant::kPaper);
  EXPECT_EQ(first.warps, 64u);
  EXPECT_GT(first.net.place_count(), 0u);
}

TEST(FirstWave, TheBusiestSmOfTheOnlyWaveOtherwise) {
  const FirstWaveNet first = first_wave_net(with_counters(1, 1024), h100(), Variant::kPlatform);
  EXPECT_EQ(first.warps, 32u);
  EXPECT_GT(first.net.transition_count(), 0u);
}

}  // namespace
}  // namespace warpsim::models::petri
