// Traces recorded by the tracer on real GPUs (tests/data/real/, copied from workloads/traces/) read back with what
// the recording machines had: devices, NVLink, peer copies between the two GPUs, kernels with their launch shapes.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "trace_reader.h"

namespace warpsim {
namespace {

std::string real(const std::string& name) { return std::string(WARPSIM_TEST_DATA) + "/real/" + name; }

std::vector<Event> read_events(TraceReader& reader) {
  std::vector<Event> events;
  Event event;
  while (reader.next(event)) events.push_back(event);
  EXPECT_FALSE(reader.truncation().has_value());
  return events;
}

TEST(RealTraces, H100MatmulHasTheDeviceAndSixKernels) {
  TraceReader reader(real("h100-matmul.timeline.wstrace"));
  ASSERT_EQ(reader.header().devices_size(), 1);
  const Device& gpu = reader.header().devices(0);
  EXPECT_EQ(gpu.name(), "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(gpu.sm_count(), 132u);
  EXPECT_EQ(gpu.compute_capability_major(), 9u);
  EXPECT_EQ(gpu.l2_cache_bytes(), 52'428'800u);
  EXPECT_EQ(reader.header().mode(), CAPTURE_MODE_TIMELINE);
  std::multiset<std::string> kernels;
  for (const Event& event : read_events(reader)) {
    if (!event.has_kernel()) continue;
    kernels.insert(event.kernel().name());
    EXPECT_EQ(event.kernel().grid().x(), 128u);  // n = 2048 in 16x16 tiles
    EXPECT_EQ(event.kernel().block().x(), 16u);
    EXPECT_GT(event.kernel().end_ns(), event.kernel().start_ns());
  }
  EXPECT_EQ(kernels.size(), 6u);
  const auto naive = std::count_if(kernels.begin(), kernels.end(),
                                   [](const std::string& name) { return name.find("12matmul_naive") != std::string::npos; });
  EXPECT_EQ(naive, 3);
}

TEST(RealTraces, TwoH200HaveNvlinkAndPeerCopiesBetweenThem) {
  TraceReader reader(real("2xh200-stencil3d-dist-z-r4.timeline.wstrace"));
  ASSERT_EQ(reader.header().devices_size(), 2);
  const Link& nvlink = reader.header().links(0);
  EXPECT_EQ(nvlink.type(), Link::NVLINK);
  EXPECT_EQ(nvlink.link_count(), 18u);
  EXPECT_EQ(reader.header().devices(0).peer_access_device_ids(0), 1u);
  std::set<std::pair<std::uint32_t, std::uint32_t>> directions;
  std::size_t peer_copies = 0;
  for (const Event& event : read_events(reader)) {
    if (!event.has_memcpy() || event.memcpy().kind() != Memcpy::PTOP) continue;
    ++peer_copies;
    directions.emplace(event.memcpy().src_device_id(), event.memcpy().dst_device_id());
  }
  EXPECT_EQ(peer_copies, 40u);
  EXPECT_EQ(directions, (std::set<std::pair<std::uint32_t, std::uint32_t>>{{0, 1}, {1, 0}}));
}

TEST(RealTraces, ALinksRecordingOnOneGpuHasPcieButNoNvlinkCounts) {
  // An H100 with no NVLink peer cannot measure nvlrx/nvltx: the tracer used to store 2^63 for them.
  TraceReader reader(real("h100-launch.links.wstrace"));
  int kernels = 0;
  for (const Event& event : read_events(reader)) {
    if (!event.has_kernel()) continue;
    ++kernels;
    const MemoryTraffic& memory = event.kernel().counters().memory();
    EXPECT_TRUE(memory.has_pcie_read_bytes());
    EXPECT_FALSE(memory.has_nvlink_rx_bytes()) << memory.nvlink_rx_bytes();
    EXPECT_FALSE(memory.has_nvlink_tx_bytes()) << memory.nvlink_tx_bytes();
  }
  EXPECT_GT(kernels, 100);
}

TEST(RealTraces, TheTracerWritesAChecksumWithEveryRecord) {
  TraceReader reader(real("h100-launch.timeline.v2.wstrace"));
  EXPECT_EQ(reader.format_version(), 2u);
  EXPECT_TRUE(reader.has_checksums());
  EXPECT_EQ(read_events(reader).size(), 1099u);  // read_events: the trailer's count and every checksum match
}

// `warpsim record --all`: five runs (timeline; counters core, links, tensor, cache) merged into one trace.
TEST(RealTraces, RecordAllGivesEveryKernelItsRealTimeAndEveryCountersGroup) {
  TraceReader reader(real("h100-matmul.record-all.wstrace"));
  EXPECT_EQ(reader.header().mode(), CAPTURE_MODE_TIMELINE);
  int kernels = 0;
  for (const Event& event : read_events(reader)) {
    if (!event.has_kernel()) continue;
    ++kernels;
    const KernelLaunch& kernel = event.kernel();
    EXPECT_GT(kernel.end_ns(), kernel.start_ns());
    EXPECT_TRUE(kernel.counters().warp_instructions().has_total());  // core
    EXPECT_TRUE(kernel.counters().memory().has_pcie_read_bytes());   // links
    EXPECT_TRUE(kernel.counters().has_tensor_ops());                 // tensor
    EXPECT_TRUE(kernel.counters().memory().has_dram_read_bytes());   // cache (and core)
  }
  EXPECT_EQ(kernels, 6);
}

}  // namespace
}  // namespace warpsim
