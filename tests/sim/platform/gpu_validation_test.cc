// check_gpu: one rule per test, each on an otherwise valid H100-like spec.
#include <gtest/gtest.h>

#include "issue_matchers.h"
#include "spec_builders.h"
#include "validation.h"

namespace warpsim::platform {
namespace {

using testing::h100_like;
using testing::names_field;

TEST(GpuValidation, CompleteSpecHasNoIssues) { EXPECT_TRUE(check_gpu(h100_like()).empty()); }

TEST(GpuValidation, ZeroSmCountIsAnIssue) {
  GpuSpec gpu = h100_like();
  gpu.set_sm_count(0);
  EXPECT_TRUE(names_field(check_gpu(gpu), "sm_count"));
}

TEST(GpuValidation, NegativeOrZeroClockIsAnIssue) {
  GpuSpec gpu = h100_like();
  gpu.set_sm_clock_mhz(-1);
  EXPECT_TRUE(names_field(check_gpu(gpu), "sm_clock_mhz"));
  gpu.set_sm_clock_mhz(0);
  EXPECT_TRUE(names_field(check_gpu(gpu), "sm_clock_mhz"));
}

TEST(GpuValidation, NonPositiveBandwidthsAreIssues) {
  GpuSpec gpu = h100_like();
  gpu.mutable_memory()->set_dram_bandwidth_gb_per_s(0);
  gpu.mutable_memory()->set_l2_bandwidth_gb_per_s(-5);
  const std::vector<Issue> issues = check_gpu(gpu);
  EXPECT_TRUE(names_field(issues, "memory.dram_bandwidth_gb_per_s"));
  EXPECT_TRUE(names_field(issues, "memory.l2_bandwidth_gb_per_s"));
}

TEST(GpuValidation, ZeroMemorySizesAreIssues) {
  GpuSpec gpu = h100_like();
  gpu.mutable_memory()->set_l2_bytes(0);
  gpu.mutable_memory()->set_dram_bytes(0);
  gpu.mutable_sm()->set_shared_memory_bytes(0);
  const std::vector<Issue> issues = check_gpu(gpu);
  EXPECT_TRUE(names_field(issues, "memory.l2_bytes"));
  EXPECT_TRUE(names_field(issues, "memory.dram_bytes"));
  EXPECT_TRUE(names_field(issues, "sm.shared_memory_bytes"));
}

TEST(GpuValidation, DramEfficiencyMustBeInZeroToOne) {
  GpuSpec gpu = h100_like();
  gpu.mutable_memory()->set_dram_efficiency(1.0);
  EXPECT_TRUE(check_gpu(gpu).empty());
  gpu.mutable_memory()->set_dram_efficiency(1.01);
  EXPECT_TRUE(names_field(check_gpu(gpu), "memory.dram_efficiency"));
  gpu.mutable_memory()->set_dram_efficiency(0);
  EXPECT_TRUE(names_field(check_gpu(gpu), "memory.dram_efficiency"));
}

TEST(GpuValidation, ZeroResidencyLimitIsAnIssue) {
  GpuSpec gpu = h100_like();
  gpu.mutable_sm()->set_max_blocks(0);
  EXPECT_TRUE(names_field(check_gpu(gpu), "sm.max_blocks"));
}

TEST(GpuValidation, SharedMemoryPerBlockAbovePerSmIsAnIssue) {
  GpuSpec gpu = h100_like();
  gpu.mutable_sm()->set_max_shared_memory_per_block_bytes(gpu.sm().shared_memory_bytes() + 1);
  EXPECT_TRUE(names_field(check_gpu(gpu), "sm.max_shared_memory_per_block_bytes"));
}

TEST(GpuValidation, MissingUnitsMayBeZeroButFp32MayNot) {
  GpuSpec gpu = h100_like();
  gpu.mutable_sm()->mutable_lanes()->set_fp16(0);  // Kepler: no FP16 arithmetic
  gpu.mutable_sm()->mutable_lanes()->set_tensor_flops_per_cycle(0);
  EXPECT_TRUE(check_gpu(gpu).empty());
  gpu.mutable_sm()->mutable_lanes()->set_fp32(0);
  EXPECT_TRUE(names_field(check_gpu(gpu), "sm.lanes.fp32"));
}

// The address-divergence unit's rate may be 0 (unmeasured: the models leave it out), never negative.
TEST(GpuValidation, AduRateMayBeZeroButNotNegative) {
  GpuSpec gpu = h100_like();
  gpu.mutable_sm()->set_adu_warp_instructions_per_cycle(0);
  EXPECT_TRUE(check_gpu(gpu).empty());
  gpu.mutable_sm()->set_adu_warp_instructions_per_cycle(-0.5);
  EXPECT_TRUE(names_field(check_gpu(gpu), "sm.adu_warp_instructions_per_cycle"));
}

// A host-memory load's latency may be 0 (unmeasured: it waits like a DRAM load), never negative.
TEST(GpuValidation, HostLatencyMayBeZeroButNotNegative) {
  GpuSpec gpu = h100_like();
  gpu.mutable_sm()->mutable_latency_cycles()->set_host(0);
  EXPECT_TRUE(check_gpu(gpu).empty());
  gpu.mutable_sm()->mutable_latency_cycles()->set_host(-1);
  EXPECT_TRUE(names_field(check_gpu(gpu), "sm.latency_cycles.host"));
}

// The same for a constant load's (0: the models wait for none).
TEST(GpuValidation, ConstantLatencyMayBeZeroButNotNegative) {
  GpuSpec gpu = h100_like();
  gpu.mutable_sm()->mutable_latency_cycles()->set_constant(0);
  EXPECT_TRUE(check_gpu(gpu).empty());
  gpu.mutable_sm()->mutable_latency_cycles()->set_constant(-1);
  EXPECT_TRUE(names_field(check_gpu(gpu), "sm.latency_cycles.constant"));
}

TEST(GpuValidation, ZeroLatencyIsAnIssue) {
  GpuSpec gpu = h100_like();
  gpu.mutable_sm()->mutable_latency_cycles()->set_l2_hit(0);
  EXPECT_TRUE(names_field(check_gpu(gpu), "sm.latency_cycles.l2_hit"));
}

TEST(GpuValidation, MissingNameIsAnIssue) {
  GpuSpec gpu = h100_like();
  gpu.clear_name();
  EXPECT_TRUE(names_field(check_gpu(gpu), "name"));
}

LaunchFit launch_fit(std::uint32_t warps, double x0_ns, double x1_ns_per_block) {
  LaunchFit fit;
  fit.set_block_warps(warps);
  fit.set_x0_ns(x0_ns);
  fit.set_x1_ns_per_block(x1_ns_per_block);
  return fit;
}

TEST(GpuValidation, LaunchFitsInIncreasingBlockSizeAreFine) {
  GpuSpec gpu = h100_like();
  *gpu.add_launch_fits() = launch_fit(1, 800, 0.6);
  *gpu.add_launch_fits() = launch_fit(32, 770, 1.25);
  EXPECT_TRUE(check_gpu(gpu).empty());
}

TEST(GpuValidation, LaunchFitsOutOfOrderOrRepeatedAreIssues) {
  GpuSpec gpu = h100_like();
  *gpu.add_launch_fits() = launch_fit(8, 800, 0.6);
  *gpu.add_launch_fits() = launch_fit(4, 800, 0.6);
  *gpu.add_launch_fits() = launch_fit(8, 800, 0.6);
  const std::vector<Issue> issues = check_gpu(gpu);
  EXPECT_TRUE(names_field(issues, "launch_fits[1].block_warps"));
  EXPECT_TRUE(names_field(issues, "launch_fits[2].block_warps"));
}

TEST(GpuValidation, LaunchFitWithZeroWarpsOrNegativeCostIsAnIssue) {
  GpuSpec gpu = h100_like();
  *gpu.add_launch_fits() = launch_fit(0, -1, -0.5);
  const std::vector<Issue> issues = check_gpu(gpu);
  EXPECT_TRUE(names_field(issues, "launch_fits[0].block_warps"));
  EXPECT_TRUE(names_field(issues, "launch_fits[0].x0_ns"));
  EXPECT_TRUE(names_field(issues, "launch_fits[0].x1_ns_per_block"));
}

TEST(GpuValidation, NegativeBlockTurnaroundIsAnIssue) {
  GpuSpec gpu = h100_like();
  gpu.set_block_turnaround_ns(-1);
  EXPECT_TRUE(names_field(check_gpu(gpu), "block_turnaround_ns"));
}

// Two rows (8 and 16 warps) by two columns (1 and 2 loads per warp).
DramConcurrency dram_grid() {
  DramConcurrency grid;
  grid.add_loads_per_warp(1);
  grid.add_loads_per_warp(2);
  for (double warps : {8.0, 16.0}) {
    DramConcurrencyRow& row = *grid.add_rows();
    row.set_warps_per_sm(warps);
    for (double rate : {warps * 40, warps * 70}) {
      row.add_read_gb_per_s(rate);
      row.add_copy_read_gb_per_s(rate / 2);
    }
  }
  return grid;
}

TEST(GpuValidation, DramConcurrencyGridIsFine) {
  GpuSpec gpu = h100_like();
  *gpu.mutable_memory()->mutable_dram_concurrency() = dram_grid();
  EXPECT_TRUE(check_gpu(gpu).empty());
}

TEST(GpuValidation, DramConcurrencyAxesOutOfOrderAreIssues) {
  GpuSpec gpu = h100_like();
  DramConcurrency& grid = *gpu.mutable_memory()->mutable_dram_concurrency() = dram_grid();
  grid.set_loads_per_warp(1, 1);
  grid.mutable_rows(1)->set_warps_per_sm(8);
  const std::vector<Issue> issues = check_gpu(gpu);
  EXPECT_TRUE(names_field(issues, "memory.dram_concurrency.loads_per_warp[1]"));
  EXPECT_TRUE(names_field(issues, "memory.dram_concurrency.rows[1].warps_per_sm"));
}

TEST(GpuValidation, DramConcurrencyRowWithMissingOrNonPositiveRatesIsAnIssue) {
  GpuSpec gpu = h100_like();
  DramConcurrency& grid = *gpu.mutable_memory()->mutable_dram_concurrency() = dram_grid();
  grid.mutable_rows(0)->mutable_read_gb_per_s()->RemoveLast();
  grid.mutable_rows(1)->set_copy_read_gb_per_s(0, 0);
  const std::vector<Issue> issues = check_gpu(gpu);
  EXPECT_TRUE(names_field(issues, "memory.dram_concurrency.rows[0].read_gb_per_s"));
  EXPECT_TRUE(names_field(issues, "memory.dram_concurrency.rows[1].copy_read_gb_per_s[0]"));
}

TEST(GpuValidation, DramGroupLatencyNeedsAscendingLoadsFromOneAndRatiosOfAtLeastOne) {
  GpuSpec gpu = h100_like();
  GroupLatency& curve = *gpu.mutable_memory()->mutable_dram_group_latency();
  for (double loads : {2.0, 4.0, 16.0}) curve.add_loads(loads);
  for (double ratio : {1.1, 1.2, 1.3}) curve.add_ratio(ratio);
  EXPECT_TRUE(check_gpu(gpu).empty());
  curve.set_loads(0, 0.5);
  curve.set_loads(2, 4);
  curve.set_ratio(1, 0.9);
  curve.mutable_ratio()->RemoveLast();
  const std::vector<Issue> issues = check_gpu(gpu);
  EXPECT_TRUE(names_field(issues, "memory.dram_group_latency.loads[0]"));
  EXPECT_TRUE(names_field(issues, "memory.dram_group_latency.loads[2]"));
  EXPECT_TRUE(names_field(issues, "memory.dram_group_latency.ratio[1]"));
  EXPECT_TRUE(names_field(issues, "memory.dram_group_latency.ratio"));
  GroupLatency& long_curve = *gpu.mutable_memory()->mutable_dram_group_latency() = GroupLatency{};
  for (int i = 1; i <= 9; ++i) {
    long_curve.add_loads(i);
    long_curve.add_ratio(1);
  }
  EXPECT_TRUE(names_field(check_gpu(gpu), "memory.dram_group_latency.loads"));
}

TEST(GpuValidation, PeerGridAndLatencyFollowTheSameRules) {
  GpuSpec gpu = h100_like();
  DramConcurrency& grid = *gpu.mutable_memory()->mutable_peer_concurrency() = dram_grid();
  gpu.mutable_sm()->mutable_latency_cycles()->set_peer(2105);
  EXPECT_TRUE(check_gpu(gpu).empty());
  grid.mutable_rows(0)->set_warps_per_sm(-8);
  gpu.mutable_sm()->mutable_latency_cycles()->set_peer(-1);
  const std::vector<Issue> issues = check_gpu(gpu);
  EXPECT_TRUE(names_field(issues, "memory.peer_concurrency.rows[0].warps_per_sm"));
  EXPECT_TRUE(names_field(issues, "sm.latency_cycles.peer"));
}

TEST(GpuValidation, DramConcurrencyColumnsWithoutRowsIsAnIssue) {
  GpuSpec gpu = h100_like();
  gpu.mutable_memory()->mutable_dram_concurrency()->add_loads_per_warp(1);
  EXPECT_TRUE(names_field(check_gpu(gpu), "memory.dram_concurrency.rows"));
}

}  // namespace
}  // namespace warpsim::platform
