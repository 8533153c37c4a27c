// m_kernel from counters: per-warp instruction mix, traffic, hit fractions, uncoalesced share.
#include "wave/kernel_tuple.h"

#include <gtest/gtest.h>

#include <cmath>

#include "test_launch.h"

namespace warpsim::models::wave {
namespace {

// 10 blocks of 64 threads: 20 warps.
KernelLaunch twenty_warps() {
  KernelLaunch k = testing::launch(10, 64);
  KernelCounters& c = *k.mutable_counters();
  PipeInstructions& p = *c.mutable_pipes();
  p.set_fma(2000);
  p.set_alu(400);
  p.set_lsu(300);
  WarpInstructions& w = *c.mutable_warp_instructions();
  w.set_total(3000);  // 300 neither fma, alu nor lsu
  w.set_global_ld(100);
  w.set_global_st(40);
  w.set_shared_ld(60);
  MemoryTraffic& m = *c.mutable_memory();
  m.set_l1_bytes(20000);
  m.set_l2_bytes(10000);
  m.set_dram_read_bytes(2000);
  m.set_dram_write_bytes(400);
  m.set_shared_wavefronts(60);
  return k;
}

TEST(WaveKernelTuple, CountsAreKernelTotalsOverWarps) {
  const KernelTuple k = kernel_tuple(twenty_warps(), 32, platform::Lanes{});
  EXPECT_EQ(k.warps_per_block, 2u);
  EXPECT_DOUBLE_EQ(k.mix.issued[index(InstClass::kFp32)], 100);
  EXPECT_DOUBLE_EQ(k.mix.issued[index(InstClass::kInt)], 20);
  EXPECT_DOUBLE_EQ(k.mix.issued[index(InstClass::kLsu)], 15);
  EXPECT_DOUBLE_EQ(k.mix.issued[index(InstClass::kOther)], 15);  // (3000 - 2700) / 20
  EXPECT_DOUBLE_EQ(k.mix.global_loads, 5);
  EXPECT_DOUBLE_EQ(k.mix.stores, 2);
  EXPECT_DOUBLE_EQ(k.mix.shared_loads, 3);
  EXPECT_DOUBLE_EQ(k.mix.other_lsu, 5);  // (300 - 200) / 20
  EXPECT_DOUBLE_EQ(k.syncs, 0);          // no counter counts barriers, and there is no SASS summary
}

// LDGSTS and TMA copies are global loads (they use the memory levels) and, of them, the asynchronous copies.
TEST(WaveKernelTuple, AsyncCopiesAreGlobalLoadsNotWaitedOnOneByOne) {
  KernelLaunch launch = twenty_warps();
  WarpInstructions& w = *launch.mutable_counters()->mutable_warp_instructions();
  w.set_ldgsts(60);
  w.set_tma(20);
  const KernelTuple k = kernel_tuple(launch, 32, platform::Lanes{});
  EXPECT_DOUBLE_EQ(k.mix.global_loads, 9);  // (100 + 60 + 20) / 20
  EXPECT_DOUBLE_EQ(k.mix.async_copies, 4);
  EXPECT_DOUBLE_EQ(waited_global_loads(k.mix), 5);
}

// 150 issued instructions per warp, 2 barriers in 60 instructions of code: 5 barriers per warp.
TEST(WaveKernelTuple, BarriersAreTheirShareOfTheCodeOfEachWarpsInstructions) {
  KernelLaunch launch = twenty_warps();
  SassSummary& sass = *launch.mutable_sass();
  sass.set_instructions(60);
  sass.set_stall_cycles(60);
  sass.set_barriers(2);
  EXPECT_DOUBLE_EQ(kernel_tuple(launch, 32, platform::Lanes{}).syncs, 5);
  sass.clear_barriers();  // a summary recorded before the count existed
  EXPECT_DOUBLE_EQ(kernel_tuple(launch, 32, platform::Lanes{}).syncs, 0);
}

TEST(WaveKernelTuple, TrafficIsPerWarp) {
  const KernelTuple k = kernel_tuple(twenty_warps(), 32, platform::Lanes{});
  EXPECT_DOUBLE_EQ(k.traffic.l1_bytes, 1000);
  EXPECT_DOUBLE_EQ(k.traffic.l2_bytes, 500);
  EXPECT_DOUBLE_EQ(k.traffic.dram_bytes, 120);
  EXPECT_DOUBLE_EQ(k.traffic.shared_wavefronts, 3);
  EXPECT_DOUBLE_EQ(k.traffic.uncoal_bytes, 0);
}

TEST(WaveKernelTuple, HitFractionsSplitRequestsOverLevels) {
  KernelCounters c;
  c.mutable_memory()->set_l1_hit_rate_pct(50);
  c.mutable_memory()->set_l2_hit_rate_pct(80);
  const HitFractions h = hit_fractions(c);
  EXPECT_DOUBLE_EQ(h.l1, 0.5);
  EXPECT_DOUBLE_EQ(h.l2, 0.4);
  EXPECT_DOUBLE_EQ(h.dram, 0.1);
}

// A quarter of the L1 misses' bytes come from the peer GPU (NVLink, protocol taken out), the rest from the local L2.
TEST(WaveKernelTuple, PeerReadsTakeTheirShareOfTheL1Misses) {
  KernelCounters c;
  c.mutable_memory()->set_l1_hit_rate_pct(50);
  c.mutable_memory()->set_l2_hit_rate_pct(80);
  c.mutable_memory()->set_l2_read_sectors(3000);    // 96,000 bytes
  c.mutable_memory()->set_nvlink_rx_bytes(36'096);  // 32,000 bytes read
  const HitFractions h = hit_fractions(c);
  EXPECT_DOUBLE_EQ(h.l1, 0.5);
  EXPECT_DOUBLE_EQ(h.peer, 0.5 * 0.25);
  EXPECT_DOUBLE_EQ(h.l2, 0.5 * 0.75 * 0.8);
  EXPECT_NEAR(h.dram, 0.5 * 0.75 * 0.2, 1e-15);
}

// A fifth of the loads read host memory (zero-copy): PCIe received 1.094 bytes for each (kPcieReceivedPerByteRead),
// against the L1's read requests to the L2. The L2's device-side misses leave them out, so the loads' L2 hit
// fraction (here 0.25) counted them as hits: they come out of the hits, the rest keep the L2's and DRAM's shares.
TEST(WaveKernelTuple, HostReadsComeOutOfTheL2sHits) {
  KernelCounters c;
  MemoryTraffic& m = *c.mutable_memory();
  m.set_l2_tex_read_sectors(10'000);  // 320,000 bytes
  m.set_l2_read_sectors(10'000);
  m.set_l2_device_read_miss_sectors(7'500);
  m.set_pcie_read_bytes(static_cast<uint64_t>(64'000 * 1.094));
  const HitFractions h = hit_fractions(c);
  EXPECT_NEAR(h.host, 0.2, 1e-6);
  EXPECT_NEAR(h.l2, 0.05, 1e-6);
  EXPECT_NEAR(h.dram, 0.75, 1e-6);
  m.set_l2_device_read_miss_sectors(10'000);  // a hit fraction that did not count them: out of DRAM's share
  const HitFractions d = hit_fractions(c);
  EXPECT_NEAR(d.host, 0.2, 1e-6);
  EXPECT_EQ(d.l2, 0);
  EXPECT_NEAR(d.dram, 0.8, 1e-6);
}

TEST(WaveKernelTuple, MissingHitRatesSendEveryRequestToDram) {
  const HitFractions h = hit_fractions(KernelCounters{});
  EXPECT_DOUBLE_EQ(h.l1, 0);
  EXPECT_DOUBLE_EQ(h.l2, 0);
  EXPECT_DOUBLE_EQ(h.dram, 1);
  EXPECT_DOUBLE_EQ(h.uncoal, 0);
}

// 16 sectors per request: 12 of them a coalesced request would not need.
TEST(WaveKernelTuple, SectorsBeyondFourPerRequestAreUncoalesced) {
  KernelLaunch k = twenty_warps();
  k.mutable_counters()->mutable_memory()->set_l1_sectors(uint64_t{16} *
                                                         140);  // 140 global requests (100 loads + 40 stores)
  EXPECT_DOUBLE_EQ(hit_fractions(k.counters()).uncoal, 0.75);
  EXPECT_DOUBLE_EQ(kernel_tuple(k, 32, platform::Lanes{}).traffic.uncoal_bytes, 750);
  k.mutable_counters()->mutable_memory()->set_l1_requests(uint64_t{16} * 140 / 4);  // the L1's own request count wins
  EXPECT_DOUBLE_EQ(hit_fractions(k.counters()).uncoal, 0);
  k.mutable_counters()->mutable_memory()->set_l1_requests(uint64_t{16} * 140);  // one sector per request: a broadcast
  EXPECT_DOUBLE_EQ(hit_fractions(k.counters()).uncoal, 0);
}

// Measured data wavefronts win: atax_kernel1's 16.5 per request (half its loads over 32 lines, half one sector) is
// 15.5 passes beyond the first of the 31 a fully scattered request takes, where 1 - 4/16.5 sectors gave 0.76.
TEST(WaveKernelTuple, MeasuredWavefrontsPerRequestGiveTheUncoalescedShare) {
  KernelLaunch k = twenty_warps();
  MemoryTraffic& m = *k.mutable_counters()->mutable_memory();
  m.set_l1_sectors(uint64_t{33} * 140 / 2);
  m.set_l1_lg_requests(140);
  m.set_l1_lgds_data_wavefronts(uint64_t{33} * 140 / 2);
  EXPECT_DOUBLE_EQ(hit_fractions(k.counters()).uncoal, 0.5);
  m.set_l1_lgds_data_wavefronts(140);  // one pass each: coalesced, however many sectors
  EXPECT_DOUBLE_EQ(hit_fractions(k.counters()).uncoal, 0);
}

// The L2's scattered bytes: the uncoalesced share of its bytes, until the trace counts the L2's own read requests; then
// the single-sector requests' bytes (kernel_work.h), per warp (20 warps).
TEST(WaveKernelTuple, L2ScatteredBytesFromTheL2sRequestsWhereRecorded) {
  KernelLaunch k = twenty_warps();
  MemoryTraffic& m = *k.mutable_counters()->mutable_memory();
  m.set_l2_bytes(20000);
  m.set_l1_lg_requests(140);
  m.set_l1_lgds_data_wavefronts(uint64_t{33} * 140 / 2);  // uncoalesced share 0.5
  EXPECT_DOUBLE_EQ(kernel_tuple(k, 32, platform::Lanes{}).traffic.l2_scattered_bytes, 500);
  m.set_l2_tex_read_requests(100);
  m.set_l2_tex_read_sectors(100);  // 100 single sectors: 3200 bytes over 20 warps
  EXPECT_DOUBLE_EQ(kernel_tuple(k, 32, platform::Lanes{}).traffic.l2_scattered_bytes, 160);
}

// The L2's written sectors, per warp (20 warps), never more than all its bytes.
TEST(WaveKernelTuple, L2WriteBytesFromTheWrittenSectors) {
  KernelLaunch k = twenty_warps();
  MemoryTraffic& m = *k.mutable_counters()->mutable_memory();
  m.set_l2_bytes(20000);
  EXPECT_DOUBLE_EQ(kernel_tuple(k, 32, platform::Lanes{}).traffic.l2_write_bytes, 0);  // unrecorded
  // 250 sectors: 8000 bytes.
  m.set_l2_write_sectors(250);
  EXPECT_DOUBLE_EQ(kernel_tuple(k, 32, platform::Lanes{}).traffic.l2_write_bytes, 400);
  m.set_l2_write_sectors(1000);  // more than lts__t_bytes: capped
  EXPECT_DOUBLE_EQ(kernel_tuple(k, 32, platform::Lanes{}).traffic.l2_write_bytes, 1000);
}

// The PTX's load sharing (KernelLaunch.load_sharing) at the model's resident blocks, over the L1 hit fraction: at most
// every hit, the last element beyond the recorded counts, 0 without it or for a value that is no number.
TEST(WaveKernelTuple, InflightHitsAreTheLoadSharingAtTheResidentBlocksOverTheHits) {
  KernelLaunch k = twenty_warps();
  EXPECT_DOUBLE_EQ(inflight_hit_share(k, 1, 0.5), 0);
  LoadSharing& s = *k.mutable_load_sharing();
  s.add_inflight_request_share(0.1);
  s.add_inflight_request_share(0.3);
  EXPECT_DOUBLE_EQ(inflight_hit_share(k, 1, 0.5), 0.2);
  EXPECT_DOUBLE_EQ(inflight_hit_share(k, 2, 0.5), 0.6);
  EXPECT_DOUBLE_EQ(inflight_hit_share(k, 8, 0.5), 0.6) << "beyond the recorded counts: the last";
  EXPECT_DOUBLE_EQ(inflight_hit_share(k, 0, 0.5), 0.2) << "a block that does not fit still runs alone";
  EXPECT_DOUBLE_EQ(inflight_hit_share(k, 2, 0.2), 1) << "never more than every hit";
  EXPECT_DOUBLE_EQ(inflight_hit_share(k, 2, 0), 0);
  s.set_inflight_request_share(0, std::nan(""));
  EXPECT_DOUBLE_EQ(inflight_hit_share(k, 1, 0.5), 0) << "a corrupt share counts as none";
}

}  // namespace
}  // namespace warpsim::models::wave
