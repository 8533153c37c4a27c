#include "mwp/mwp_params.h"

#include <gtest/gtest.h>

#include "kernel_work.h"  // kSectorsPerCoalescedRequest
#include "mwp_kernel.h"
#include "test_gpu.h"

namespace warpsim::models::mwp {
namespace {

// The test GPU: 3352 GB/s over 132 SMs at 1980 MHz is 12.825 bytes per SM per clock.
constexpr double kShare = 3352e9 / (132 * 1980e6);

MwpInputs inputs(const KernelLaunch& k) {
  const uint64_t warps = uint64_t{k.grid().x()} * ((k.block().x() + 31) / 32);
  return mwp_inputs(k.counters(), warps, testing::h100());
}

// 10 blocks of 2 warps; each warp: 10 loads of 4 sectors, 50 FMAs. Issue 60 / 4 schedulers = 15 cycles beats the
// FMA pipe (50 / 4 per clock = 12.5) and the LSU (10 at 1 per clock): M11 as published, #Issue_cycles (1/4) x
// #Total_insts (60).
TEST(MwpParams, PerWarpCountsAreKernelTotalsOverWarps) {
  const MwpInputs in = inputs(testing::mwp_kernel(10, 64, 10, 50, 4));
  EXPECT_DOUBLE_EQ(in.total_insts, 60);
  EXPECT_DOUBLE_EQ(in.coal_mem_insts, 10);
  EXPECT_DOUBLE_EQ(in.uncoal_mem_insts, 0);
  EXPECT_DOUBLE_EQ(in.mem_insts(), 10);
  EXPECT_DOUBLE_EQ(in.comp_cycles, 15);
  EXPECT_EQ(in.comp_resource, "issue");
  EXPECT_DOUBLE_EQ(in.synch_insts, 0);
}

TEST(MwpParams, MachineComesFromTheSpec) {
  const MwpInputs in = inputs(testing::mwp_kernel(10, 64, 10, 50, 4));
  EXPECT_DOUBLE_EQ(in.mem_ld, 479);
  EXPECT_DOUBLE_EQ(in.freq, 1980e6);
  EXPECT_DOUBLE_EQ(in.mem_bandwidth, 3352e9 * 0.92);
  EXPECT_DOUBLE_EQ(in.load_bytes_per_warp, 128);
  EXPECT_DOUBLE_EQ(in.departure_del_coal, 128 / kShare);  // 9.98 cycles
  EXPECT_DOUBLE_EQ(in.departure_del_uncoal, 32 / kShare);
}

// Four sectors per request is a coalesced warp access; 32 is one sector per thread: uncoalesced, 32 transactions.
TEST(MwpParams, SectorsPerRequestSplitCoalescedFromUncoalesced) {
  const MwpInputs in = inputs(testing::mwp_kernel(10, 64, 10, 50, 32));
  EXPECT_DOUBLE_EQ(in.coal_mem_insts, 0);
  EXPECT_DOUBLE_EQ(in.uncoal_mem_insts, 10);
  EXPECT_DOUBLE_EQ(in.uncoal_per_mw, 32);
  EXPECT_DOUBLE_EQ(in.load_bytes_per_warp, 1024);
}

// A broadcast (every thread reads one word) is coalesced and moves one sector.
TEST(MwpParams, FewerSectorsAreCoalescedAndMoveFewerBytes) {
  const MwpInputs in = inputs(testing::mwp_kernel(10, 64, 10, 50, 1));
  EXPECT_DOUBLE_EQ(in.coal_mem_insts, 10);
  EXPECT_DOUBLE_EQ(in.load_bytes_per_warp, 32);
  EXPECT_DOUBLE_EQ(in.departure_del_coal, 32 / kShare);
}

TEST(MwpParams, RequestsCounterWinsOverInstructions) {
  KernelCounters c = testing::mwp_kernel(1, 32, 10, 0, 4).counters();  // 40 sectors, 10 instructions
  EXPECT_DOUBLE_EQ(sectors_per_request(c), 4);
  c.mutable_memory()->set_l1_requests(5);
  EXPECT_DOUBLE_EQ(sectors_per_request(c), 8);
  c.mutable_memory()->clear_l1_sectors();
  EXPECT_DOUBLE_EQ(sectors_per_request(c), kSectorsPerCoalescedRequest);  // unknown: coalesced
}

TEST(MwpParams, MemoryInstructionsAreGlobalLocalAndAsyncCopiesOnly) {
  WarpInstructions w;
  w.set_global_ld(1);
  w.set_global_st(2);
  w.set_global_atom(4);
  w.set_global_red(8);
  w.set_local_ld(16);
  w.set_local_st(32);
  w.set_ldgsts(64);
  w.set_shared_ld(1000);  // shared memory is computation to the model
  w.set_tma(2000);        // bulk copies are not warp accesses
  EXPECT_DOUBLE_EQ(memory_instructions(w), 127);
}

}  // namespace
}  // namespace warpsim::models::mwp
