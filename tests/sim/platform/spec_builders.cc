#include "spec_builders.h"

#include "test_gpu.h"

namespace warpsim::platform::testing {

GpuSpec h100_like(const std::string& name) {
  GpuSpec gpu = models::testing::h100();
  // What the models' fixture leaves unset and check_gpu asks for.
  gpu.set_name(name);
  gpu.add_device_names("Test Device");
  gpu.set_compute_capability_minor(0);
  gpu.mutable_memory()->set_l2_bandwidth_gb_per_s(8294);  // MEASURED (platforms/gpus/H100-SXM5-80GB.textproto)
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
