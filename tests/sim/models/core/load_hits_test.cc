#include "load_hits.h"

#include <gtest/gtest.h>

namespace warpsim::models {
namespace {

// Counters of microbench_dram_inflight's copy kernel on H100 (8 warps per SM, one load in flight): every read misses,
// every store hits, and the L2 reports 50.4% over all sectors.
MemoryTraffic copy_kernel() {
  MemoryTraffic m;
  m.set_l2_read_sectors(12518883);
  m.set_l2_write_sectors(12587690);
  m.set_l2_bytes((12518883ull + 12587690ull) * 32);
  m.set_l2_hit_rate_pct(50.4);
  return m;
}

TEST(LoadHits, StoresHitsAreTakenOutOfTheRate) { EXPECT_NEAR(*l2_load_hit_fraction(copy_kernel()), 0.0, 0.01); }

TEST(LoadHits, ReadOnlyKernelKeepsTheRate) {
  MemoryTraffic m;
  m.set_l2_read_sectors(1000);
  m.set_l2_bytes(1000 * 32);
  m.set_l2_hit_rate_pct(40);
  EXPECT_NEAR(*l2_load_hit_fraction(m), 0.4, 1e-12);
}

TEST(LoadHits, ReadLookupMissesWinWhereRecorded) {
  MemoryTraffic m = copy_kernel();
  m.set_l2_device_read_miss_sectors(12518883 / 4);
  EXPECT_NEAR(*l2_load_hit_fraction(m), 0.75, 1e-6);
}

// correlation's corr_mean_kernel on H100 (2026-11-26): 35 missing sectors for 42,559 missing requests, collected in
// different replay passes; the misses are not used and the hit rate (stores taken out) stands.
TEST(LoadHits, FewerMissingSectorsThanMissingRequestsAreNotUsed) {
  MemoryTraffic m = copy_kernel();
  m.set_l2_device_read_miss_sectors(35);
  m.set_l2_device_read_miss_requests(42559);
  EXPECT_NEAR(*l2_load_hit_fraction(m), 0.0, 0.01);
  m.set_l2_device_read_miss_sectors(4 * 42559);  // four sectors a request: consistent, used
  EXPECT_NEAR(*l2_load_hit_fraction(m), 1 - 4.0 * 42559 / 12518883, 1e-9);
}

TEST(LoadHits, StoreOnlyKernelKeepsTheRateAndNoRateIsUnknown) {
  MemoryTraffic m;
  m.set_l2_write_sectors(100);
  m.set_l2_bytes(100 * 32);
  m.set_l2_hit_rate_pct(90);
  EXPECT_NEAR(*l2_load_hit_fraction(m), 0.9, 1e-12);
  EXPECT_FALSE(l2_load_hit_fraction(MemoryTraffic{}).has_value());
}

TEST(LoadHits, MissedStoresCannotDriveTheLoadsBelowZero) {
  MemoryTraffic m = copy_kernel();
  m.set_l2_hit_rate_pct(10);  // partial-sector stores that missed
  EXPECT_DOUBLE_EQ(*l2_load_hit_fraction(m), 0.0);
}

}  // namespace
}  // namespace warpsim::models
