// The wave model end to end: waves and tail, launch time (fit or overhead, never both), fallback without counters,
// bytes for the replay, determinism and the predictive rule.
#include "wave/wave_model.h"

#include <gtest/gtest.h>

#include "registry.h"
#include "test_gpu.h"
#include "test_launch.h"

namespace warpsim::models {
namespace {

constexpr double kClockHz = 1980e6;
constexpr uint64_t kFmaPerBlock = 8192;  // 8 warps of 1024 FMAs

KernelPrediction predict(const KernelLaunch& k, const platform::GpuSpec& gpu = testing::h100()) {
  return WaveModel().predict(KernelView::of(k), gpu);
}

platform::GpuSpec one_block_per_sm() {
  platform::GpuSpec gpu = testing::h100();
  gpu.mutable_sm()->set_max_blocks(1);
  return gpu;
}

// 8 warps per block, 1024 FMAs per warp; one block per SM: 2 warps per processing block issue 2048 cycles, less
// than one warp's dependent 4096.
TEST(WaveModel, OneWaveOfLatencyBoundBlocks) {
  const KernelPrediction p = predict(testing::fma_kernel(132, 256, kFmaPerBlock), one_block_per_sm());
  EXPECT_DOUBLE_EQ(p.sm_time_s, 4096 / kClockHz);
  EXPECT_EQ(p.limiter, "latency");
  EXPECT_EQ(p.waves, 1u);
  EXPECT_EQ(p.blocks_per_sm, 1u);
  EXPECT_EQ(p.sms_used, 132u);
  EXPECT_FALSE(p.estimated_without_counters);
}

// Three full waves cost three wave times; one block more adds a tail wave of one block (the same per-SM load).
TEST(WaveModel, FullWavesAndTail) {
  const platform::GpuSpec gpu = one_block_per_sm();
  const double one = predict(testing::fma_kernel(132, 256, kFmaPerBlock), gpu).sm_time_s;
  const KernelPrediction three = predict(testing::fma_kernel(3 * 132, 256, kFmaPerBlock), gpu);
  const KernelPrediction tail = predict(testing::fma_kernel(3 * 132 + 1, 256, kFmaPerBlock), gpu);
  EXPECT_DOUBLE_EQ(three.sm_time_s, 3 * one);
  EXPECT_EQ(three.waves, 3u);
  EXPECT_DOUBLE_EQ(tail.sm_time_s, 4 * one);
  EXPECT_EQ(tail.waves, 4u);
}

// A full wave of 8 blocks of 8 warps per SM: 16 warps per processing block, issue-bound at 16 * 1024 cycles.
TEST(WaveModel, ResidentBlocksShareTheProcessingBlocks) {
  const KernelPrediction p = predict(testing::fma_kernel(8 * 132, 256, kFmaPerBlock));
  EXPECT_EQ(p.blocks_per_sm, 8u);
  EXPECT_DOUBLE_EQ(p.sm_time_s, 16 * 1024 / kClockHz);
  EXPECT_EQ(p.limiter, "issue");
}

TEST(WaveModel, LaunchTimeIsTheFitWhenThereIsOneAndTheOverheadOtherwise) {
  const KernelLaunch k = testing::fma_kernel(1000, 256, 8);
  EXPECT_DOUBLE_EQ(predict(k).launch_overhead_s, 2e-6);
  platform::GpuSpec gpu = testing::h100();
  platform::LaunchFit& fit = *gpu.add_launch_fits();
  fit.set_block_warps(8);
  fit.set_x0_ns(700);
  fit.set_x1_ns_per_block(0.5);
  EXPECT_NEAR(predict(k, gpu).launch_overhead_s, 1200e-9, 1e-18);  // not 1.2 us + the 2 us overhead
}

TEST(WaveModel, WithoutCountersOneDramLatencyPerWave) {
  const KernelPrediction p = predict(testing::launch(3 * 132, 1024));  // 2 blocks of 32 warps per SM: 2 waves
  EXPECT_TRUE(p.estimated_without_counters);
  EXPECT_EQ(p.waves, 2u);
  EXPECT_DOUBLE_EQ(p.sm_time_s, 2 * 479 / kClockHz);
  EXPECT_EQ(p.limiter, "latency (no counters)");
  EXPECT_EQ(p.dram_bytes, 0u);
}

// Only the `cache` group measured it: no instruction mix, but its DRAM bytes bound it at the sustained rate.
TEST(WaveModel, WithoutAnInstructionMixTheDramBytesStillBound) {
  KernelLaunch k = testing::launch(3 * 132, 1024);
  MemoryTraffic& memory = *k.mutable_counters()->mutable_memory();
  memory.set_dram_read_bytes(200'000'000);
  memory.set_dram_write_bytes(108'384'000);
  const KernelPrediction p = predict(k);
  EXPECT_TRUE(p.estimated_without_counters);
  EXPECT_EQ(p.limiter, "dram bytes (no counters)");
  EXPECT_NEAR(p.sm_time_s, 308.384e6 / (3352e9 * 0.92), 1e-12);  // 100 us, far above two DRAM latencies
  memory.set_dram_read_bytes(1000);  // a few bytes: the DRAM latency per wave stays the floor
  memory.set_dram_write_bytes(0);
  EXPECT_EQ(predict(k).limiter, "latency (no counters)");
}

TEST(WaveModel, BytesGoToTheReplay) {
  KernelLaunch k = testing::fma_kernel(132, 256, 1024);
  MemoryTraffic& m = *k.mutable_counters()->mutable_memory();
  m.set_dram_read_bytes(1 << 20);
  m.set_dram_write_bytes(1 << 10);
  m.set_l2_bytes(3 << 20);
  m.set_l2_peer_sectors(10);
  const KernelPrediction p = predict(k);
  EXPECT_EQ(p.dram_bytes, (1u << 20) + (1u << 10));
  EXPECT_EQ(p.l2_bytes, 3u << 20);
  EXPECT_EQ(p.peer_bytes, 320u);
}

// DRAM-bound: 1 GB of reads in one wave takes at least 1 GB over the DRAM's streaming bandwidth.
TEST(WaveModel, DramBoundKernelTakesTheDramTime) {
  KernelLaunch k = testing::fma_kernel(132, 256, 1024);
  k.mutable_counters()->mutable_warp_instructions()->set_global_ld(uint64_t{132} * 8);
  k.mutable_counters()->mutable_memory()->set_dram_read_bytes(1ull << 30);
  const KernelPrediction p = predict(k);
  EXPECT_NEAR(p.sm_time_s, (1ull << 30) / (3352e9 * 0.92), 1e-3 * p.sm_time_s);
  EXPECT_EQ(p.limiter, "dram bandwidth");
}

TEST(WaveModel, BlockThatDoesNotFitRunsAloneAndSaysSo) {
  const KernelPrediction p = predict(testing::fma_kernel(132, 256, 8), [] {
    platform::GpuSpec gpu = testing::h100();
    gpu.mutable_sm()->set_max_warps(4);
    return gpu;
  }());
  EXPECT_EQ(p.blocks_per_sm, 1u);
  EXPECT_EQ(p.limiter, "does not fit: warps");
}

// The predictive rule: recorded times are invisible, so changing them changes nothing; and the same input gives the
// same answer.
TEST(WaveModel, DeterministicAndBlindToRecordedTimes) {
  KernelLaunch k = testing::fma_kernel(1000, 256, 4096);
  k.mutable_counters()->mutable_warp_instructions()->set_global_ld(5000);
  k.mutable_counters()->mutable_memory()->set_dram_read_bytes(1 << 26);
  k.mutable_counters()->mutable_memory()->set_l1_hit_rate_pct(30);
  const KernelPrediction a = predict(k);
  k.set_start_ns(1000);
  k.set_end_ns(999'000'000);
  const KernelPrediction b = predict(k);
  EXPECT_EQ(a.sm_time_s, b.sm_time_s);
  EXPECT_EQ(a.launch_overhead_s, b.launch_overhead_s);
  EXPECT_EQ(a.limiter, b.limiter);
  EXPECT_EQ(predict(k).sm_time_s, b.sm_time_s);
}

// wave-blocks: pipelined blocks (wave/gpu_tuple.h, BlockRule).
KernelPrediction predict_blocks(const KernelLaunch& k, const platform::GpuSpec& gpu) {
  return WaveModel(wave::IssueRule::kPipesOverlap, wave::BlockRule::kPipelined).predict(KernelView::of(k), gpu);
}

platform::GpuSpec with_launch_fit(double x0_ns, double x1_ns_per_block) {
  platform::GpuSpec gpu = testing::h100();
  platform::LaunchFit& fit = *gpu.add_launch_fits();
  fit.set_block_warps(8);
  fit.set_x0_ns(x0_ns);
  fit.set_x1_ns_per_block(x1_ns_per_block);
  return gpu;
}

// 100 waves of 8-FMA blocks: dispatching 105,600 blocks at 10 ns each (1.056 ms) takes far longer than the waves. The
// first wave's blocks (8 per SM) precede the work; the rest of the dispatch runs with it and bounds the grid.
TEST(WaveModel, PipelinedBlocksOverlapTheDispatchWithTheWaves) {
  const platform::GpuSpec gpu = with_launch_fit(700, 10);
  const KernelLaunch k = testing::fma_kernel(100 * 8 * 132, 256, 8);
  const KernelPrediction first = predict(k, gpu);
  EXPECT_NEAR(first.launch_overhead_s, (700 + 105600 * 10) * 1e-9, 1e-15);  // wave: the whole dispatch precedes
  const KernelPrediction p = predict_blocks(k, gpu);
  EXPECT_NEAR(p.launch_overhead_s, (700 + 1056 * 10) * 1e-9, 1e-15);
  EXPECT_NEAR(p.sm_time_s, (105600 - 1056) * 10e-9, 1e-15);
}

// One wave, latency-bound (4096 cycles, as OneWaveOfLatencyBoundBlocks): its blocks' slots then turn over.
TEST(WaveModel, PipelinedBlocksPayTheTurnaroundEachWave) {
  platform::GpuSpec gpu = one_block_per_sm();
  gpu.set_block_turnaround_ns(250);
  const KernelLaunch k = testing::fma_kernel(2 * 132, 256, kFmaPerBlock);
  EXPECT_NEAR(predict_blocks(k, gpu).sm_time_s, 2 * (4096 / kClockHz + 250e-9), 1e-15);
  EXPECT_DOUBLE_EQ(predict(k, gpu).sm_time_s, 2 * 4096 / kClockHz);
}

// 1 GiB of DRAM reads, one line a load, by one wave of 8 warps per SM with one load each in flight: on a GPU whose
// grid says that concurrency reaches 200 GB/s, the reads take 1 GiB / 200 GB/s, not the streaming rate's time.
TEST(WaveModel, PipelinedBlocksReadDramAtTheirConcurrency) {
  KernelLaunch k = testing::fma_kernel(132, 256, 1024);
  k.mutable_counters()->mutable_warp_instructions()->set_global_ld((1ull << 30) / 128);
  k.mutable_counters()->mutable_memory()->set_dram_read_bytes(1ull << 30);
  platform::GpuSpec gpu = one_block_per_sm();
  platform::DramConcurrency& grid = *gpu.mutable_memory()->mutable_dram_concurrency();
  grid.add_loads_per_warp(1);
  platform::DramConcurrencyRow& row = *grid.add_rows();
  row.set_warps_per_sm(8);
  row.add_read_gb_per_s(200);
  row.add_copy_read_gb_per_s(150);
  const KernelPrediction p = predict_blocks(k, gpu);
  EXPECT_NEAR(p.sm_time_s, (1ull << 30) / 200e9, 1e-3 * p.sm_time_s);
  EXPECT_EQ(p.limiter, "dram concurrency");
  EXPECT_LT(predict(k, gpu).sm_time_s, 0.5 * p.sm_time_s);  // wave: the streaming rate
  // The same reads by asynchronous copies (cp.async): a pipeline's stages keep them in flight, not waiting warps, so
  // the grid does not bound them.
  WarpInstructions& w = *k.mutable_counters()->mutable_warp_instructions();
  w.set_ldgsts(w.global_ld());
  w.clear_global_ld();
  EXPECT_NE(predict_blocks(k, gpu).limiter, "dram concurrency");
}

// The same 1 GiB from DRAM, but each warp's every eighth load misses and the other seven hit in L1: a warp's load (one
// a group) brings an eighth of a line on average, yet a warp waiting on DRAM waits for a whole line, and those waits
// are its long ones. Little's law over the warp's path gives it most of a line in flight (not an eighth, which would
// put the wave's 8 warps below the grid and leave the reads unbounded), at most the one line of a missing load.
TEST(WaveModel, WarpsHoldTheirDramLinesForTheLatencyNotTheirGroupsMeanLines) {
  KernelLaunch k = testing::fma_kernel(132, 256, 1024);
  k.mutable_counters()->mutable_warp_instructions()->set_global_ld(8 * ((1ull << 30) / 128));
  MemoryTraffic& m = *k.mutable_counters()->mutable_memory();
  m.set_dram_read_bytes(1ull << 30);
  m.set_l1_hit_rate_pct(87.5);
  m.set_l2_hit_rate_pct(0);
  platform::GpuSpec gpu = one_block_per_sm();
  platform::DramConcurrency& grid = *gpu.mutable_memory()->mutable_dram_concurrency();
  grid.add_loads_per_warp(1);
  for (const auto& [warps, gb_per_s] : {std::pair{4, 100.0}, std::pair{8, 200.0}}) {
    platform::DramConcurrencyRow& row = *grid.add_rows();
    row.set_warps_per_sm(warps);
    row.add_read_gb_per_s(gb_per_s);
    row.add_copy_read_gb_per_s(gb_per_s);
  }
  const KernelPrediction p = predict_blocks(k, gpu);
  EXPECT_EQ(p.limiter, "dram concurrency");
  EXPECT_GT(p.sm_time_s, (1ull << 30) / 200e9);  // at most a line a warp: 8 lines an SM
  EXPECT_LT(p.sm_time_s, (1ull << 30) / 100e9);  // more than half a line a warp
}

// A quarter of the warps read a peer GPU's memory (whole remote blocks, as remote_access's spread placement), the rest
// their own DRAM, one line each. A remote warp waits a peer round trip, far longer than a local warp's DRAM one, so
// it holds its slot longer: by Little's law the remote warps hold more of the slots than a quarter, and keep more
// peer lines in flight than the quarter of a line a warp the groups' mean gives (2 an SM, the grid's first row).
TEST(WaveModel, RemoteWarpsHoldTheirSlotsForThePeersRoundTrip) {
  constexpr uint64_t kBlocks = 132 * 1000;
  constexpr uint64_t kWarps = kBlocks * 8;
  constexpr double kPeerBytes = kWarps / 4 * 128.0;
  KernelLaunch k = testing::fma_kernel(kBlocks, 256, 1);
  k.mutable_counters()->mutable_warp_instructions()->set_global_ld(kWarps);
  MemoryTraffic& m = *k.mutable_counters()->mutable_memory();
  m.set_dram_read_bytes(kWarps * 3 / 4 * 128);
  m.set_l2_read_sectors(kWarps * 3 / 4 * 4);
  m.set_l2_hit_rate_pct(0);
  m.set_nvlink_rx_bytes(static_cast<uint64_t>(kPeerBytes * 1.128));  // the link's protocol (kernel_work.h)
  platform::GpuSpec gpu = one_block_per_sm();
  gpu.mutable_sm()->mutable_latency_cycles()->set_peer(2088);
  platform::DramConcurrency& grid = *gpu.mutable_memory()->mutable_peer_concurrency();
  grid.add_loads_per_warp(1);
  for (const auto& [lines, gb_per_s] : {std::pair{2, 1.0}, std::pair{8, 4.0}}) {
    platform::DramConcurrencyRow& row = *grid.add_rows();
    row.set_warps_per_sm(lines);
    row.add_read_gb_per_s(gb_per_s);
    row.add_copy_read_gb_per_s(gb_per_s);
  }
  const KernelPrediction p = predict_blocks(k, gpu);
  EXPECT_EQ(p.limiter, "peer concurrency");
  EXPECT_LT(p.sm_time_s, 0.8 * kPeerBytes / 1e9);  // more than the groups' 2 lines an SM
  EXPECT_GT(p.sm_time_s, kPeerBytes / 4e9);        // fewer than a line a warp
}

TEST(WaveModel, RegisteredAsWave) {
  const std::unique_ptr<KernelModel> model = make_model("wave");
  EXPECT_EQ(model->name(), "wave");
  EXPECT_EQ(make_model("wave-blocks")->name(), "wave-blocks");
}

}  // namespace
}  // namespace warpsim::models
