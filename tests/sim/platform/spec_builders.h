#pragma once
// Valid specs built in code, so that a test changes one field and needs no files (ChampSim's defaults + builders).
#include <string>

#include "platform.pb.h"

namespace warpsim::platform::testing {

/// An H100-like GPU: every field set, passes check_gpu.
GpuSpec h100_like(const std::string& name = "TestGPU");

/// A PCIe link of the given generation and lanes (bandwidth derived).
PcieLink pcie_link(std::uint32_t generation, std::uint32_t lanes);

/// A node of `gpu_count` GPUs named `gpu_name`, each on its own Gen5 x16 link to the root complex; passes check_node.
NodeSpec pcie_node(int gpu_count, const std::string& gpu_name = "TestGPU");

/// Two GPUs on PCIe plus one NVLink bundle 0-1.
NodeSpec nvlink_pair(const std::string& gpu_name = "TestGPU");

}  // namespace warpsim::platform::testing
