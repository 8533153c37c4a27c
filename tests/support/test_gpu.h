#pragma once
// The one H100-like GpuSpec for tests, built in code (no platform files): change one field to make the case at hand.
// Models, platform (tests/sim/platform/spec_builders.h) and replay tests (tests/sim/replay/test_node.h) all start
// from it. Numbers from shared notes/gpu-specs.md (H100 SXM5 80 GB); "test value" marks those the notes leave unsourced.
#include "platform.pb.h"

namespace warpsim::models::testing {

inline platform::SmSpec h100_sm() {
  platform::SmSpec sm;
  sm.set_warp_size(32);
  sm.set_schedulers(4);                                  // WP-H Fig. 7
  sm.set_max_warps(64);                                  // WP-H Table 4
  sm.set_max_blocks(32);                                 // WP-H Table 4
  sm.set_max_threads_per_block(1024);                    // WP-H Table 4
  sm.set_registers(65536);                               // WP-H Tables 3-4
  sm.set_max_registers_per_thread(255);                  // WP-H Table 4
  sm.set_register_allocation_unit(256);                  // CUDA occupancy calculator
  sm.set_shared_memory_bytes(228 * 1024);                // WP-H p.22
  sm.set_max_shared_memory_per_block_bytes(227 * 1024);  // WP-H p.22 (opt-in)
  sm.set_shared_memory_allocation_unit_bytes(128);       // CUDA occupancy calculator
  sm.set_reserved_shared_memory_per_block_bytes(1024);   // since CC 8.0
  platform::Lanes& lanes = *sm.mutable_lanes();
  lanes.set_fp32(128);                     // WP-H Table 3
  lanes.set_fp64(64);                      // WP-H Table 3
  lanes.set_int32(64);                     // WP-H Table 3
  lanes.set_sfu(16);                       // test value (A100: PG)
  lanes.set_ldst(32);                      // test value
  lanes.set_fp16(256);                     // test value
  lanes.set_tensor_flops_per_cycle(4096);  // HC34
  platform::Latencies& lat = *sm.mutable_latency_cycles();
  lat.set_fp32(4);                 // AS
  lat.set_fp64(8);                 // AS
  lat.set_int32(4);                // AS
  lat.set_sfu(20);                 // test value
  lat.set_shared(29);              // L24
  lat.set_l1_hit(40);              // L24
  lat.set_l2_hit(263);             // L24
  lat.set_dram(479);               // L24
  sm.set_l1_bytes(256 * 1024);     // WP-H p.18
  sm.set_l1_bytes_per_cycle(128);  // test value
  sm.set_l1_scattered_lines_per_cycle(1);  // as measured on H100 (ws_microbench_scatter)
  return sm;
}

inline platform::GpuSpec h100() {
  platform::GpuSpec gpu;
  gpu.set_name("H100-SXM5-80GB");
  gpu.set_architecture("Hopper");
  gpu.set_compute_capability_major(9);
  gpu.set_sm_count(132);       // WP-H p.18
  gpu.set_sm_clock_mhz(1980);  // WP-H Table 1
  *gpu.mutable_sm() = h100_sm();
  gpu.mutable_memory()->set_l2_bytes(50ull * 1024 * 1024);  // WP-H p.18
  gpu.mutable_memory()->set_dram_bytes(80ull << 30);        // DS-H
  gpu.mutable_memory()->set_dram_bandwidth_gb_per_s(3352);  // WP-H Table 3
  gpu.mutable_memory()->set_dram_efficiency(0.92);          // ME
  gpu.set_kernel_launch_overhead_us(2);                     // test value
  return gpu;
}

}  // namespace warpsim::models::testing
