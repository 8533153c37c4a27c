#pragma once
// The memory latencies the wave model iterates on, and paper 001's average memory latency of an SM's requests:
//   lat_sm = coalpct * (l1pct * lat_l1 + l2pct * lat_l2 + drampct * lat_dram) + uncoalpct * lat_uncoal
// where an uncoalesced request is served by the same levels and pays uncoal_extra more cycles (see README.md).

#include <array>
#include <cstddef>

namespace warpsim::models::wave {

/// How much longer a group of loads issued back to back waits than one load (platform MemorySpec.GroupLatency):
/// ratios at ascending load counts, interpolated in log2(loads); 1 at one load and where unmeasured.
struct GroupLatencyGrowth {
  static constexpr std::size_t kMaxPoints = 8;
  std::array<double, kMaxPoints> loads{};
  std::array<double, kMaxPoints> ratio{};
  std::size_t points = 0;

  double at(double group_loads) const;
};

/// Latencies in cycles. The bandwidth fixed points scale them, so a congested level looks slower.
struct MemoryLatencies {
  double l1 = 0;                  // L1 hit
  double l2 = 0;                  // L2 hit
  double dram = 0;                // DRAM
  double shared = 0;              // shared memory
  double uncoal_extra = 0;        // cycles an uncoalesced request adds to the level mix
  double peer = 0;                // a peer GPU's memory over NVLink
  double host = 0;                // host memory over PCIe (zero-copy)
  double constant = 0;            // a constant-bank load (LDC) the constant cache serves (0: unmeasured, not waited)
  GroupLatencyGrowth dram_group;  // a group of DRAM loads' wait over one load's (not scaled by the fixed points)
};

/// Where a kernel's global/local requests are served, as fractions of its requests (l1 + l2 + dram + peer + host = 1).
struct HitFractions {
  double l1 = 0;
  double l2 = 0;
  double dram = 1;
  double uncoal = 0;  // share of the requests' sectors that coalesced requests would not need
  double peer = 0;    // a peer GPU's memory (remote loads bypass the local L2)
  double host = 0;    // host memory (zero-copy loads pass the L2's system-memory aperture)
  // Of l1, the share of hits on lines another warp asked for first and still on their way (LoadSharing): they wait
  // for the line like its miss did (workloads/microbench_hit_on_miss).
  double inflight = 0;
};

/// lat_sm: the average latency of one global/local load on an SM.
double average_load_latency(const MemoryLatencies& lat, const HitFractions& hits);

/// The expected latency of the slowest of `loads` global loads a warp waits for together, each served by L1, L2,
/// DRAM or a peer GPU independently with the hit fractions: a group waits as long as its slowest load, so one miss
/// among hits costs the group a DRAM round trip. P(slowest <= l1) = l1^n, P(slowest <= l2) = (l1 + l2)^n,
/// P(slowest <= dram) = (l1 + l2 + dram)^n; `loads` may be fractional (a mean over the code's stall points). A group
/// that waits on DRAM waits lat_dram x dram_group at its expected DRAM loads (workloads/microbench_column_walk). One
/// load: lat_sm.
double group_load_latency(const MemoryLatencies& lat, const HitFractions& hits, double loads);

}  // namespace warpsim::models::wave
