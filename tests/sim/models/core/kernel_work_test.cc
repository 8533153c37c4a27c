#include "kernel_work.h"

#include <gtest/gtest.h>

namespace warpsim::models {
namespace {

TEST(KernelWork, PipeCountersWinOverFallbacks) {
  KernelCounters c;
  c.mutable_pipes()->set_fma(100);
  c.mutable_thread_instructions()->set_fp32(32 * 999);
  EXPECT_DOUBLE_EQ(kernel_work(c).pipes.fma, 100);
}

TEST(KernelWork, ThreadAndWarpCountersStandInForMissingPipes) {
  KernelCounters c;
  c.mutable_thread_instructions()->set_fp32(3200);
  c.mutable_thread_instructions()->set_fp64(64);
  c.mutable_warp_instructions()->set_global_ld(5);
  c.mutable_warp_instructions()->set_shared_st(7);
  c.mutable_pipes()->set_tensor_hmma(3);
  const KernelWork w = kernel_work(c);
  EXPECT_DOUBLE_EQ(w.pipes.fma, 100);
  EXPECT_DOUBLE_EQ(w.pipes.fp64, 2);
  EXPECT_DOUBLE_EQ(w.pipes.lsu, 12);
  EXPECT_DOUBLE_EQ(w.pipes.tensor, 3);
  EXPECT_DOUBLE_EQ(w.issue_slots, 117);  // no smsp__inst_executed: the pipes' sum
  EXPECT_TRUE(w.reads_global);
}

TEST(KernelWork, BytesPerLevel) {
  KernelCounters c;
  MemoryTraffic& m = *c.mutable_memory();
  m.set_dram_read_bytes(1000);
  m.set_dram_write_bytes(24);
  m.set_l2_bytes(4096);
  m.set_l2_peer_sectors(10);
  m.set_nvlink_rx_bytes(999);
  m.set_l2_sysmem_sectors(3);
  c.mutable_warp_instructions()->set_global_ld(1);
  const KernelWork w = kernel_work(c);
  EXPECT_EQ(w.dram_bytes, 1024u);
  EXPECT_EQ(w.l2_bytes, 4096u);
  EXPECT_EQ(w.peer_bytes, 999u);  // the larger of the aperture's 320 and NVLink's 999
  EXPECT_EQ(w.sysmem_bytes, 0u);
  m.set_nvlink_rx_bytes(100);
  EXPECT_EQ(kernel_work(c).peer_bytes, 320u);
  m.clear_l2_peer_sectors();
  EXPECT_EQ(kernel_work(c).peer_bytes, 100u);  // NVLink receive bytes when the aperture counter is absent
}

// H200, a kernel reading all its input from the peer GPU: the local L2's peer aperture saw nothing, NVLink 302 MB.
TEST(KernelWork, PeerReadsThatBypassTheLocalL2CountFromNvlink) {
  KernelCounters c;
  c.mutable_memory()->set_l2_peer_sectors(0);
  c.mutable_memory()->set_nvlink_rx_bytes(302'500'000);
  EXPECT_EQ(kernel_work(c).peer_bytes, 302'500'000u);
}

TEST(KernelWork, SysmemApertureSectorsAreTheProfilersNotTheKernels) {
  KernelCounters c;
  c.mutable_memory()->set_l2_sysmem_sectors(21605);  // what every kernel shows under the range profiler on H100
  c.mutable_warp_instructions()->set_global_st(1);
  EXPECT_EQ(kernel_work(c).sysmem_bytes, 0u);
}

TEST(KernelWork, NoLoadsMeansNoGlobalRead) {
  KernelCounters c;
  c.mutable_warp_instructions()->set_global_st(4);
  EXPECT_FALSE(kernel_work(c).reads_global);
}

TEST(KernelWork, GlobalDataWavefrontsOnlyWhereRecorded) {
  KernelCounters c;
  EXPECT_FALSE(kernel_work(c).lg_data_wavefronts.has_value());  // a trace from before the counter
  c.mutable_memory()->set_l1_lgds_data_wavefronts(69206016);
  EXPECT_DOUBLE_EQ(kernel_work(c).lg_data_wavefronts.value_or(0), 69206016);
}

// atomic_one_address on H100: all 4194304 adds in one slice, of 6.3 million atomic sectors over all slices (the rest
// presumably counted again where requests cross between the L2's two halves); the busiest slices of ATOM and RED add.
TEST(KernelWork, BusiestSliceAtomicSectorsAddAtomAndRed) {
  KernelCounters c;
  c.mutable_memory()->set_l2_red_sectors(6276608);
  c.mutable_memory()->set_l2_red_sectors_busiest_slice(4194304);
  EXPECT_DOUBLE_EQ(kernel_work(c).l2_slice_atomic_sectors, 4194304);
  c.mutable_memory()->set_l2_atom_sectors_busiest_slice(100);
  EXPECT_DOUBLE_EQ(kernel_work(c).l2_slice_atomic_sectors, 4194404);
  EXPECT_DOUBLE_EQ(kernel_work(KernelCounters{}).l2_slice_atomic_sectors, 0);  // recorded before the field
}

}  // namespace
}  // namespace warpsim::models
