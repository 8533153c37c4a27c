#pragma once
// How many blocks of a kernel one SM holds at once, and what stops it holding more: the CUDA occupancy calculator's
// rules (per-warp register allocation, per-block shared memory allocation with the driver's reservation). How the
// grid then falls into waves: wave_plan.h.
#include <cstdint>
#include <string_view>

#include "platform.pb.h"
#include "trace.pb.h"

namespace warpsim::models {

/// The resource that bounds resident blocks per SM. Ties name the first in this order.
enum class OccupancyLimiter { kBlocks, kWarps, kRegisters, kSharedMemory, kThreadsPerBlock, kRegistersPerThread };

/// "blocks", "warps", "registers", "shared memory", "threads per block", "registers per thread".
std::string_view limiter_name(OccupancyLimiter limiter);

struct Occupancy {
  uint32_t blocks_per_sm = 0;  // 0: one block does not fit on an SM; `limiter` names what it exceeds
  uint32_t warps_per_block = 0;
  OccupancyLimiter limiter = OccupancyLimiter::kBlocks;
  double theoretical = 0;  // resident warps / max warps per SM, 0..1
};

/// Threads in one block and blocks in the grid. proto3 leaves an unset dimension at 0; CUDA's default is 1.
uint64_t threads_per_block(const KernelLaunch& launch);
uint64_t grid_blocks(const KernelLaunch& launch);

/// Resident blocks per SM for `launch` on an SM described by `sm`.
Occupancy occupancy(const KernelLaunch& launch, const platform::SmSpec& sm);

}  // namespace warpsim::models
