#pragma once
// What a load finds in the L2. lts__t_sector_hit_rate counts every sector the L2 serves, and a store hits (the L2
// allocates the line on write): workloads/microbench_dram_inflight's copy kernels, whose reads all miss, show a 50%
// hit rate. A latency mix built from that rate sends half of such a kernel's loads to the L2 instead of DRAM.
#include <optional>

#include "trace.pb.h"

namespace warpsim::models {

/// The share of the L2's non-store sectors (reads, atomics) that hit, in [0, 1]. From the L2's device-memory read
/// lookup misses where the trace has them and they are consistent (at least one sector per missing request: the
/// profiler collects the two in different replay passes, and in 2026-11-26's H100 recordings kernels whose data fit
/// the L2, e.g. correlation's 16 MiB column passes, showed 35 missing sectors for 42,559 missing requests: a pass that
/// found the data still in the L2; the one-pass `cache` counters group, merged over core's, gives both from one
/// pass); otherwise from the hit rate over all sectors with every store sector taken out as
/// a hit (exact when stores write whole sectors; a partial-sector store that misses makes it low). nullopt when the
/// trace has no L2 hit rate.
std::optional<double> l2_load_hit_fraction(const MemoryTraffic& m);

}  // namespace warpsim::models
