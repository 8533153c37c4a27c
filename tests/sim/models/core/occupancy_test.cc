#include "occupancy.h"

#include <gtest/gtest.h>

#include "test_gpu.h"
#include "test_launch.h"

namespace warpsim::models {
namespace {

Occupancy on_h100(const KernelLaunch& k) { return occupancy(k, testing::h100_sm()); }

// 256 threads = 8 warps; 32 regs = 1024 per warp: registers allow 8 blocks too, the tie names warps (64 / 8).
TEST(Occupancy, SmallRegisterCountIsLimitedByWarps) {
  const Occupancy o = on_h100(testing::launch(1000, 256, 32));
  EXPECT_EQ(o.blocks_per_sm, 8u);
  EXPECT_EQ(o.warps_per_block, 8u);
  EXPECT_EQ(o.limiter, OccupancyLimiter::kWarps);
  EXPECT_DOUBLE_EQ(o.theoretical, 1.0);
}

// 64 regs * 32 = 2048 per warp, 16384 per block: 65536 / 16384 = 4.
TEST(Occupancy, RegistersLimit) {
  const Occupancy o = on_h100(testing::launch(1000, 256, 64));
  EXPECT_EQ(o.blocks_per_sm, 4u);
  EXPECT_EQ(o.limiter, OccupancyLimiter::kRegisters);
  EXPECT_DOUBLE_EQ(o.theoretical, 0.5);
}

// 33 regs * 32 = 1056, allocated as 1280 per warp: 65536 / (8 * 1280) = 6.4 -> 6, not the 7 of exact counting.
TEST(Occupancy, RegistersAreAllocatedPerWarpInUnits) {
  const Occupancy o = on_h100(testing::launch(1000, 256, 33));
  EXPECT_EQ(o.blocks_per_sm, 6u);
  EXPECT_EQ(o.limiter, OccupancyLimiter::kRegisters);
}

// 48 KiB + 1 KiB reserved = 50176 B per block: 233472 / 50176 = 4.65 -> 4.
TEST(Occupancy, SharedMemoryLimitIncludesTheReservation) {
  const Occupancy o = on_h100(testing::launch(1000, 256, 32, 48 * 1024));
  EXPECT_EQ(o.blocks_per_sm, 4u);
  EXPECT_EQ(o.limiter, OccupancyLimiter::kSharedMemory);
}

TEST(Occupancy, TinyBlocksHitTheBlockLimit) {
  const Occupancy o = on_h100(testing::launch(1000, 32, 16));
  EXPECT_EQ(o.blocks_per_sm, 32u);
  EXPECT_EQ(o.limiter, OccupancyLimiter::kBlocks);
  EXPECT_DOUBLE_EQ(o.theoretical, 0.5);
}

TEST(Occupancy, BlockThatCannotFitGivesZeroAndNamesWhy) {
  // 255 regs -> 8192 per warp, 32 warps need 262144 > 65536.
  EXPECT_EQ(on_h100(testing::launch(1, 1024, 255)).blocks_per_sm, 0u);
  EXPECT_EQ(on_h100(testing::launch(1, 1024, 255)).limiter, OccupancyLimiter::kRegisters);
  EXPECT_EQ(on_h100(testing::launch(1, 2048)).limiter, OccupancyLimiter::kThreadsPerBlock);
  EXPECT_EQ(on_h100(testing::launch(1, 32, 300)).limiter, OccupancyLimiter::kRegistersPerThread);
  EXPECT_EQ(on_h100(testing::launch(1, 32, 32, 228 * 1024)).limiter, OccupancyLimiter::kSharedMemory);
}

TEST(Occupancy, UnsetDimensionsCountAsOne) {
  KernelLaunch k;
  k.mutable_grid()->set_x(3);
  EXPECT_EQ(grid_blocks(k), 3u);
  EXPECT_EQ(threads_per_block(k), 1u);
}

TEST(Occupancy, LimiterNames) {
  EXPECT_EQ(limiter_name(OccupancyLimiter::kBlocks), "blocks");
  EXPECT_EQ(limiter_name(OccupancyLimiter::kWarps), "warps");
  EXPECT_EQ(limiter_name(OccupancyLimiter::kRegisters), "registers");
  EXPECT_EQ(limiter_name(OccupancyLimiter::kSharedMemory), "shared memory");
  EXPECT_EQ(limiter_name(OccupancyLimiter::kThreadsPerBlock), "threads per block");
  EXPECT_EQ(limiter_name(OccupancyLimiter::kRegistersPerThread), "registers per thread");
}

}  // namespace
}  // namespace warpsim::models
