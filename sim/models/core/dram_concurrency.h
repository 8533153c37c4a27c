#pragma once
// DRAM read bandwidth by the loads a kernel keeps in flight, from the GpuSpec's measured grid
// (MemorySpec.dram_concurrency: W warps per SM each keeping U one-line loads in flight,
// workloads/microbench_dram_inflight). By Little's law each grid point is a latency, W x U x 128 B / rate: the loads'
// time in DRAM at that load. The grid is interpolated in that latency (bilinear in log2 W and log2 U), between reads
// alone and the reads of a 1:1 copy by the time DRAM spends per byte read, 1 / (1 - written share): 1 reading alone,
// 2 for the copy, so a share w of written bytes lies w / (1 - w) of the way (STREAM's triad, a third written,
// halfway), and beyond the copy for more writes than reads (one array read, five written: 5 times the copy's extra
// latency; workloads/microbench_dram_mix's write-heavy mixes). The rate is then lines in flight x 128 B / latency.
//
// Fewer lines a warp than the grid's first column count as the same lines in flight from fewer warps with the first
// column's each. Below the grid's first row the DRAM is lightly loaded: no bound (the latency path, at the unloaded
// latency, rules there); above its last row or column the last one's latency holds.
#include "platform.pb.h"

namespace warpsim::models {

/// The grid's unit of a load in flight: one line, what a coalesced warp load of 4-byte words brings.
inline constexpr double kDramLineBytes = 128;

/// What a kernel (or one wave of it) keeps in flight towards DRAM.
struct DramLoadsInFlight {
  double lines_per_sm = 0;    // one-line (128-byte) loads in flight, whole GPU / SMs
  double lines_per_warp = 0;  // of those, each warp's: loads waited on together x lines each brings from DRAM
  double write_share = 0;     // of the DRAM's bytes, the written ones (0: reads only; 0.5: a copy; 1: no reads)
};

/// Read bytes per second DRAM serves at that concurrency on a GPU with `grid`; 0 where the grid is empty or the load
/// is below it.
double dram_read_bytes_per_s(const platform::DramConcurrency& grid, const DramLoadsInFlight& loads);

}  // namespace warpsim::models
