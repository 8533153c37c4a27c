#pragma once
// Hand-made kernel launches for model tests: a 1-D grid, a 1-D block, and counters filled by the test.
#include <cstdint>

#include "trace.pb.h"

namespace warpsim::models::testing {

inline KernelLaunch launch(uint32_t blocks, uint32_t threads, uint32_t registers = 32, uint32_t shared_bytes = 0) {
  KernelLaunch k;
  k.set_name("_Z6kernelv");
  k.mutable_grid()->set_x(blocks);
  k.mutable_block()->set_x(threads);
  k.set_registers_per_thread(registers);
  k.set_static_shared_memory_bytes(shared_bytes);
  return k;
}

/// A launch whose every block issues `fma_per_block` FP32-pipe warp instructions and nothing else.
inline KernelLaunch fma_kernel(uint32_t blocks, uint32_t threads, uint64_t fma_per_block) {
  KernelLaunch k = launch(blocks, threads);
  KernelCounters& c = *k.mutable_counters();
  c.mutable_pipes()->set_fma(blocks * fma_per_block);
  c.mutable_warp_instructions()->set_total(blocks * fma_per_block);
  return k;
}

}  // namespace warpsim::models::testing
