// m_gpu from a GpuSpec: issue delays from lanes per processing block, latencies, bandwidths in bytes per cycle.
#include "wave/gpu_tuple.h"

#include <gtest/gtest.h>

#include "test_gpu.h"

namespace warpsim::models::wave {
namespace {

double delay(const GpuTuple& t, InstClass c) { return t.delay[index(c)]; }
double latency(const GpuTuple& t, InstClass c) { return t.latency[index(c)]; }

// H100: 4 processing blocks; lanes per block fp32 32, int 16, fp64 16, sfu 4, ldst 8.
TEST(WaveGpuTuple, IssueDelayIsWarpSizeOverLanesPerProcessingBlock) {
  const GpuTuple t = gpu_tuple(testing::h100());
  EXPECT_DOUBLE_EQ(delay(t, InstClass::kFp32), 1);
  EXPECT_DOUBLE_EQ(delay(t, InstClass::kInt), 2);
  EXPECT_DOUBLE_EQ(delay(t, InstClass::kFp64), 2);
  EXPECT_DOUBLE_EQ(delay(t, InstClass::kSfu), 8);
  EXPECT_DOUBLE_EQ(delay(t, InstClass::kLsu), 4);
  EXPECT_DOUBLE_EQ(delay(t, InstClass::kTensor), 4);  // 4096 FLOP / (4096 / 4 per block)
  EXPECT_DOUBLE_EQ(delay(t, InstClass::kOther), 1);
  EXPECT_EQ(t.processing_blocks, 4u);
  EXPECT_EQ(t.sm_count, 132u);
  EXPECT_DOUBLE_EQ(t.clock_hz, 1980e6);
}

// lanes.fp16 counts FP16 results; an HFMA2 lane makes two: 128 results a clock (H100, measured) is 16 HFMA2 lanes a
// processing block, 2 cycles a warp.
TEST(WaveGpuTuple, Hfma2DelayIsHalfTheFp16ResultsPerLane) {
  platform::GpuSpec spec = testing::h100();
  spec.mutable_sm()->mutable_lanes()->set_fp16(128);
  EXPECT_DOUBLE_EQ(gpu_tuple(spec).hfma2_delay, 2);
  spec.mutable_sm()->mutable_lanes()->set_fp16(256);
  EXPECT_DOUBLE_EQ(gpu_tuple(spec).hfma2_delay, 1);
  spec.mutable_sm()->mutable_lanes()->set_fp16(0);  // no FP16 arithmetic: one lane's worth, as other missing units
  EXPECT_DOUBLE_EQ(gpu_tuple(spec).hfma2_delay, 32);
}

TEST(WaveGpuTuple, IssueDelayIsAtLeastOneAndWarpSizeWithoutUnits) {
  EXPECT_DOUBLE_EQ(issue_delay(512, 4, 32), 1);  // more lanes than a warp: still one issue
  EXPECT_DOUBLE_EQ(issue_delay(0, 4, 32), 32);
  EXPECT_DOUBLE_EQ(issue_delay(4, 4, 32), 32);  // one lane per block: a warp takes 32 cycles (paper's FP64 example)
}

TEST(WaveGpuTuple, LatenciesComeFromTheSpec) {
  const GpuTuple t = gpu_tuple(testing::h100());
  EXPECT_DOUBLE_EQ(latency(t, InstClass::kFp32), 4);
  EXPECT_DOUBLE_EQ(latency(t, InstClass::kFp64), 8);
  EXPECT_DOUBLE_EQ(latency(t, InstClass::kSfu), 20);
  EXPECT_DOUBLE_EQ(latency(t, InstClass::kLsu), 29);    // shared
  EXPECT_DOUBLE_EQ(latency(t, InstClass::kOther), 4);   // int32
  EXPECT_DOUBLE_EQ(latency(t, InstClass::kTensor), 4);  // its issue delay
  EXPECT_DOUBLE_EQ(t.memory.l1, 40);
  EXPECT_DOUBLE_EQ(t.memory.l2, 263);
  EXPECT_DOUBLE_EQ(t.memory.dram, 479);
  EXPECT_DOUBLE_EQ(t.memory.shared, 29);
  EXPECT_DOUBLE_EQ(t.memory.uncoal_extra, 31);  // 32 lines at 1 per clock: the last 31 clocks after the first
}

// A GPU whose peer loads were never measured sends them to its DRAM latency; a measured one keeps its own.
TEST(WaveGpuTuple, PeerLatencyIsTheDramsWhereUnmeasured) {
  platform::GpuSpec gpu = testing::h100();
  gpu.mutable_sm()->mutable_latency_cycles()->set_peer(0);
  EXPECT_DOUBLE_EQ(gpu_tuple(gpu).memory.peer, gpu.sm().latency_cycles().dram());
  gpu.mutable_sm()->mutable_latency_cycles()->set_peer(2105);
  EXPECT_DOUBLE_EQ(gpu_tuple(gpu).memory.peer, 2105);
}

// The same for a load from host memory (zero-copy over PCIe).
TEST(WaveGpuTuple, HostLatencyIsTheDramsWhereUnmeasured) {
  platform::GpuSpec gpu = testing::h100();
  gpu.mutable_sm()->mutable_latency_cycles()->set_host(0);
  EXPECT_DOUBLE_EQ(gpu_tuple(gpu).memory.host, gpu.sm().latency_cycles().dram());
  gpu.mutable_sm()->mutable_latency_cycles()->set_host(2388);
  EXPECT_DOUBLE_EQ(gpu_tuple(gpu).memory.host, 2388);
}

TEST(WaveGpuTuple, BandwidthsAreBytesPerSmCycle) {
  platform::GpuSpec gpu = testing::h100();
  gpu.mutable_memory()->set_l2_bandwidth_gb_per_s(3960);
  const GpuTuple t = gpu_tuple(gpu);
  EXPECT_DOUBLE_EQ(t.band.l1_per_sm, 128);
  EXPECT_DOUBLE_EQ(t.band.shared_per_sm, 1);
  EXPECT_DOUBLE_EQ(t.band.l2, 2000);                          // 3960 GB/s at 1.98 GHz
  EXPECT_DOUBLE_EQ(t.band.dram, 3352 * 0.92 * 1e9 / 1980e6);  // at the streaming efficiency
  EXPECT_DOUBLE_EQ(t.band.uncoal_per_sm, 32);                 // one 32-byte sector of one line per clock
  gpu.mutable_sm()->set_l1_scattered_lines_per_cycle(4);
  EXPECT_DOUBLE_EQ(gpu_tuple(gpu).band.uncoal_per_sm, 128);
  EXPECT_DOUBLE_EQ(gpu_tuple(gpu).memory.uncoal_extra, 7);
}

// The SM's one address-divergence unit serves its four schedulers: 0.5 warp instructions a clock (H200, measured) is
// 8 cycles of a processing block's share for each; a GPU file without the rate leaves the unit out.
TEST(WaveGpuTuple, AduDelayIsTheSchedulersOverTheUnitsRate) {
  platform::GpuSpec spec = testing::h100();
  spec.mutable_sm()->set_adu_warp_instructions_per_cycle(0.5);
  EXPECT_DOUBLE_EQ(gpu_tuple(spec).adu_delay, 8);
  spec.mutable_sm()->set_adu_warp_instructions_per_cycle(0);
  EXPECT_DOUBLE_EQ(gpu_tuple(spec).adu_delay, 0);
}

}  // namespace
}  // namespace warpsim::models::wave
