// Launch time from the GpuSpec's launch_fits: exact, interpolated, clamped; the overhead constant without fits.
#include "launch_time.h"

#include <gtest/gtest.h>

#include "test_gpu.h"

namespace warpsim::models {
namespace {

platform::GpuSpec with_fits() {
  platform::GpuSpec gpu = testing::h100();
  struct Fit {
    uint32_t warps;
    double x0, x1;
  };
  for (const Fit& f : {Fit{1, 800, 0.6}, Fit{4, 900, 0.6}, Fit{32, 1000, 1.2}}) {
    platform::LaunchFit& fit = *gpu.add_launch_fits();
    fit.set_block_warps(f.warps);
    fit.set_x0_ns(f.x0);
    fit.set_x1_ns_per_block(f.x1);
  }
  return gpu;
}

TEST(WaveLaunchTime, WithoutFitsTheOverheadConstant) {
  const LaunchTime t = launch_time(testing::h100(), 8, 100000);
  EXPECT_DOUBLE_EQ(t.seconds, 2e-6);  // test GPU: kernel_launch_overhead_us 2
  EXPECT_FALSE(t.fitted);
}

TEST(WaveLaunchTime, FittedBlockSizeUsesItsLine) {
  const LaunchTime t = launch_time(with_fits(), 4, 1000);
  EXPECT_NEAR(t.seconds, (900 + 600) * 1e-9, 1e-18);
  EXPECT_TRUE(t.fitted);
}

// 18 warps: halfway between 4 and 32.
TEST(WaveLaunchTime, BetweenFitsInterpolatesInWarps) {
  EXPECT_NEAR(launch_time(with_fits(), 18, 1000).seconds, (950 + 0.9 * 1000) * 1e-9, 1e-18);
}

TEST(WaveLaunchTime, OutsideTheFitsTakesTheNearest) {
  platform::GpuSpec gpu = with_fits();
  gpu.mutable_launch_fits()->DeleteSubrange(0, 1);  // fits for 4 and 32 warps left
  EXPECT_NEAR(launch_time(gpu, 1, 10).seconds, (900 + 6) * 1e-9, 1e-18);
  EXPECT_NEAR(launch_time(with_fits(), 64, 10).seconds, (1000 + 12) * 1e-9, 1e-18);
}

}  // namespace
}  // namespace warpsim::models
