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

// smsp__inst_executed_pipe_fma counts IMAD with FFMA: what the FP32 and FP16 thread instructions (whole warps) leave
// are integer multiply-adds, IMAD.WIDE at the SASS main loop's share (else the code's).
TEST(KernelWork, FmaPipeIntegerWorkIsWhatFloatingPointLeaves) {
  KernelCounters c;
  c.mutable_pipes()->set_fma(100);
  EXPECT_DOUBLE_EQ(kernel_work(c).pipes.fma_integer, 0) << "no thread instructions: unknown, none";
  c.mutable_thread_instructions()->set_fp32(32 * 50);
  c.mutable_thread_instructions()->set_fp16(32 * 10);
  EXPECT_DOUBLE_EQ(kernel_work(c).pipes.fma_integer, 40);
  EXPECT_DOUBLE_EQ(kernel_work(c).pipes.fma_wide_integer, 0) << "no SASS summary: no wide share";
  SassSummary sass;
  sass.set_integer_multiplies(10);
  sass.set_wide_integer_multiplies(5);
  EXPECT_DOUBLE_EQ(kernel_work(c, &sass).pipes.fma_wide_integer, 20);
  sass.set_main_loop_integer_multiplies(8);
  sass.set_main_loop_wide_integer_multiplies(8);
  EXPECT_DOUBLE_EQ(kernel_work(c, &sass).pipes.fma_wide_integer, 40) << "the main loop's share wins";
  c.mutable_thread_instructions()->set_fp32(32 * 200);
  EXPECT_DOUBLE_EQ(kernel_work(c).pipes.fma_integer, 0) << "divergence can make the threads' share the larger";
}

