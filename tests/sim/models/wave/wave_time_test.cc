// One wave on the busiest SM and processing block, raised by the bandwidth fixed points.
#include "wave/wave_time.h"

#include <gtest/gtest.h>

#include "test_gpu.h"

namespace warpsim::models::wave {
namespace {

const GpuTuple kGpu = gpu_tuple(testing::h100());

KernelTuple fma_kernel(double fma_per_warp, uint32_t warps_per_block) {
  KernelTuple k;
  k.warps_per_block = warps_per_block;
  k.mix.issued[index(InstClass::kFp32)] = fma_per_warp;
  return k;
}

TEST(WaveTime, WarpsSpreadRoundRobinOverProcessingBlocks) {
  EXPECT_DOUBLE_EQ(warps_per_processing_block(64, 4), 16);
  EXPECT_DOUBLE_EQ(warps_per_processing_block(10, 4), 3);
  EXPECT_DOUBLE_EQ(warps_per_processing_block(1, 4), 1);
}

// 8 blocks of 8 warps on an SM: 16 warps per processing block issue 16 * 100 cycles, more than one warp's 400.
TEST(WaveTime, FullSmIsIssueBound) {
  const WaveTime t = wave_time(fma_kernel(100, 8), kGpu, {8 * 132, 8});
  EXPECT_DOUBLE_EQ(t.cycles, 1600);
  EXPECT_EQ(t.limiter, "issue");
}

// One block of one warp: its own dependent path.
TEST(WaveTime, LoneWarpIsLatencyBound) {
  const WaveTime t = wave_time(fma_kernel(100, 1), kGpu, {1, 1});
  EXPECT_DOUBLE_EQ(t.cycles, 400);
  EXPECT_EQ(t.limiter, "latency");
}

// Each warp loads once from DRAM and moves 1 MB: 132 SMs x 64 warps x 1 MB over the DRAM's bytes per cycle.
TEST(WaveTime, DramDemandAboveBandwidthSetsTheWaveTime) {
  KernelTuple k = fma_kernel(1, 8);
  k.mix.global_loads = 1;
  k.traffic.dram_bytes = 1e6;
  k.traffic.l2_bytes = 1e6;  // the test GPU gives the L2 no bandwidth limit (0)
  const WaveTime t = wave_time(k, kGpu, {8 * 132, 8});
  EXPECT_NEAR(t.cycles, 132 * 64 * 1e6 / kGpu.band.dram, 1e-3 * t.cycles);
  EXPECT_EQ(t.limiter, "dram bandwidth");
  EXPECT_GT(t.latencies.dram, kGpu.memory.dram);  // congestion made DRAM requests slower
}

TEST(WaveTime, DemandWithinBandwidthLeavesTheLatencies) {
  KernelTuple k = fma_kernel(100, 8);
  k.mix.global_loads = 1;
  k.traffic.dram_bytes = 32;
  const WaveTime t = wave_time(k, kGpu, {8 * 132, 8});
  EXPECT_DOUBLE_EQ(t.latencies.dram, kGpu.memory.dram);
  EXPECT_NE(t.limiter, "dram bandwidth");
}

// L1 is per SM: 8 blocks x 8 warps x 128 KB at 128 B per cycle.
TEST(WaveTime, L1DemandIsTheSmsOwn) {
  KernelTuple k = fma_kernel(1, 8);
  k.traffic.l1_bytes = 128e3;
  const WaveTime t = wave_time(k, kGpu, {8 * 132, 8});
  EXPECT_NEAR(t.cycles, 64 * 1000, 1e-3 * 64 * 1000);
  EXPECT_EQ(t.limiter, "l1 bandwidth");
}

// Bank conflicts: 10 wavefronts per warp, 64 warps, one wavefront per cycle.
TEST(WaveTime, SharedWavefrontsAtOnePerCycle) {
  KernelTuple k = fma_kernel(1, 8);
  k.mix.shared_loads = 1;
  k.traffic.shared_wavefronts = 10;
  const WaveTime t = wave_time(k, kGpu, {8 * 132, 8});
  EXPECT_NEAR(t.cycles, 640, 1e-3 * 640);
  EXPECT_EQ(t.limiter, "shared bandwidth");
}

// Measured global wavefronts share the data stage with shared ones (10 + 22 per warp, 64 warps at one per clock),
// and replace the uncoalesced estimate: its bytes no longer count.
TEST(WaveTime, MeasuredGlobalWavefrontsJoinTheSharedOnesInTheDataStage) {
  KernelTuple k = fma_kernel(1, 8);
  k.mix.shared_loads = 1;
  k.traffic.shared_wavefronts = 10;
  k.traffic.lg_data_wavefronts = 22;
  k.traffic.uncoal_bytes = 1e6;  // would be 31250 cycles per warp at 32 bytes a clock
  const WaveTime t = wave_time(k, kGpu, {8 * 132, 8});
  EXPECT_NEAR(t.cycles, 64 * 32, 1e-3 * 64 * 32);
  EXPECT_EQ(t.limiter, "l1 data stage");
}

// The test GPU with pipelined blocks whose slots turn over in 400 cycles.
GpuTuple pipelined_gpu() {
  GpuTuple gpu = kGpu;
  gpu.blocks = BlockRule::kPipelined;
  gpu.block_turnaround = 400;
  return gpu;
}

// 8 warps a block, each with one shared load of 10 wavefronts: 640 cycles of the data stage for 8 blocks.
KernelTuple shared_work_kernel() {
  KernelTuple k = fma_kernel(1, 8);
  k.mix.shared_loads = 1;
  k.traffic.shared_wavefronts = 10;
  return k;
}

// Pipelined blocks: the SM's slots turn over together after each wave, and its data stage serves nothing meanwhile.
TEST(WaveTime, PipelinedBlocksLeaveTheDataStageIdleDuringTheTurnaround) {
  const WaveTime t = wave_time(shared_work_kernel(), pipelined_gpu(), {8 * 132, 8});
  EXPECT_NEAR(t.cycles, 640 + 400, 1e-3 * 1040);
  EXPECT_EQ(t.limiter, "shared bandwidth");
}

// A tiled kernel: each warp loads global data (two loads waited on together, both from DRAM), waits at a barrier,
// then works in shared memory. Its blocks wait for the loads together before the data stage can serve them.
TEST(WaveTime, ABarrierAfterGlobalLoadsKeepsTheDataStageWaiting) {
  const GpuTuple gpu = pipelined_gpu();
  KernelTuple k = shared_work_kernel();
  k.mix.global_loads = 2;
  k.hits = HitFractions{0, 0, 1};
  k.schedule = CompilerSchedule{1, 100, 2};
  k.syncs = 1;
  const WaveTime waiting = wave_time(k, gpu, {8 * 132, 8});
  EXPECT_NEAR(waiting.cycles, 640 + 400 + (gpu.memory.dram - 100), 1e-3 * waiting.cycles);
  k.syncs = 0;  // no barrier: other warps' shared work fills the wait
  EXPECT_NEAR(wave_time(k, gpu, {8 * 132, 8}).cycles, 640 + 400, 1e-3 * 1040);
}

// The same tile loaded by asynchronous copies (cp.async): the barrier waits for a stage whose copies were issued a
// stage earlier, so the data stage does not wait for them.
TEST(WaveTime, ABarrierAfterAsyncCopiesLeavesTheDataStageBusy) {
  KernelTuple k = shared_work_kernel();
  k.mix.global_loads = 2;
  k.mix.async_copies = 2;
  k.hits = HitFractions{0, 0, 1};
  k.schedule = CompilerSchedule{1, 100, 2};
  k.syncs = 1;
  EXPECT_NEAR(wave_time(k, pipelined_gpu(), {8 * 132, 8}).cycles, 640 + 400, 1e-3 * 1040);
}

// Atomics to one address: the busiest L2 slice does 4096 atomic sectors per warp-share of the wave at 0.684 a clock.
TEST(WaveTime, BusiestL2SliceBoundsAtomics) {
  GpuTuple gpu = kGpu;
  gpu.band.l2_slice_atomics = 0.684;
  KernelTuple k = fma_kernel(1, 8);
  k.mix.stores = 1;  // a RED: the warp does not wait for it
  k.traffic.l2_slice_atomic_sectors = 32;
  const WaveTime t = wave_time(k, gpu, {8 * 132, 8});
  EXPECT_NEAR(t.cycles, 8 * 132 * 8 * 32 / 0.684, 1e-3 * t.cycles);
  EXPECT_EQ(t.limiter, "l2 slice atomics");
}

// A store-only kernel whose DRAM bytes are all partial-sector fills and write-backs: at the scattered rate.
TEST(WaveTime, PartialWritesGoAtDramsScatteredRate) {
  GpuTuple gpu = kGpu;
  gpu.band.dram_scattered = gpu.band.dram / 3;
  KernelTuple k = fma_kernel(1, 8);
  k.mix.stores = 1;
  k.traffic.dram_bytes = 1e6;
  const double streaming = wave_time(k, gpu, {8 * 132, 8}).cycles;
  EXPECT_NEAR(streaming, 132 * 64 * 1e6 / gpu.band.dram, 1e-3 * streaming);
  k.traffic.dram_partial_write_bytes = 0.5e6;
  const WaveTime t = wave_time(k, gpu, {8 * 132, 8});
  EXPECT_NEAR(t.cycles, 2 * streaming, 1e-3 * t.cycles);  // 0.5 streaming + 0.5 at a third of the rate
  EXPECT_EQ(t.limiter, "dram bandwidth");
}

// A store-only kernel whose L2 bytes half come from scattered requests: those at the L2's single-sector rate.
TEST(WaveTime, ScatteredL2SectorsGoAtTheL2sSingleSectorRate) {
  GpuTuple gpu = kGpu;
  gpu.band.l2 = 4000;  // bytes per cycle, about H100's
  gpu.band.l2_scattered = gpu.band.l2 / 3;
  KernelTuple k = fma_kernel(1, 8);
  k.mix.stores = 1;
  k.traffic.l2_bytes = 1e6;
  const double streaming = wave_time(k, gpu, {8 * 132, 8}).cycles;
  EXPECT_NEAR(streaming, 132 * 64 * 1e6 / gpu.band.l2, 1e-3 * streaming);
  k.traffic.l2_scattered_bytes = 0.5e6;
  const WaveTime t = wave_time(k, gpu, {8 * 132, 8});
  EXPECT_NEAR(t.cycles, 2 * streaming, 1e-3 * t.cycles);  // 0.5 streaming + 0.5 at a third of the rate
  EXPECT_EQ(t.limiter, "l2 bandwidth");
}

// Stores spread over the L2: its written sectors at the write rate, the rest at the read rate.
TEST(WaveTime, WrittenL2SectorsGoAtTheL2sWriteRate) {
  GpuTuple gpu = kGpu;
  gpu.band.l2 = 4000;
  KernelTuple k = fma_kernel(1, 8);
  k.mix.stores = 1;
  k.traffic.l2_bytes = 1e6;
  k.traffic.l2_write_bytes = 0.5e6;
  const double at_read_rate = wave_time(k, gpu, {8 * 132, 8}).cycles;  // no write rate: all at the read rate
  EXPECT_NEAR(at_read_rate, 132 * 64 * 1e6 / gpu.band.l2, 1e-3 * at_read_rate);
  gpu.band.l2_write = gpu.band.l2 / 2;
  const WaveTime t = wave_time(k, gpu, {8 * 132, 8});
  EXPECT_NEAR(t.cycles, 1.5 * at_read_rate, 1e-3 * t.cycles);  // 0.5 at the read rate + 0.5 at half of it
  EXPECT_EQ(t.limiter, "l2 bandwidth");
}

// Stores of one sector each: their written sectors at the L2's scattered write rate, the other written ones at its
// write rate; without that rate, at the write rate.
TEST(WaveTime, SingleSectorStoresGoAtTheL2sScatteredWriteRate) {
  GpuTuple gpu = kGpu;
  gpu.band.l2 = 4000;
  gpu.band.l2_write = gpu.band.l2 / 2;
  KernelTuple k = fma_kernel(1, 8);
  k.mix.stores = 1;
  k.traffic.l2_bytes = 1e6;
  k.traffic.l2_write_bytes = 1e6;
  k.traffic.l2_scattered_write_bytes = 0.5e6;
  const double at_write_rate = wave_time(k, gpu, {8 * 132, 8}).cycles;  // no scattered rate: all at the write rate
  EXPECT_NEAR(at_write_rate, 132 * 64 * 1e6 / gpu.band.l2_write, 1e-3 * at_write_rate);
  gpu.band.l2_scattered_write = gpu.band.l2 / 4;
  const WaveTime t = wave_time(k, gpu, {8 * 132, 8});
  EXPECT_NEAR(t.cycles, 1.5 * at_write_rate, 1e-3 * t.cycles);  // 0.5 at the write rate + 0.5 at half of it
  EXPECT_EQ(t.limiter, "l2 bandwidth");
}

// A DRAM concurrency grid of one line a warp: 32 warps an SM read at `light` GB/s, 64 at 2000 GB/s.
GpuTuple gpu_with_dram_grid(double light) {
  GpuTuple gpu = pipelined_gpu();
  gpu.dram_concurrency.add_loads_per_warp(1);
  for (const auto& [warps, gb_per_s] : {std::pair{32, light}, std::pair{64, 2000.0}}) {
    platform::DramConcurrencyRow& row = *gpu.dram_concurrency.add_rows();
    row.set_warps_per_sm(warps);
    row.add_read_gb_per_s(gb_per_s);
    row.add_copy_read_gb_per_s(gb_per_s);
  }
  return gpu;
}

// Each of 64 warps an SM waits on one line from DRAM: W = 132 x 64 x 128 B over the grid's rate at 64 warps, were
// the warps resident all along. While its slots turn over (400 cycles a wave) an SM keeps no line in flight, so DRAM
// sees the lines x (W - 400) / W on average. With a latency that does not change with the load (1000 GB/s at 32 warps,
// half of 64's) that adds the turnaround; with a shorter one at the lighter load (1500 GB/s) it adds less.
TEST(WaveTime, TurningSlotsThinTheDramConcurrency) {
  KernelTuple k = fma_kernel(1, 8);
  k.mix.global_loads = 1;
  k.hits = HitFractions{0, 0, 1};
  k.traffic.dram_bytes = k.traffic.dram_read_bytes = 128;
  k.traffic.l2_bytes = 128;
  const double resident = 132 * 64 * 128 / (2000e9 / kGpu.clock_hz);
  const WaveTime constant = wave_time(k, gpu_with_dram_grid(1000), {8 * 132, 8});
  EXPECT_EQ(constant.limiter, "dram concurrency");
  EXPECT_NEAR(constant.cycles, resident + 400, 1e-3 * resident);
  const WaveTime falling = wave_time(k, gpu_with_dram_grid(1500), {8 * 132, 8});
  EXPECT_EQ(falling.limiter, "dram concurrency");
  EXPECT_GT(falling.cycles, resident + 40);
  EXPECT_LT(falling.cycles, resident + 360);
}

// A flag every warp sets: each warp's share of the L2's sectors is 80 (1 a slice on average over 80 slices), and the
// busiest slice took 11 a warp, 10 beyond its share, at 0.5 a clock. Reads alone are not known to queue so, and the
// busiest slice's atomics are the slice atomics level's.
TEST(WaveTime, AHotSpotsStoresQueueInItsSlice) {
  GpuTuple gpu = kGpu;
  gpu.l2_slices = 80;
  gpu.band.l2_hot_slice = 0.5;
  KernelTuple k = fma_kernel(1, 8);
  k.mix.stores = 1;
  k.traffic.l2_bytes = 80 * 32;
  k.traffic.l2_write_bytes = 80 * 32;
  k.traffic.l2_busiest_slice_sectors = 11;
  const WaveTime t = wave_time(k, gpu, {8 * 132, 8});
  EXPECT_NEAR(t.cycles, 8 * 132 * 8 * 10 / 0.5, 1e-3 * t.cycles);
  EXPECT_EQ(t.limiter, "l2 hot slice");
  k.traffic.l2_slice_atomic_sectors = 4;  // 6 beyond the share and the atomics
  EXPECT_NEAR(wave_time(k, gpu, {8 * 132, 8}).cycles, 8 * 132 * 8 * 6 / 0.5, 1e-3 * t.cycles);
  k.traffic.l2_write_bytes = 0;
  EXPECT_NE(wave_time(k, gpu, {8 * 132, 8}).limiter, "l2 hot slice");
  // Counters recorded on a GPU of 40 slices: the mean slice there took 2 a warp, so the hot spot 9 beyond it (5 less
  // the atomics); the same words are as hot on this GPU.
  k.traffic.l2_write_bytes = 80 * 32;
  k.recorded_l2_slices = 40;
  EXPECT_NEAR(wave_time(k, gpu, {8 * 132, 8}).cycles, 8 * 132 * 8 * 5 / 0.5, 1e-3 * t.cycles);
  k.recorded_l2_slices = 0;
  k.traffic.l2_slice_atomic_sectors = 0;
  gpu.l2_slices = 0;  // unmeasured: no bound
  EXPECT_NE(wave_time(k, gpu, {8 * 132, 8}).limiter, "l2 hot slice");
}

// A GPU file without the slice rate (0, unmeasured) leaves atomics unbounded by the slices.
TEST(WaveTime, UnmeasuredSliceRateBoundsNothing) {
  KernelTuple k = fma_kernel(1, 8);
  k.traffic.l2_slice_atomic_sectors = 32;
  const WaveTime t = wave_time(k, kGpu, {8 * 132, 8});
  EXPECT_EQ(kGpu.band.l2_slice_atomics, 0);
  EXPECT_LT(t.cycles, 1000);
  EXPECT_NE(t.limiter, "l2 slice atomics");
}

}  // namespace
}  // namespace warpsim::models::wave
