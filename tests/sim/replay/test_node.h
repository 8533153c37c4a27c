#pragma once
// Nodes for replay tests, built in code with round numbers so expected times are easy to compute by hand.
#include <cstdint>

#include "platform.h"
#include "test_gpu.h"

namespace warpsim::replay::testing {

/// `gpus` H100-like GPUs, each on its own PCIe link of `pcie_gb_per_s` with `pcie_latency_ns` to the host.
inline platform::Platform pcie_node(std::uint32_t gpus, double pcie_gb_per_s = 32, double pcie_latency_ns = 1000) {
  platform::Platform node;
  node.node.set_name("test-node");
  node.node.mutable_host()->set_memory_bandwidth_gb_per_s(100);
  node.node.mutable_host()->set_pageable_copy_bandwidth_gb_per_s(8);
  node.node.mutable_host()->set_api_call_overhead_us(0);
  for (std::uint32_t id = 0; id < gpus; ++id) {
    platform::NodeGpu& gpu = *node.node.add_gpus();
    gpu.set_id(id);
    gpu.set_gpu("H100-SXM5-80GB");
    gpu.mutable_pcie()->set_generation(5);
    gpu.mutable_pcie()->set_lanes(16);
    gpu.mutable_pcie()->set_bandwidth_gb_per_s(pcie_gb_per_s);
    gpu.mutable_pcie()->set_latency_ns(pcie_latency_ns);
    node.gpus.push_back(models::testing::h100());
  }
  return node;
}

/// Puts every GPU of `node` behind one PCIe switch whose uplink to the host has `uplink_gb_per_s`.
inline void behind_one_switch(platform::Platform& node, double uplink_gb_per_s) {
  platform::PcieSwitch& sw = *node.node.add_pcie_switches();
  sw.set_name("sw0");
  sw.mutable_uplink()->set_bandwidth_gb_per_s(uplink_gb_per_s);
  for (auto& gpu : *node.node.mutable_gpus()) gpu.set_attach("sw0");
}

/// Links GPUs 0 and 1 by `links` NVLinks of `per_link_gb_per_s` per direction.
inline void add_nvlink(platform::Platform& node, std::uint32_t links, double per_link_gb_per_s, double latency_ns = 0) {
  platform::NvlinkConnection& nv = *node.node.add_nvlinks();
  nv.set_gpu_a(0);
  nv.set_gpu_b(1);
  nv.set_link_count(links);
  nv.set_per_link_bandwidth_gb_per_s(per_link_gb_per_s);
  nv.set_latency_ns(latency_ns);
}

}  // namespace warpsim::replay::testing
