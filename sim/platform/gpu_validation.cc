// Rules for one GpuSpec. Every count, size, clock and rate a model divides by or multiplies with must be positive;
// lanes of optional units (FP64, FP16, tensor) may be 0 where the GPU lacks them.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "validation.h"

namespace warpsim::platform {
namespace {

void check_residency(const SmSpec& sm, const FieldPath& at, IssueList& issues) {
  const std::pair<const char*, double> limits[] = {
      {"warp_size", sm.warp_size()},
      {"schedulers", sm.schedulers()},
      {"max_warps", sm.max_warps()},
      {"max_blocks", sm.max_blocks()},
      {"max_threads_per_block", sm.max_threads_per_block()},
      {"registers", sm.registers()},
      {"max_registers_per_thread", sm.max_registers_per_thread()},
      {"register_allocation_unit", sm.register_allocation_unit()},
      {"shared_memory_bytes", sm.shared_memory_bytes()},
      {"max_shared_memory_per_block_bytes", sm.max_shared_memory_per_block_bytes()},
      {"shared_memory_allocation_unit_bytes", sm.shared_memory_allocation_unit_bytes()},
      {"l1_bytes", sm.l1_bytes()},
      {"l1_bytes_per_cycle", sm.l1_bytes_per_cycle()},
      {"l1_scattered_lines_per_cycle", sm.l1_scattered_lines_per_cycle()},
  };
  for (const auto& [name, value] : limits) issues.positive(at.then(name), value);
  issues.non_negative(at.then("adu_warp_instructions_per_cycle"), sm.adu_warp_instructions_per_cycle());
  if (sm.max_shared_memory_per_block_bytes() > sm.shared_memory_bytes()) {
    issues.add(at.then("max_shared_memory_per_block_bytes"),
               "is larger than shared_memory_bytes (" + std::to_string(sm.shared_memory_bytes()) + ")");
  }
}

void check_lanes(const Lanes& lanes, const FieldPath& at, IssueList& issues) {
  // Every SM has FP32, integer, special-function and load/store pipes; the others may be absent (0).
  const std::pair<const char*, double> required[] = {
      {"fp32", lanes.fp32()}, {"int32", lanes.int32()}, {"sfu", lanes.sfu()}, {"ldst", lanes.ldst()}};
  for (const auto& [name, value] : required) issues.positive(at.then(name), value);
  const std::pair<const char*, double> optional[] = {
      {"fp64", lanes.fp64()},
      {"fp16", lanes.fp16()},
      {"tensor_flops_per_cycle", lanes.tensor_flops_per_cycle()},
      {"tensor_tf32_flops_per_cycle", lanes.tensor_tf32_flops_per_cycle()},
      {"tensor_fp8_flops_per_cycle", lanes.tensor_fp8_flops_per_cycle()},
      {"tensor_int8_ops_per_cycle", lanes.tensor_int8_ops_per_cycle()},
      {"tensor_fp64_flops_per_cycle", lanes.tensor_fp64_flops_per_cycle()},
      {"tensor_mma_sync_flops_per_cycle", lanes.tensor_mma_sync_flops_per_cycle()},
      {"tensor_mma_sync_tf32_flops_per_cycle", lanes.tensor_mma_sync_tf32_flops_per_cycle()}};
  for (const auto& [name, value] : optional) issues.non_negative(at.then(name), value);
}

void check_latencies(const Latencies& latency, const FieldPath& at, IssueList& issues) {
  const std::pair<const char*, double> all[] = {{"fp32", latency.fp32()},     {"fp64", latency.fp64()},
                                                {"int32", latency.int32()},   {"sfu", latency.sfu()},
                                                {"shared", latency.shared()}, {"l1_hit", latency.l1_hit()},
                                                {"l2_hit", latency.l2_hit()}, {"dram", latency.dram()}};
  for (const auto& [name, value] : all) issues.positive(at.then(name), value);
  issues.non_negative(at.then("host"), latency.host());
  issues.non_negative(at.then("peer"), latency.peer());          // 0: unmeasured
  issues.non_negative(at.then("constant"), latency.constant());  // 0: unmeasured, not waited for
}

void check_memory(const MemorySpec& memory, const FieldPath& at, IssueList& issues) {
  issues.positive(at.then("l2_bytes"), static_cast<double>(memory.l2_bytes()));
  issues.positive(at.then("l2_bandwidth_gb_per_s"), memory.l2_bandwidth_gb_per_s());
  issues.positive(at.then("dram_bytes"), static_cast<double>(memory.dram_bytes()));
  issues.positive(at.then("dram_bandwidth_gb_per_s"), memory.dram_bandwidth_gb_per_s());
  issues.in_half_open_range(at.then("dram_efficiency"), memory.dram_efficiency(), 0.0, 1.0);
  issues.non_negative(at.then("memset_bandwidth_gb_per_s"), memory.memset_bandwidth_gb_per_s());
  issues.non_negative(at.then("device_copy_bandwidth_gb_per_s"), memory.device_copy_bandwidth_gb_per_s());
  issues.non_negative(at.then("l2_slice_atomics_per_cycle"), memory.l2_slice_atomics_per_cycle());
  issues.non_negative(at.then("dram_scattered_sector_gb_per_s"), memory.dram_scattered_sector_gb_per_s());
  issues.non_negative(at.then("peer_copy_bandwidth_gb_per_s"), memory.peer_copy_bandwidth_gb_per_s());
  issues.non_negative(at.then("l2_scattered_sector_gb_per_s"), memory.l2_scattered_sector_gb_per_s());
  issues.non_negative(at.then("l2_write_sector_gb_per_s"), memory.l2_write_sector_gb_per_s());
  issues.non_negative(at.then("l2_scattered_write_sector_gb_per_s"), memory.l2_scattered_write_sector_gb_per_s());
  issues.non_negative(at.then("l2_hot_slice_sectors_per_cycle"), memory.l2_hot_slice_sectors_per_cycle());
}

// Each value in increasing order, positive: the DRAM concurrency grid's axes (the models interpolate between them).
template <typename Values>
void check_ascending(const Values& values, const FieldPath& at, const char* field, IssueList& issues) {
  for (int i = 0; i < values.size(); ++i) {
    issues.positive(at.then(field, i), values.Get(i));
    if (i > 0 && values.Get(i) <= values.Get(i - 1))
      issues.add(at.then(field, i), "must be larger than the one before (" + format_number(values.Get(i - 1)) + ")");
  }
}

// A group latency curve: empty (unmeasured), or up to 8 ascending loads from 1 up (the wave models keep 8 points:
// GroupLatencyGrowth), each with a ratio of at least 1.
void check_group_latency(const GroupLatency& curve, const FieldPath& at, IssueList& issues) {
  constexpr int kMaxPoints = 8;
  if (curve.loads_size() > kMaxPoints)
    issues.add(at.then("loads"), "must have at most " + std::to_string(kMaxPoints) + " points, has " +
                                     std::to_string(curve.loads_size()));
  check_ascending(curve.loads(), at, "loads", issues);
  if (!curve.loads().empty() && curve.loads(0) < 1)
    issues.add(at.then("loads", 0), "must be at least 1 (a group of one load)");
  if (curve.ratio_size() != curve.loads_size())
    issues.add(at.then("ratio"), "must have one value per loads entry (" + std::to_string(curve.loads_size()) +
                                     "), has " + std::to_string(curve.ratio_size()));
  for (int i = 0; i < curve.ratio_size(); ++i)
    if (!(curve.ratio(i) >= 1)) issues.add(at.then("ratio", i), "must be at least 1 (a group waits its slowest load)");
}

// The DRAM concurrency grid: empty (unmeasured), or rows of ascending warps, each with one positive rate per column.
void check_dram_concurrency(const DramConcurrency& grid, const FieldPath& at, IssueList& issues) {
  if (grid.rows().empty() && grid.loads_per_warp().empty()) return;
  if (grid.loads_per_warp().empty()) issues.add(at.then("loads_per_warp"), "must list the columns' loads per warp");
  if (grid.rows().empty()) issues.add(at.then("rows"), "must hold at least one row");
  check_ascending(grid.loads_per_warp(), at, "loads_per_warp", issues);
  double previous_warps = 0;
  for (int r = 0; r < grid.rows_size(); ++r) {
    const DramConcurrencyRow& row = grid.rows(r);
    const FieldPath row_at = at.then("rows", r);
    issues.positive(row_at.then("warps_per_sm"), row.warps_per_sm());
    if (r > 0 && row.warps_per_sm() <= previous_warps)
      issues.add(row_at.then("warps_per_sm"),
                 "must be larger than the previous row's (" + format_number(previous_warps) + ")");
    previous_warps = row.warps_per_sm();
    for (const auto& [field, values] : {std::pair{"read_gb_per_s", &row.read_gb_per_s()},
                                        std::pair{"copy_read_gb_per_s", &row.copy_read_gb_per_s()}}) {
      if (values->size() != grid.loads_per_warp_size())
        issues.add(row_at.then(field), "must have one value per column (" + std::to_string(grid.loads_per_warp_size()) +
                                           "), has " + std::to_string(values->size()));
      for (int c = 0; c < values->size(); ++c) issues.positive(row_at.then(field, c), values->Get(c));
    }
  }
}

// The wave model's launch regression: one line per block size, in increasing block size (it interpolates between
// neighbours), with non-negative cost.
void check_launch_fits(const GpuSpec& gpu, const FieldPath& root, IssueList& issues) {
  uint32_t previous = 0;
  for (int i = 0; i < gpu.launch_fits_size(); ++i) {
    const LaunchFit& fit = gpu.launch_fits(i);
    const FieldPath at = root.then("launch_fits", i);
    issues.positive(at.then("block_warps"), fit.block_warps());
    if (fit.block_warps() > 0 && fit.block_warps() <= previous) {
      issues.add(at.then("block_warps"), "must be larger than the previous fit's (" + std::to_string(previous) + ")");
    }
    previous = std::max(previous, fit.block_warps());
    issues.non_negative(at.then("x0_ns"), fit.x0_ns());
    issues.non_negative(at.then("x1_ns_per_block"), fit.x1_ns_per_block());
  }
}

}  // namespace

std::vector<Issue> check_gpu(const GpuSpec& gpu) {
  IssueList issues;
  const FieldPath root;
  if (gpu.name().empty()) issues.add(root.then("name"), "must be set: nodes refer to the GPU by it");
  issues.positive(root.then("compute_capability_major"), gpu.compute_capability_major());
  issues.positive(root.then("sm_count"), gpu.sm_count());
  issues.positive(root.then("sm_clock_mhz"), gpu.sm_clock_mhz());
  check_residency(gpu.sm(), root.then("sm"), issues);
  check_lanes(gpu.sm().lanes(), root.then("sm").then("lanes"), issues);
  check_latencies(gpu.sm().latency_cycles(), root.then("sm").then("latency_cycles"), issues);
  check_memory(gpu.memory(), root.then("memory"), issues);
  check_dram_concurrency(gpu.memory().dram_concurrency(), root.then("memory").then("dram_concurrency"), issues);
  check_dram_concurrency(gpu.memory().peer_concurrency(), root.then("memory").then("peer_concurrency"), issues);
  check_group_latency(gpu.memory().dram_group_latency(), root.then("memory").then("dram_group_latency"), issues);
  issues.non_negative(root.then("kernel_launch_overhead_us"), gpu.kernel_launch_overhead_us());
  check_launch_fits(gpu, root, issues);
  issues.non_negative(root.then("block_turnaround_ns"), gpu.block_turnaround_ns());
  return issues.issues();
}

}  // namespace warpsim::platform
