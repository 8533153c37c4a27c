// The bandwidth fixed point: raises the wave time to demand / bandwidth when the level is oversubscribed, scaling
// its latency; leaves time and latency alone otherwise.
#include "wave/bandwidth_fixed_point.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace warpsim::models::wave {
namespace {

MemoryLatencies nominal() {
  MemoryLatencies lat;
  lat.l1 = 40;
  lat.l2 = 250;
  lat.dram = 500;
  return lat;
}

// A latency-bound wave: 1000 cycles of other work plus 10 dependent DRAM loads.
double latency_bound(const MemoryLatencies& lat) { return 1000 + 10 * lat.dram; }

TEST(WaveFixedPoint, DemandAboveBandwidthRaisesTimeAndLatency) {
  MemoryLatencies lat = nominal();
  const Level dram{&MemoryLatencies::dram, 1.2e6, 100};  // needs 12000 cycles; nominal time 6000
  const FixedPoint fp = settle_bandwidth(latency_bound, lat, dram, 0);
  EXPECT_NEAR(fp.time, 12000, 12000 * 1e-6);
  EXPECT_NEAR(lat.dram, 1100, 1100 * 1e-5);  // the latency at which the wave takes 12000 cycles
  EXPECT_GT(fp.iterations, 0);
  EXPECT_LT(fp.iterations, 1000);
  EXPECT_DOUBLE_EQ(lat.l1, 40);  // other levels untouched
}

TEST(WaveFixedPoint, DemandWithinBandwidthLeavesEverything) {
  MemoryLatencies lat = nominal();
  const Level dram{&MemoryLatencies::dram, 5e5, 100};  // 5000 cycles' worth; the wave takes 6000
  const FixedPoint fp = settle_bandwidth(latency_bound, lat, dram, 0);
  EXPECT_DOUBLE_EQ(fp.time, 6000);
  EXPECT_DOUBLE_EQ(lat.dram, 500);
  EXPECT_EQ(fp.iterations, 0);
}

// Issue-bound at 20000 cycles until the DRAM path exceeds it: the loop goes on scaling (the paper's |dtime| test
// would stop at once) and ends at demand / bandwidth.
TEST(WaveFixedPoint, IssueBoundWaveStillReachesTheBandwidthBound) {
  MemoryLatencies lat = nominal();
  const auto issue_bound = [](const MemoryLatencies& l) { return std::max(20000.0, 10 * l.dram); };
  const Level dram{&MemoryLatencies::dram, 3e6, 100};
  const FixedPoint fp = settle_bandwidth(issue_bound, lat, dram, 0);
  EXPECT_NEAR(fp.time, 30000, 30000 * 1e-6);
  EXPECT_NEAR(lat.dram, 3000, 3000 * 1e-5);
}

// A level idle for part of the wave (an SM's slots turning over) serves its demand in the rest: 5000 cycles' worth
// after 2000 idle ones exceed the wave's 6000.
TEST(WaveFixedPoint, IdleCyclesComeBeforeTheLevelsOwnTime) {
  MemoryLatencies lat = nominal();
  const Level dram{&MemoryLatencies::dram, 5e5, 100, 2000};
  const FixedPoint fp = settle_bandwidth(latency_bound, lat, dram, 0);
  EXPECT_NEAR(fp.time, 7000, 7000 * 1e-6);
  EXPECT_NEAR(lat.dram, 600, 600 * 1e-5);
}

// Stores only: the wave's time does not depend on the DRAM latency, yet it cannot beat the DRAM's rate.
TEST(WaveFixedPoint, TimeThatIgnoresTheLatencyStillGetsTheBound) {
  MemoryLatencies lat = nominal();
  const auto constant = [](const MemoryLatencies&) { return 100.0; };
  const FixedPoint fp = settle_bandwidth(constant, lat, {&MemoryLatencies::dram, 1e5, 10}, 0);
  EXPECT_DOUBLE_EQ(fp.time, 1e4);
  EXPECT_LE(lat.dram, 1e4);  // capped: no request waits longer than the whole wave's transfer
}

TEST(WaveFixedPoint, EarlierLevelsFloorIsKept) {
  MemoryLatencies lat = nominal();
  const FixedPoint fp = settle_bandwidth(latency_bound, lat, {&MemoryLatencies::l2, 1e5, 100}, 9000);
  EXPECT_DOUBLE_EQ(fp.time, 9000);
  EXPECT_EQ(fp.iterations, 0);
}

TEST(WaveFixedPoint, NoDemandOrNoBandwidthLimitChangesNothing) {
  MemoryLatencies lat = nominal();
  EXPECT_DOUBLE_EQ(settle_bandwidth(latency_bound, lat, {&MemoryLatencies::dram, 0, 100}, 0).time, 6000);
  EXPECT_DOUBLE_EQ(settle_bandwidth(latency_bound, lat, {&MemoryLatencies::dram, 1e9, 0}, 0).time, 6000);
  EXPECT_DOUBLE_EQ(lat.dram, 500);
}

}  // namespace
}  // namespace warpsim::models::wave
