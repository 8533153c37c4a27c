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
  EXPECT_DOUBLE_EQ(dram_peak_bytes_per_sm_cycle(r), 3352e9 / (132 * 1980e6));
  EXPECT_DOUBLE_EQ(dram_bytes_per_sm_cycle(r.dram_sustained_bytes_per_s, 132, r), 3352e9 * 0.92 / 132 / 1980e6);
}

// The orders of operations are the models' own: the exact expressions, to the bit.
TEST(GpuRates, KeepTheModelsOrderOfOperations) {
  platform::GpuSpec gpu = testing::h100();
  gpu.set_sm_clock_mhz(1755.3);
  gpu.mutable_memory()->set_dram_efficiency(0.87);
  const GpuRates r = GpuRates::of(gpu);
  const double bw = gpu.memory().dram_bandwidth_gb_per_s();
  EXPECT_EQ(r.sm_cycles_per_s, 132 * 1755.3 * 1e6);
  EXPECT_EQ(r.dram_sustained_bytes_per_s, bw * 1e9 * 0.87);
  EXPECT_EQ(dram_peak_bytes_per_sm_cycle(r), bw * 1e9 / (132 * 1755.3 * 1e6));
  EXPECT_EQ(dram_bytes_per_sm_cycle(r.dram_sustained_bytes_per_s, 132, r), bw * 1e9 * 0.87 / 132 / (1755.3 * 1e6));
}

TEST(GpuRates, NoClockGivesNoRatePerCycle) {
  EXPECT_EQ(bytes_per_cycle(1e12, 0), 0);
  EXPECT_DOUBLE_EQ(bytes_per_cycle(1e12, 2e9), 500);
  platform::GpuSpec gpu = testing::h100();
  gpu.set_sm_count(0);
  EXPECT_EQ(dram_peak_bytes_per_sm_cycle(GpuRates::of(gpu)), 0);
}

TEST(GpuRates, PipeWarpRateIsLanesOverWarpSize) {
  EXPECT_DOUBLE_EQ(pipe_warp_rate(128, 32), 4);
  EXPECT_DOUBLE_EQ(pipe_warp_rate(16, 32), 0.5);
  EXPECT_DOUBLE_EQ(pipe_warp_rate(16, 0), 16);  // a spec without a warp size counts 1
}

}  // namespace
}  // namespace warpsim::models
