// The GpuSpec's rates in the models' units, each conversion in one place.
#include "gpu_rates.h"

#include <gtest/gtest.h>

#include "test_gpu.h"

namespace warpsim::models {
namespace {

TEST(GpuRates, ConvertTheSpecsUnits) {
  platform::GpuSpec gpu = testing::h100();
  gpu.mutable_memory()->set_l2_bandwidth_gb_per_s(5500);
  const GpuRates r = GpuRates::of(gpu);
  EXPECT_DOUBLE_EQ(r.clock_hz, 1980e6);
  EXPECT_DOUBLE_EQ(r.sm_cycles_per_s, 132 * 1980e6);
  EXPECT_DOUBLE_EQ(r.launch_overhead_s, 2e-6);
  EXPECT_DOUBLE_EQ(r.l2_bytes_per_s, 5500e9);
  EXPECT_DOUBLE_EQ(r.dram_peak_bytes_per_s, 3352e9);
  EXPECT_DOUBLE_EQ(r.dram_sustained_bytes_per_s, 3352e9 * 0.92);
}

TEST(GpuRates, DramShareOfOneSmPerCycle) {
  const GpuRates r = GpuRates::of(testing::h100());
  EXPECT_DOUBLE_EQ(dram_bytes_per_sm_cycle(r.dram_peak_bytes_per_s, r), 3352e9 / (132 * 1980e6));
  EXPECT_DOUBLE_EQ(dram_bytes_per_sm_cycle(r.dram_sustained_bytes_per_s, r), 3352e9 * 0.92 / (132 * 1980e6));
}

TEST(GpuRates, ScatteredSectorsTakeLongerThanStreamingOnes) {
  platform::GpuSpec gpu = testing::h100();
  gpu.mutable_memory()->set_dram_scattered_sector_gb_per_s(1023);
  EXPECT_DOUBLE_EQ(GpuRates::of(gpu).dram_scattered_bytes_per_s, 1023e9);
  gpu.mutable_memory()->set_l2_scattered_sector_gb_per_s(4350);
  EXPECT_DOUBLE_EQ(GpuRates::of(gpu).l2_scattered_bytes_per_s, 4350e9);
  gpu.mutable_memory()->set_l2_write_sector_gb_per_s(5743);
  EXPECT_DOUBLE_EQ(GpuRates::of(gpu).l2_write_bytes_per_s, 5743e9);
  gpu.mutable_memory()->set_l2_scattered_write_sector_gb_per_s(3163);
  EXPECT_DOUBLE_EQ(GpuRates::of(gpu).l2_scattered_write_bytes_per_s, 3163e9);
  // 1 GB of which 0.5 GB scattered, at 3000 against 1000: as long as 0.5 + 1.5 GB streaming.
  EXPECT_DOUBLE_EQ(streaming_equivalent_bytes(1e9, 0.5e9, 3000, 1000), 2e9);
  EXPECT_DOUBLE_EQ(streaming_equivalent_bytes(1e9, 2e9, 3000, 1000), 3e9);    // at most every byte
  EXPECT_DOUBLE_EQ(streaming_equivalent_bytes(1e9, 0.5e9, 3000, 0), 1e9);     // unmeasured: all stream
  EXPECT_DOUBLE_EQ(streaming_equivalent_bytes(1e9, 0.5e9, 3000, 4000), 1e9);  // never faster than streaming
}

TEST(GpuRates, NoClockGivesNoRatePerCycle) {
  EXPECT_EQ(bytes_per_cycle(1e12, 0), 0);
  EXPECT_DOUBLE_EQ(bytes_per_cycle(1e12, 2e9), 500);
  platform::GpuSpec gpu = testing::h100();
  gpu.set_sm_count(0);
  EXPECT_EQ(dram_bytes_per_sm_cycle(3352e9, GpuRates::of(gpu)), 0);
}

TEST(GpuRates, PipeWarpRateIsLanesOverWarpSize) {
  EXPECT_DOUBLE_EQ(pipe_warp_rate(128, 32), 4);
  EXPECT_DOUBLE_EQ(pipe_warp_rate(16, 32), 0.5);
  EXPECT_DOUBLE_EQ(pipe_warp_rate(16, 0), 16);  // a spec without a warp size counts 1
}

}  // namespace
}  // namespace warpsim::models
