// DRAM read bandwidth by loads in flight: grid points exact, Little's-law interpolation between them, the write share
// between reads and a copy's reads, no bound below the grid, the last latency above it.
#include "dram_concurrency.h"

#include <gtest/gtest.h>

namespace warpsim::models {
namespace {

// Two rows (8 and 32 warps per SM) by two columns (1 and 4 loads per warp), GB/s.
platform::DramConcurrency grid() {
  platform::DramConcurrency g;
  g.add_loads_per_warp(1);
  g.add_loads_per_warp(4);
  const struct {
    double warps;
    double read[2];
    double copy[2];
  } rows[] = {{8, {400, 1000}, {300, 700}}, {32, {1200, 2800}, {900, 1300}}};
  for (const auto& r : rows) {
    platform::DramConcurrencyRow& row = *g.add_rows();
    row.set_warps_per_sm(r.warps);
    for (double v : r.read) row.add_read_gb_per_s(v);
    for (double v : r.copy) row.add_copy_read_gb_per_s(v);
  }
  return g;
}

double gb_per_s(double warps, double loads_per_warp, double write_share = 0) {
  return dram_read_bytes_per_s(grid(), {warps * loads_per_warp, loads_per_warp, write_share}) / 1e9;
}

// Little's law at a point: W x U x 128 B over the point's rate.
double latency(double warps, double loads_per_warp, double rate_gb_per_s) {
  return warps * loads_per_warp * kDramLineBytes / rate_gb_per_s;
}

TEST(DramConcurrency, AtAGridPointItsRate) {
  EXPECT_NEAR(gb_per_s(8, 1), 400, 1e-9);
  EXPECT_NEAR(gb_per_s(32, 4), 2800, 1e-9);
  EXPECT_NEAR(gb_per_s(32, 1, 0.5), 900, 1e-9);  // half the bytes written: the copy's reads
  // Five bytes written for each read: 5 times the copy's extra latency over reading alone.
  const double five_written = latency(8, 4, 1000) + 5 * (latency(8, 4, 700) - latency(8, 4, 1000));
  EXPECT_NEAR(gb_per_s(8, 4, 5.0 / 6), 8 * 4 * kDramLineBytes / five_written, 1e-9);
  EXPECT_EQ(gb_per_s(8, 4, 1), 0);  // nothing read: no bound
}

// 16 warps: halfway between the rows in log2, so the latency is halfway between the rows' latencies.
TEST(DramConcurrency, BetweenRowsTheLatencyIsInterpolated) {
  const double l = (latency(8, 1, 400) + latency(32, 1, 1200)) / 2;
  EXPECT_NEAR(gb_per_s(16, 1), 16 * kDramLineBytes / l, 1e-9);
  EXPECT_GT(gb_per_s(16, 1), 400);
  EXPECT_LT(gb_per_s(16, 1), 1200);
}

// DRAM spends 1 / (1 - written share) of a read byte's time per read byte: 1 reading alone, 2 for a copy, 1.5 for
// STREAM's triad (a third written), halfway to the copy; 4/3 with a quarter written, a third of the way.
TEST(DramConcurrency, AThirdWrittenIsHalfwayToTheCopyInLatency) {
  const double l = (latency(32, 4, 2800) + latency(32, 4, 1300)) / 2;
  EXPECT_NEAR(gb_per_s(32, 4, 1.0 / 3), 32 * 4 * kDramLineBytes / l, 1e-9);
  const double quarter = latency(32, 4, 2800) + (latency(32, 4, 1300) - latency(32, 4, 2800)) / 3;
  EXPECT_NEAR(gb_per_s(32, 4, 0.25), 32 * 4 * kDramLineBytes / quarter, 1e-9);
}

// 32 warps with half a line each (loads that mostly hit the L2): the 16 lines in flight of 16 warps with one each.
TEST(DramConcurrency, LessThanALineAWarpIsFewerWarps) {
  EXPECT_NEAR(gb_per_s(32, 0.5), gb_per_s(16, 1), 1e-9);
  EXPECT_GT(gb_per_s(32, 0.5), 0);
}

TEST(DramConcurrency, BelowTheGridNoBound) {
  EXPECT_EQ(gb_per_s(4, 1), 0);      // fewer warps than the first row: the latency path rules
  EXPECT_EQ(gb_per_s(16, 0.25), 0);  // a quarter line per warp: 4 lines in flight, likewise
  EXPECT_EQ(dram_read_bytes_per_s(platform::DramConcurrency{}, {64, 1, 0}), 0);  // unmeasured GPU
}

// 64 warps x 8 loads, beyond both axes: the last point's latency, so twice the lines in flight, twice its rate each
// way.
TEST(DramConcurrency, AboveTheGridTheLastLatencyHolds) {
  EXPECT_NEAR(gb_per_s(64, 4), 2 * 2800, 1e-6);
  EXPECT_NEAR(gb_per_s(32, 8), 2 * 2800, 1e-6);
}

}  // namespace
}  // namespace warpsim::models
