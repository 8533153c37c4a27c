#include <gtest/gtest.h>

#include "sink/topology.h"

namespace warpsim::tracer {
namespace {

Uuid uuid(std::uint8_t last) {
  Uuid u{};
  u[0] = 0xab;
  u[15] = last;
  return u;
}

DeviceActivity h200(std::uint32_t id) {
  DeviceActivity d;
  d.id = id;
  d.name = "NVIDIA H200";
  d.uuid = uuid(static_cast<std::uint8_t>(id));
  d.multiprocessors = 132;
  d.core_clock_khz = 1'980'000;
  d.global_memory_bandwidth_kbps = 4'814'000'000;
  d.l2_cache_size = 62'914'560;
  d.cc_major = 9;
  d.max_warps_per_sm = 64;
  return d;
}

DriverDeviceInfo driver(std::uint32_t ordinal, std::vector<bool> peers) {
  DriverDeviceInfo info;
  info.ordinal = ordinal;
  info.name = "NVIDIA H200";
  info.uuid = uuid(static_cast<std::uint8_t>(ordinal));
  info.pci_bus_id = "0000:1" + std::to_string(ordinal) + ":00.0";
  info.memory_clock_khz = 3'201'000;
  info.memory_bus_width_bits = 6016;
  info.max_shared_memory_per_block_optin = 232'448;
  info.sm_count = 999;  // the DEVICE record's value wins
  info.peer_access = std::move(peers);
  return info;
}

NvLinkActivity nvlink(std::uint8_t a, std::uint8_t b) {
  NvLinkActivity link;
  link.dev0_is_gpu = link.dev1_is_gpu = true;
  link.uuid0 = uuid(a);
  link.uuid1 = uuid(b);
  link.physical_link_count = 18;
  link.bandwidth_kbps = 849'960'000;
  link.nvlink_version = 4;
  return link;
}

TEST(Topology, DeviceRecordAndDriverInformationMerge) {
  Topology t;
  t.add(h200(0));
  t.add(driver(0, {false, true}));
  const auto devices = t.devices();
  ASSERT_EQ(devices.size(), 1u);
  const Device& d = devices[0];
  EXPECT_EQ(d.name(), "NVIDIA H200");
  EXPECT_EQ(d.sm_count(), 132u);
  EXPECT_EQ(d.dram_bandwidth_bytes_per_s(), 4'814'000'000'000u);
  EXPECT_EQ(d.memory_bus_width_bits(), 6016u);
  EXPECT_EQ(d.max_shared_memory_per_block_optin_bytes(), 232'448u);
  EXPECT_EQ(d.pci_bus_id(), "0000:10:00.0");
  ASSERT_EQ(d.peer_access_device_ids_size(), 1);
  EXPECT_EQ(d.peer_access_device_ids(0), 1u);
  EXPECT_EQ(d.uuid(), "GPU-ab000000-0000-0000-0000-000000000000");
}

TEST(Topology, DriverAloneDescribesADevice) {
  Topology t;
  t.add(driver(3, {}));
  const auto devices = t.devices();
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_EQ(devices[0].id(), 3u);
  EXPECT_EQ(devices[0].sm_count(), 999u);
  EXPECT_FALSE(devices[0].has_dram_bandwidth_bytes_per_s()) << "unknown stays absent";
}

TEST(Topology, NvLinkBundleReportedFromBothSidesIsOneLink) {
  Topology t;
  t.add(h200(0));
  t.add(h200(1));
  t.add(nvlink(0, 1));
  t.add(nvlink(1, 0));
  PcieActivity pcie;
  pcie.device_id = 1;
  pcie.generation = 5;
  pcie.link_width = 16;
  t.add(pcie);
  const auto links = t.links();
  ASSERT_EQ(links.size(), 2u);
  EXPECT_EQ(links[0].type(), Link::NVLINK);
  EXPECT_EQ(links[0].a().device_id(), 0u);
  EXPECT_EQ(links[0].b().device_id(), 1u);
  EXPECT_EQ(links[0].link_count(), 18u);
  EXPECT_EQ(links[0].bandwidth_bytes_per_s(), 849'960'000'000u);
  EXPECT_EQ(links[1].type(), Link::PCIE);
  EXPECT_EQ(links[1].b().kind(), Endpoint::HOST);
  EXPECT_EQ(links[1].pcie_generation(), 5u);
  EXPECT_EQ(links[1].pcie_lanes(), 16u);
}

TEST(Topology, LinksToInvisibleGpusAreLeftOutAndSwitchesKept) {
  Topology t;
  t.add(h200(0));
  t.add(nvlink(0, 9));  // GPU 9 is hidden by CUDA_VISIBLE_DEVICES
  NvLinkActivity to_switch = nvlink(0, 0);
  to_switch.dev1_is_gpu = false;
  to_switch.npu_index1 = 2;
  t.add(to_switch);
  const auto links = t.links();
  ASSERT_EQ(links.size(), 1u);
  EXPECT_EQ(links[0].b().kind(), Endpoint::NVSWITCH);
  EXPECT_EQ(links[0].b().index(), 2u);
}

}  // namespace
}  // namespace warpsim::tracer
