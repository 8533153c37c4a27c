#include "spec_builders.h"

namespace warpsim::platform::testing {
namespace {

void fill_sm(SmSpec& sm) {
  sm.set_warp_size(32);
  sm.set_schedulers(4);
  sm.set_max_warps(64);
  sm.set_max_blocks(32);
  sm.set_max_threads_per_block(1024);
  sm.set_registers(65536);
  sm.set_max_registers_per_thread(255);
  sm.set_register_allocation_unit(256);
  sm.set_shared_memory_bytes(233472);
  sm.set_max_shared_memory_per_block_bytes(232448);
  sm.set_shared_memory_allocation_unit_bytes(128);
  sm.set_reserved_shared_memory_per_block_bytes(1024);
  sm.set_l1_bytes(262144);
  sm.set_l1_bytes_per_cycle(128);
  sm.set_l1_scattered_lines_per_cycle(1);
}

void fill_lanes(Lanes& lanes) {
  lanes.set_fp32(128);
  lanes.set_fp64(64);
  lanes.set_int32(64);
  lanes.set_sfu(16);
  lanes.set_ldst(32);
  lanes.set_fp16(256);
  lanes.set_tensor_flops_per_cycle(4096);
}

void fill_latencies(Latencies& latency) {
  latency.set_fp32(4);
  latency.set_fp64(8);
  latency.set_int32(4);
  latency.set_sfu(23);
  latency.set_shared(30);
  latency.set_l1_hit(40);
  latency.set_l2_hit(283);
  latency.set_dram(651);
}

void fill_memory(MemorySpec& memory) {
  memory.set_l2_bytes(52428800);
  memory.set_l2_bandwidth_gb_per_s(6704);
  memory.set_dram_bytes(85899345920);
  memory.set_dram_bandwidth_gb_per_s(3352);
  memory.set_dram_efficiency(0.919);
}

}  // namespace

GpuSpec h100_like(const std::string& name) {
  GpuSpec gpu;
  gpu.set_name(name);
  gpu.add_device_names("Test Device");
  gpu.set_architecture("Hopper");
  gpu.set_compute_capability_major(9);
  gpu.set_compute_capability_minor(0);
  gpu.set_sm_count(132);
  gpu.set_sm_clock_mhz(1980);
  fill_sm(*gpu.mutable_sm());
  fill_lanes(*gpu.mutable_sm()->mutable_lanes());
  fill_latencies(*gpu.mutable_sm()->mutable_latency_cycles());
  fill_memory(*gpu.mutable_memory());
  gpu.set_kernel_launch_overhead_us(0.864);
  return gpu;
}

PcieLink pcie_link(std::uint32_t generation, std::uint32_t lanes) {
  PcieLink link;
  link.set_generation(generation);
  link.set_lanes(lanes);
  return link;
}

NodeSpec pcie_node(int gpu_count, const std::string& gpu_name) {
  NodeSpec node;
  node.set_name("test-node");
  for (int i = 0; i < gpu_count; ++i) {
    NodeGpu& gpu = *node.add_gpus();
    gpu.set_id(static_cast<std::uint32_t>(i));
    gpu.set_gpu(gpu_name);
    *gpu.mutable_pcie() = pcie_link(5, 16);
  }
  node.mutable_host()->set_memory_bandwidth_gb_per_s(300);
  node.mutable_host()->set_pageable_copy_bandwidth_gb_per_s(20);
  node.mutable_host()->set_api_call_overhead_us(4.82);
  return node;
}

NodeSpec nvlink_pair(const std::string& gpu_name) {
  NodeSpec node = pcie_node(2, gpu_name);
  NvlinkConnection& link = *node.add_nvlinks();
  link.set_gpu_a(0);
  link.set_gpu_b(1);
  link.set_link_count(18);
  link.set_per_link_bandwidth_gb_per_s(26.562);
  return node;
}

}  // namespace warpsim::platform::testing
