// Routes through the node graph, without SimGrid.
#include "topology.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "test_node.h"

namespace warpsim::replay {
namespace {

std::vector<std::string> link_names(const Topology& topology, const std::vector<Hop>& hops) {
  std::vector<std::string> names;
  for (const Hop& hop : hops) names.push_back(topology.links()[hop.link].name);
  return names;
}

TEST(Topology, HostToGpuTakesTheGpusPcieLink) {
  const Topology topology = Topology::from_platform(testing::pcie_node(1));
  EXPECT_EQ(link_names(topology, topology.route(topology.host(), topology.gpu_memory(0))),
            std::vector<std::string>{"gpu0.pcie"});
}

TEST(Topology, PageableCopiesPassTheStagingBuffer) {
  const Topology topology = Topology::from_platform(testing::pcie_node(1));
  EXPECT_EQ(link_names(topology, topology.route(topology.host_pageable(), topology.gpu_memory(0))),
            (std::vector<std::string>{"host.staging", "gpu0.pcie"}));
}

TEST(Topology, KernelDramTrafficStaysOnItsGpu) {
  const Topology topology = Topology::from_platform(testing::pcie_node(2));
  EXPECT_EQ(link_names(topology, topology.route(topology.gpu_memory(1), topology.gpu_sm(1))),
            std::vector<std::string>{"gpu1.dram"});
}

TEST(Topology, PeerTrafficPrefersNvlinkOverPcie) {
  platform::Platform node = testing::pcie_node(2);
  testing::add_nvlink(node, 18, 26.562);
  const Topology topology = Topology::from_platform(node);
  EXPECT_EQ(link_names(topology, topology.route(topology.gpu_memory(0), topology.gpu_memory(1))),
            std::vector<std::string>{"nvlink.0-1"});
  // A kernel on GPU 1 reading GPU 0's memory: over NVLink, then into GPU 1's SMs.
  EXPECT_EQ(link_names(topology, topology.route(topology.gpu_memory(0), topology.gpu_sm(1))),
            (std::vector<std::string>{"nvlink.0-1", "gpu1.dram"}));
}

TEST(Topology, PeerCopiesOnTheShipped2xH200NodeTakeItsNV18) {
  const platform::Platform node = platform::load_platform("2xh200-nvlink");
  const Topology topology = Topology::from_platform(node);
  const auto hops = topology.route(topology.gpu_memory(1), topology.gpu_memory(0));
  ASSERT_EQ(link_names(topology, hops), std::vector<std::string>{"nvlink.0-1"});
  EXPECT_NEAR(topology.links()[hops[0].link].bandwidth_gb_per_s, 18 * 26.562, 1e-9);
  EXPECT_FALSE(hops[0].a_to_b);  // GPU 1 to GPU 0: the bundle's other direction
}

TEST(Topology, PeerTrafficWithoutNvlinkCrossesTheSharedSwitch) {
  platform::Platform node = testing::pcie_node(2);
  testing::behind_one_switch(node, 16);
  const Topology topology = Topology::from_platform(node);
  EXPECT_EQ(link_names(topology, topology.route(topology.gpu_memory(0), topology.gpu_memory(1))),
            (std::vector<std::string>{"gpu0.pcie", "gpu1.pcie"}));
  EXPECT_EQ(link_names(topology, topology.route(topology.host(), topology.gpu_memory(1))),
            (std::vector<std::string>{"pcie.sw0.uplink", "gpu1.pcie"}));
}

TEST(Topology, RoutesNeverPassThroughAThirdGpu) {
  // GPU 0 - GPU 1 - GPU 2 by NVLink, and GPU 2 on PCIe: 0 to 2 must go over PCIe, not through GPU 1.
  platform::Platform node = testing::pcie_node(3);
  testing::add_nvlink(node, 18, 25);
  platform::NvlinkConnection& second = *node.node.add_nvlinks();
  second.set_gpu_a(1);
  second.set_gpu_b(2);
  second.set_link_count(18);
  second.set_per_link_bandwidth_gb_per_s(25);
  const Topology topology = Topology::from_platform(node);
  EXPECT_EQ(link_names(topology, topology.route(topology.gpu_memory(0), topology.gpu_memory(2))),
            (std::vector<std::string>{"gpu0.pcie", "gpu2.pcie"}));
}

TEST(Topology, NvswitchJoinsEveryPair) {
  platform::Platform node = testing::pcie_node(4);
  platform::NvSwitch& fabric = *node.node.mutable_nvswitch();
  for (std::uint32_t gpu = 0; gpu < 4; ++gpu) fabric.add_gpus(gpu);
  fabric.set_links_per_gpu(18);
  fabric.set_per_link_bandwidth_gb_per_s(25);
  const Topology topology = Topology::from_platform(node);
  EXPECT_EQ(link_names(topology, topology.route(topology.gpu_memory(3), topology.gpu_memory(1))),
            (std::vector<std::string>{"nvswitch.port3", "nvswitch.port1"}));
}

// The replay's reading thread asks for copies' routes while the SimGrid thread builds the node: both see every route
// as one thread alone would (ThreadSanitizer found the cache shared unguarded).
TEST(Topology, RoutesAskedFromTwoThreadsAreTheRoutesOfOne) {
  const Topology shared = Topology::from_platform(platform::load_platform("8xh200-nvswitch"));
  const Topology alone = Topology::from_platform(platform::load_platform("8xh200-nvswitch"));
  const std::size_t vertices = shared.vertices().size();
  const auto ask_all = [&shared, vertices](bool backwards) {
    for (std::size_t i = 0; i < vertices * vertices; ++i) {
      const std::size_t pair = backwards ? vertices * vertices - 1 - i : i;
      shared.find_route(pair / vertices, pair % vertices);
    }
  };
  std::thread other(ask_all, true);
  ask_all(false);
  other.join();
  for (std::size_t from = 0; from < vertices; ++from) {
    for (std::size_t to = 0; to < vertices; ++to) {
      const auto expected = alone.find_route(from, to);
      const auto got = shared.find_route(from, to);
      ASSERT_EQ(got.has_value(), expected.has_value()) << from << " -> " << to;
      if (expected) {
        ASSERT_EQ(link_names(shared, *got), link_names(alone, *expected)) << from << " -> " << to;
      }
    }
  }
}

}  // namespace
}  // namespace warpsim::replay
