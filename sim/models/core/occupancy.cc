#include "occupancy.h"

#include <algorithm>
#include <array>
#include <limits>
#include <utility>

namespace warpsim::models {
namespace {

constexpr uint64_t kNoLimit = std::numeric_limits<uint64_t>::max();

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
uint64_t round_up(uint64_t a, uint64_t unit) {
  unit = std::max<uint64_t>(unit, 1);
  return ceil_div(a, unit) * unit;
}
uint64_t dim(uint32_t d) { return d == 0 ? 1 : d; }

// Registers are allocated per warp, rounded up to the allocation unit (CUDA occupancy calculator), so 33 registers
// per thread cost as much as 40 on a 256-register unit.
uint64_t blocks_by_registers(const KernelLaunch& launch, const platform::SmSpec& sm, uint64_t warps_per_block) {
  if (launch.registers_per_thread() == 0) return kNoLimit;  // not recorded: no limit known
  const uint64_t per_warp =
      round_up(uint64_t{launch.registers_per_thread()} * sm.warp_size(), sm.register_allocation_unit());
  return sm.registers() / (per_warp * warps_per_block);
}

// Every block also holds the driver's reservation (1 KiB since CC 8.0), even when it declares no shared memory.
uint64_t blocks_by_shared_memory(const KernelLaunch& launch, const platform::SmSpec& sm) {
  const uint64_t declared = uint64_t{launch.static_shared_memory_bytes()} + launch.dynamic_shared_memory_bytes();
  if (declared > sm.max_shared_memory_per_block_bytes()) return 0;
  const uint64_t per_block =
      round_up(declared + sm.reserved_shared_memory_per_block_bytes(), sm.shared_memory_allocation_unit_bytes());
  return per_block == 0 ? kNoLimit : sm.shared_memory_bytes() / per_block;
}

Occupancy does_not_fit(uint64_t warps_per_block, OccupancyLimiter limiter) {
  return Occupancy{0, static_cast<uint32_t>(warps_per_block), limiter, 0};
}

}  // namespace

std::string_view limiter_name(OccupancyLimiter limiter) {
  switch (limiter) {
    case OccupancyLimiter::kBlocks: return "blocks";
    case OccupancyLimiter::kWarps: return "warps";
    case OccupancyLimiter::kRegisters: return "registers";
    case OccupancyLimiter::kSharedMemory: return "shared memory";
    case OccupancyLimiter::kThreadsPerBlock: return "threads per block";
    case OccupancyLimiter::kRegistersPerThread: return "registers per thread";
  }
  return "unknown";
}

uint64_t threads_per_block(const KernelLaunch& launch) {
  return dim(launch.block().x()) * dim(launch.block().y()) * dim(launch.block().z());
}

uint64_t grid_blocks(const KernelLaunch& launch) {
  return dim(launch.grid().x()) * dim(launch.grid().y()) * dim(launch.grid().z());
}

Occupancy occupancy(const KernelLaunch& launch, const platform::SmSpec& sm) {
  const uint64_t threads = threads_per_block(launch);
  const uint64_t warps_per_block = ceil_div(threads, std::max<uint32_t>(sm.warp_size(), 1));
  if (threads > sm.max_threads_per_block()) return does_not_fit(warps_per_block, OccupancyLimiter::kThreadsPerBlock);
  if (launch.registers_per_thread() > sm.max_registers_per_thread()) {
    return does_not_fit(warps_per_block, OccupancyLimiter::kRegistersPerThread);
  }
  // In tie order: the first smallest names the limiter.
  const std::array<std::pair<uint64_t, OccupancyLimiter>, 4> limits{{
      {sm.max_blocks(), OccupancyLimiter::kBlocks},
      {sm.max_warps() / warps_per_block, OccupancyLimiter::kWarps},
      {blocks_by_registers(launch, sm, warps_per_block), OccupancyLimiter::kRegisters},
      {blocks_by_shared_memory(launch, sm), OccupancyLimiter::kSharedMemory},
  }};
  const auto smallest =
      std::min_element(limits.begin(), limits.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  const auto blocks = static_cast<uint32_t>(smallest->first);  // <= max_blocks, a uint32
  const double resident_warps = static_cast<double>(uint64_t{blocks} * warps_per_block);
  const double occupancy = sm.max_warps() == 0 ? 0 : resident_warps / sm.max_warps();
  return Occupancy{blocks, static_cast<uint32_t>(warps_per_block), smallest->second, occupancy};
}

}  // namespace warpsim::models