// HFMA2 on the FMA pipe: the hfma thread instructions / 32, at most what the pipe's count leaves beside the integer
// multiply-adds (hfma also counts HFMA2.MMA, which the tensor pipe runs).
TEST(KernelWork, Fp16FmasAreTheHfmaThreadInstructionsOnTheFmaPipe) {
  KernelCounters c;
  c.mutable_pipes()->set_fma(100);
  c.mutable_thread_instructions()->set_fp32(32 * 50);
  EXPECT_DOUBLE_EQ(kernel_work(c).pipes.fma_fp16, 0) << "no hfma counter: none";
  c.mutable_thread_instructions()->set_fp16(32 * 30);
  c.mutable_thread_instructions()->set_hfma(32 * 30);
  EXPECT_DOUBLE_EQ(kernel_work(c).pipes.fma_fp16, 30);
  EXPECT_DOUBLE_EQ(kernel_work(c).pipes.fma_integer, 20);
  c.mutable_thread_instructions()->set_hfma(32 * 90);
  EXPECT_DOUBLE_EQ(kernel_work(c).pipes.fma_fp16, 100 - 20);
  // The tensor pipe's HFMA2.MMA are not the FMA pipe's: all of the HMMA sub-pipe without a SASS summary, its FP16 FMA
  // share with one (matmul_tiled's hfma count is its register moves alone).
  c.mutable_thread_instructions()->set_hfma(32 * 40);
  c.mutable_pipes()->set_tensor_hmma(25);
  EXPECT_DOUBLE_EQ(kernel_work(c).pipes.fma_fp16, 15);
  SassSummary sass;
  sass.set_matrix_instructions(3);
  sass.set_mma_pipe_fp16_fmas(1);
  EXPECT_DOUBLE_EQ(kernel_work(c, &sass).pipes.fma_fp16, 40 - 25.0 / 4);
  c.mutable_pipes()->set_tensor_hmma(100);
  EXPECT_DOUBLE_EQ(kernel_work(c).pipes.fma_fp16, 0);
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

// What the loads read, without the link's protocol: NVLink's bytes over the measured 1.128 received per byte read.
TEST(KernelWork, PeerReadBytesLeaveTheLinksProtocolOut) {
  KernelCounters c;
  c.mutable_memory()->set_nvlink_rx_bytes(1'128'000);
  EXPECT_DOUBLE_EQ(kernel_work(c).peer_read_bytes, 1'000'000);
  c.mutable_memory()->set_l2_peer_sectors(100'000);  // the aperture's 3.2 MB, where it saw more
  EXPECT_DOUBLE_EQ(kernel_work(c).peer_read_bytes, 3'200'000);
}

// A GPU without NVLink: CUPTI's links metrics give 2^63, which is no count.
TEST(KernelWork, NvlinkBytesOfAGpuWithoutNvlinkAreNone) {
  KernelCounters c;
  c.mutable_memory()->set_nvlink_rx_bytes(uint64_t{1} << 63);
  EXPECT_EQ(kernel_work(c).peer_bytes, 0u);
  EXPECT_DOUBLE_EQ(kernel_work(c).peer_read_bytes, 0);
}

TEST(KernelWork, SysmemApertureSectorsAreTheProfilersNotTheKernels) {
  KernelCounters c;
  c.mutable_memory()->set_l2_sysmem_sectors(21605);  // what every kernel shows under the range profiler on H100
  c.mutable_warp_instructions()->set_global_st(1);
  EXPECT_EQ(kernel_work(c).sysmem_bytes, 0u);
}

// remote_access --remote host --direction write, every block writing host memory (H200): 268 MB stored, 302 MB sent
// over PCIe; the reads' direction sees only the profiler's few KB.
TEST(KernelWork, HostWritesAreThePcieBytesSent) {
  KernelCounters c;
  c.mutable_memory()->set_pcie_write_bytes(301'991'936);
  c.mutable_memory()->set_pcie_read_bytes(6'144);
  const KernelWork w = kernel_work(c);
  EXPECT_EQ(w.sysmem_write_bytes, 301'991'936u);
  EXPECT_EQ(w.sysmem_bytes, 6'144u);
}

TEST(KernelWork, HostReadsAreThePcieBytesReceived) {
  // remote_access --remote host, every block reading host memory (H100): 268 MB read, 293 MB over PCIe, and 404 MB
  // in the L2's sysmem aperture.
  KernelCounters c;
  c.mutable_memory()->set_l2_sysmem_sectors(12'625'000);
  c.mutable_memory()->set_pcie_read_bytes(293'000'000);
  EXPECT_EQ(kernel_work(c).sysmem_bytes, 293'000'000u);       // what the replay moves over PCIe
  EXPECT_NEAR(kernel_work(c).host_read_bytes, 268e6, 0.2e6);  // what the loads read: the link's protocol out
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

// scatter_random on H100 (workloads/microbench_dram_pattern): the L2 read 12.6 M sectors (the coalesced input), DRAM
// 72.3 M: 59.7 M fills that no read asked for, each read and later written back.
TEST(KernelWork, DramReadsBeyondTheL2sReadsArePartialWriteFills) {
  KernelCounters c;
  c.mutable_memory()->set_l2_read_sectors(12600000);
  c.mutable_memory()->set_dram_read_bytes(uint64_t{72300000} * 32);
  c.mutable_memory()->set_dram_write_bytes(uint64_t{66500000} * 32);
  EXPECT_EQ(kernel_work(c).dram_partial_write_bytes, uint64_t{2} * 59700000 * 32);
}

// Random gathers: the L2 fetches more than a sector per miss, but its read count (with GH100's far-partition
// accesses counted twice) still covers DRAM's reads (gather_sector: 125.7 M DRAM sectors, 132.1 M L2 read sectors).
TEST(KernelWork, ReadMissesAreNotPartialWrites) {
  KernelCounters c;
  c.mutable_memory()->set_l2_read_sectors(132100000);
  c.mutable_memory()->set_dram_read_bytes(uint64_t{125700000} * 32);
  EXPECT_EQ(kernel_work(c).dram_partial_write_bytes, 0);
  KernelCounters no_l2_reads;  // recorded without lts__t_sectors_op_read: nothing to compare with
  no_l2_reads.mutable_memory()->set_dram_read_bytes(1 << 20);
  EXPECT_EQ(kernel_work(no_l2_reads).dram_partial_write_bytes, 0);
}

// The fills and write-backs never exceed what DRAM moved (a trace whose write counter is short, or missing).
TEST(KernelWork, PartialWriteBytesAreAtMostTheDramBytes) {
  KernelCounters c;
  c.mutable_memory()->set_l2_read_sectors(0);
  c.mutable_memory()->set_dram_read_bytes(3200);
  EXPECT_EQ(kernel_work(c).dram_partial_write_bytes, 3200);
}

KernelCounters tex_reads(uint64_t requests, uint64_t sectors) {
  KernelCounters c;
  c.mutable_memory()->set_l2_tex_read_requests(requests);
  c.mutable_memory()->set_l2_tex_read_sectors(sectors);
  return c;
}

TEST(KernelWork, SingleSectorL2ReadsFromRequestsAndSectors) {
  // microbench_l2_scatter's scattered kernel: one sector per request, every byte in single-sector requests.
  EXPECT_DOUBLE_EQ(*kernel_work(tex_reads(1000, 1000)).l2_single_sector_read_bytes, 1000.0 * 32);
  // Whole lines: none.
  EXPECT_DOUBLE_EQ(*kernel_work(tex_reads(1000, 4000)).l2_single_sector_read_bytes, 0);
  // Half the requests one sector, half four: 500 of 2500 sectors.
  EXPECT_DOUBLE_EQ(*kernel_work(tex_reads(1000, 2500)).l2_single_sector_read_bytes, 500.0 * 32);
  // Two-sector requests: R requests of 2 sectors count (4R - 2R) / 3 single-sector sectors, the rest as whole lines
  // (a time linear in requests and sectors gives the same).
  EXPECT_DOUBLE_EQ(*kernel_work(tex_reads(300, 600)).l2_single_sector_read_bytes, 200.0 * 32);
}

TEST(KernelWork, SingleSectorL2ReadsStayWithinTheSectors) {
  // More than four sectors per request (wide loads) is no single-sector traffic; never more than every sector.
  EXPECT_DOUBLE_EQ(*kernel_work(tex_reads(100, 800)).l2_single_sector_read_bytes, 0);
  EXPECT_DOUBLE_EQ(*kernel_work(tex_reads(100, 50)).l2_single_sector_read_bytes, 50.0 * 32);
}

KernelCounters tex_writes(uint64_t requests, uint64_t sectors, uint64_t l2_write_sectors) {
  KernelCounters c;
  c.mutable_memory()->set_l2_tex_write_requests(requests);
  c.mutable_memory()->set_l2_tex_write_sectors(sectors);
  c.mutable_memory()->set_l2_write_sectors(l2_write_sectors);
  c.mutable_memory()->set_l2_bytes(l2_write_sectors * 32);
  return c;
}

TEST(KernelWork, SingleSectorL2WritesAreTheirShareOfTheWrittenSectors) {
  // microbench_l2_scatter's store_scattered (H100): 138.4 M one-sector requests, 207.6 M L2 write sectors: all of them.
  EXPECT_DOUBLE_EQ(*kernel_work(tex_writes(1384, 1384, 2076)).l2_single_sector_write_bytes, 2076.0 * 32);
  // store_coalesced: 4.3 M requests of 4 sectors: none.
  EXPECT_DOUBLE_EQ(*kernel_work(tex_writes(433, 1732, 2598)).l2_single_sector_write_bytes, 0);
  // local_spill's local_array_shuffle (H100): 48.4 M requests for 81.7 M sectors, 37.3 M of them single: that share of
  // its 141.0 M write sectors.
  const KernelWork spill = kernel_work(tex_writes(48365154, 81741262, 140987372));
  EXPECT_NEAR(*spill.l2_single_sector_write_bytes / 32, 140987372.0 * (4 * 48365154.0 - 81741262) / 3 / 81741262, 1);
  // No stores from the L1: none; no write requests recorded: unknown.
  EXPECT_DOUBLE_EQ(*kernel_work(tex_writes(0, 0, 100)).l2_single_sector_write_bytes, 0);
  EXPECT_FALSE(kernel_work(tex_reads(10, 10)).l2_single_sector_write_bytes.has_value());
}

TEST(KernelWork, SingleSectorL2ReadsOnlyWhereRecorded) {
  KernelCounters c;
  c.mutable_memory()->set_l2_bytes(4096);
  EXPECT_FALSE(kernel_work(c).l2_single_sector_read_bytes.has_value());
}

TEST(KernelWork, AduInstructionsComeFromTheirPipeCounterAndAreZeroWithoutIt) {
  KernelCounters c;
  EXPECT_EQ(kernel_work(c).pipes.adu, 0);
  c.mutable_pipes()->set_adu(11);
  EXPECT_DOUBLE_EQ(kernel_work(c).pipes.adu, 11);
}

}  // namespace
}  // namespace warpsim::models
