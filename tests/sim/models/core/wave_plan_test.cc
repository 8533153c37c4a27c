// The waves-plus-tail split every model times: full waves, the tail, its busiest SM, the wave count.
#include "wave_plan.h"

#include <gtest/gtest.h>

#include "test_gpu.h"
#include "test_launch.h"

namespace warpsim::models {
namespace {

// 264 blocks a wave: one full wave, 36 left over, spread one per SM over 36 of the 132 SMs.
TEST(WavePlan, FullWavesThenATailOnTheBusiestSm) {
  const WavePlan plan = wave_plan(300, 2, 132);
  EXPECT_EQ(plan.blocks, 300u);
  EXPECT_EQ(plan.blocks_per_sm, 2u);
  EXPECT_EQ(plan.blocks_per_wave(), 264u);
  EXPECT_EQ(plan.full_waves, 1u);
  EXPECT_EQ(plan.tail_blocks, 36u);
  EXPECT_EQ(plan.tail_blocks_per_sm, 1u);
  EXPECT_EQ(plan.tail_sms(), 36u);
  EXPECT_EQ(plan.waves(), 2u);
}

TEST(WavePlan, ATailLargerThanTheSmsStacksOnTheBusiestSm) {
  const WavePlan plan = wave_plan(3000, 8, 132);  // 2 x 1056, then 888 blocks over 132 SMs
  EXPECT_EQ(plan.full_waves, 2u);
  EXPECT_EQ(plan.tail_blocks, 888u);
  EXPECT_EQ(plan.tail_blocks_per_sm, 7u);
  EXPECT_EQ(plan.tail_sms(), 132u);
}

TEST(WavePlan, WholeWavesHaveNoTail) {
  const WavePlan plan = wave_plan(2112, 8, 132);
  EXPECT_EQ(plan.full_waves, 2u);
  EXPECT_EQ(plan.tail_blocks, 0u);
  EXPECT_EQ(plan.tail_blocks_per_sm, 0u);
  EXPECT_EQ(plan.tail_sms(), 0u);
  EXPECT_EQ(plan.waves(), 2u);
}

TEST(WavePlan, AGridSmallerThanAWaveIsOnlyTail) {
  const WavePlan plan = wave_plan(1, 8, 132);
  EXPECT_EQ(plan.full_waves, 0u);
  EXPECT_EQ(plan.tail_blocks_per_sm, 1u);
  EXPECT_EQ(plan.waves(), 1u);
  EXPECT_EQ(wave_plan(0, 8, 132).waves(), 0u);
}

// A block that does not fit (0 resident) still runs, alone; a spec without SMs counts one.
TEST(WavePlan, ZeroBlocksPerSmOrSmsCountAsOne) {
  const WavePlan alone = wave_plan(5, 0, 132);
  EXPECT_EQ(alone.blocks_per_sm, 1u);
  EXPECT_EQ(alone.waves(), 1u);
  const WavePlan no_sms = wave_plan(5, 2, 0);
  EXPECT_EQ(no_sms.sm_count, 1u);
  EXPECT_EQ(no_sms.full_waves, 2u);
  EXPECT_EQ(no_sms.tail_blocks_per_sm, 1u);
}

// Moved from occupancy_test.cc (waves() lived in occupancy.h): the wave count rounds up.
TEST(WavePlan, WavesRoundUp) {
  EXPECT_EQ(wave_plan(132, 1, 132).waves(), 1u);
  EXPECT_EQ(wave_plan(133, 1, 132).waves(), 2u);
  EXPECT_EQ(wave_plan(1056, 8, 132).waves(), 1u);
  EXPECT_EQ(wave_plan(1057, 8, 132).waves(), 2u);
  EXPECT_EQ(wave_plan(5, 0, 132).waves(), 1u);  // a block that does not fit runs alone
}

// From a launch: grid blocks and the occupancy calculator's blocks per SM (8 blocks of 8 warps on an H100 SM).
TEST(WavePlan, OfALaunch) {
  const platform::GpuSpec gpu = testing::h100();
  const KernelLaunch k = testing::fma_kernel(3000, 256, 1);
  const WavePlan plan = wave_plan(k, occupancy(k, gpu.sm()), gpu);
  EXPECT_EQ(plan.blocks, 3000u);
  EXPECT_EQ(plan.blocks_per_sm, 8u);
  EXPECT_EQ(plan.full_waves, 2u);
  EXPECT_EQ(plan.tail_blocks_per_sm, 7u);
}

}  // namespace
}  // namespace warpsim::models
