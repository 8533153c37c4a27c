#pragma once
// A hand-made kernel for the mwp tests: every warp issues `loads` global loads touching `sectors` 32-byte sectors
// each, and `fmas` FP32 instructions; nothing else.
#include <cstdint>

#include "test_launch.h"
#include "trace.pb.h"

namespace warpsim::models::testing {

inline KernelLaunch mwp_kernel(uint32_t blocks, uint32_t threads, uint64_t loads, uint64_t fmas, uint64_t sectors) {
  KernelLaunch k = launch(blocks, threads);
  const uint64_t warps = uint64_t{blocks} * ((threads + 31) / 32);
  KernelCounters& c = *k.mutable_counters();
  c.mutable_warp_instructions()->set_total(warps * (loads + fmas));
  c.mutable_warp_instructions()->set_global_ld(warps * loads);
  c.mutable_pipes()->set_fma(warps * fmas);
  c.mutable_pipes()->set_lsu(warps * loads);
  c.mutable_memory()->set_l1_sectors(warps * loads * sectors);
  return k;
}

}  // namespace warpsim::models::testing
