#include <gtest/gtest.h>

#include "kernel_model.h"
#include "test_launch.h"

namespace warpsim::models {
namespace {

TEST(KernelView, ClearsTheRecordedTimesAndKeepsTheRest) {
  KernelLaunch k = testing::fma_kernel(10, 64, 3);
  k.set_start_ns(100);
  k.set_end_ns(200);
  const KernelView view = KernelView::of(k);
  EXPECT_EQ(view.launch().start_ns(), 0u);
  EXPECT_EQ(view.launch().end_ns(), 0u);
  EXPECT_EQ(view.launch().grid().x(), 10u);
  EXPECT_TRUE(view.has_counters());
  EXPECT_EQ(view.launch().counters().pipes().fma(), 30u);
}

// Counters without an instruction mix (one group alone: DRAM bytes, links, tensor ops) are not enough for a model.
TEST(KernelView, CountersWithoutAnInstructionMixAreNotTheModelsCounters) {
  KernelLaunch k = testing::fma_kernel(10, 64, 3);
  k.mutable_counters()->clear_pipes();
  k.mutable_counters()->clear_warp_instructions();
  k.mutable_counters()->mutable_memory()->set_dram_read_bytes(4096);
  ASSERT_TRUE(k.has_counters());
  EXPECT_FALSE(KernelView::of(k).has_counters());
  k.mutable_counters()->mutable_warp_instructions()->set_total(30);
  EXPECT_TRUE(KernelView::of(k).has_counters());
}

TEST(KernelView, LaunchesDoingTheSameWorkGiveEqualViews) {
  KernelLaunch a = testing::fma_kernel(10, 64, 3);
  KernelLaunch b = a;
  a.set_device_id(0), a.set_stream_id(7), a.set_correlation_id(41), a.set_context_id(1);
  b.set_device_id(1), b.set_stream_id(13), b.set_correlation_id(99), b.set_graph_id(5), b.set_graph_node_id(2);
  EXPECT_EQ(KernelView::of(a).launch().SerializeAsString(), KernelView::of(b).launch().SerializeAsString());
  b.mutable_grid()->set_x(11);
  EXPECT_NE(KernelView::of(a).launch().SerializeAsString(), KernelView::of(b).launch().SerializeAsString());
}

// The local part of a kernel that also reads a peer GPU's or the host's memory: the same view without its remote
// traffic, its own memory's untouched.
TEST(KernelView, WithoutRemoteTrafficKeepsTheLocalBytes) {
  KernelLaunch k = testing::fma_kernel(10, 64, 3);
  MemoryTraffic& memory = *k.mutable_counters()->mutable_memory();
  memory.set_dram_read_bytes(4096);
  memory.set_l2_peer_sectors(64);
  memory.set_nvlink_rx_bytes(2304);
  memory.set_nvlink_tx_bytes(128);
  memory.set_pcie_read_bytes(1024);
  memory.set_pcie_write_bytes(512);
  const KernelView local = KernelView::of(k).without_remote_traffic();
  const MemoryTraffic& kept = local.launch().counters().memory();
  EXPECT_FALSE(kept.has_l2_peer_sectors());
  EXPECT_FALSE(kept.has_nvlink_rx_bytes());
  EXPECT_FALSE(kept.has_nvlink_tx_bytes());
  EXPECT_FALSE(kept.has_pcie_read_bytes());
  EXPECT_FALSE(kept.has_pcie_write_bytes());
  EXPECT_EQ(kept.dram_read_bytes(), 4096u);
  EXPECT_EQ(local.launch().counters().pipes().fma(), 30u);
}

}  // namespace
}  // namespace warpsim::models
