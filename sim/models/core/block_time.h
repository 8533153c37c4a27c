#pragma once
// How long one block keeps an SM busy when it has the SM to itself: the slowest SM resource its share of the kernel's
// work uses. roofline times waves with it; mwp takes it as the paper's Comp_cycles for one warp's share.
//
// The resources: warp instructions over the schedulers (one issue per scheduler per clock), each pipe's warp
// instructions over that pipe's warp rate (lanes / warp size), tensor work at the tensor cores' rates, L1 bytes over
// the L1 bandwidth, shared-memory wavefronts at one per clock.
#include <cstdint>
#include <string_view>

#include "kernel_work.h"
#include "platform.pb.h"

namespace warpsim::models {

/// SM cycles of one block that has the whole SM to itself, and which resource sets them.
struct BlockTime {
  double cycles = 0;
  std::string_view limiter;  // "issue", "fma pipe", ..., "l1 bandwidth", "shared wavefronts"
};

/// `work` holds kernel totals; each of `blocks` blocks does 1/blocks of it. Ties name a pipe before issue.
BlockTime block_time(const KernelWork& work, uint64_t blocks, const platform::GpuSpec& gpu);

}  // namespace warpsim::models
