#include "wave/wave_time.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "compiler_schedule.h"
#include "dram_concurrency.h"
#include "gpu_rates.h"
#include "kernel_work.h"  // kSectorBytes
#include "wave/memory_latency.h"
#include "wave/warp_time.h"

namespace warpsim::models::wave {
namespace {

// Halvings of the concurrency bound's bracket (concurrency_bandwidth): 2^-40 of a turnaround, far below a cycle.
constexpr int kConcurrencyBisectionSteps = 40;

struct NamedLevel {
  std::string_view limiter;
  Level level;
};

// Of a warp's global reads, the share its waited loads bring (the asynchronous copies' share is bounded by DRAM's
// bandwidth alone): every load taken as bringing the same.
double waited_read_share(const WarpInstructionMix& m) {
  return m.global_loads > 0 ? waited_global_loads(m) / m.global_loads : 0;
}

// What a warp reads from one memory behind a concurrency grid (the GPU's DRAM, or a peer GPU's over NVLink).
struct MemoryReads {
  const platform::DramConcurrency& grid;  // its measured read rate by loads in flight (dram_concurrency.h)
  double bytes = 0;                       // read bytes per warp
  double latency = 0;                     // its unloaded latency, cycles
  double share = 1;                       // of the warp's global loads, those it serves
  double write_share = 0;                 // of its bytes, the written ones (dram_concurrency.h)
};

// Lines a warp keeps in flight towards a memory: by Little's law over its life, the lines its waited loads bring
// from there, each held for the memory's unloaded latency, over the cycles the warp takes alone (warp_time.h). A warp
// whose other loads hit in L1 or L2 waits on this memory in few of its load groups, and those waits are the long
// ones, so over time it holds more lines there than its groups bring on average (`group_lines`); but never more than
// a group with a load served there brings: at most loads x share of the groups have one (each in a group of its own).
double lines_held_per_warp(const KernelTuple& k, const GpuTuple& gpu, const MemoryReads& reads, double loads_per_group,
                           double group_lines) {
  const double path = warp_time(k, gpu, gpu.memory);
  const double groups_there = std::min(1.0, std::max(loads_per_group, 1.0) * reads.share);
  if (path <= 0 || groups_there <= 0) return group_lines;
  const double little = reads.bytes * waited_read_share(k.mix) / kDramLineBytes * reads.latency / path;
  return std::clamp(little, group_lines, group_lines / groups_there);
}

// The lines the resident warps of a wave keep in flight towards a memory, per SM, while their blocks run: a warp waits
// on its global loads in groups (the compiler's loads per stall, at most the loads it waits on), each load bringing its
// share of the bytes a warp reads from that memory: a group's lines are the loads a warp has in flight together,
// Little's law how many the wave keeps (lines_held_per_warp).
DramLoadsInFlight resident_loads(const KernelTuple& k, const GpuTuple& gpu, const MemoryReads& reads,
                                 double warps_gpu) {
  const double loads_per_group = global_loads_per_group(k);
  const double lines_per_load = reads.bytes / k.mix.global_loads / kDramLineBytes;
  DramLoadsInFlight loads;
  loads.lines_per_warp = loads_per_group * lines_per_load;
  const double held = lines_held_per_warp(k, gpu, reads, loads_per_group, loads.lines_per_warp);
  loads.lines_per_sm = warps_gpu * held / std::max<uint32_t>(gpu.sm_count, 1);
  loads.write_share = reads.write_share;
  return loads;
}

// Read bytes per clock that a memory serves over a wave whose resident loads bring `demand` read bytes, pipelined
// blocks only; 0 (no bound) otherwise. The grid measured warps that stay resident and wait on their loads; here a
// block slot holds no load while it turns over (`idle` cycles a wave), so over a wave of W cycles the memory sees the
// resident lines x (W - idle) / W on average (the SMs' slots turn over at different times), and W = demand / rate at
// that concurrency. W - demand / rate rises with W (more of the wave busy, more lines, a higher rate), so bisection
// finds its root between demand / rate(resident lines) and that plus idle (what a latency that does not fall with
// the load would give). Asynchronous copies keep a pipeline's stages in flight instead, and only DRAM's bandwidth
// bounds them (waited_read_share).
double concurrency_bandwidth(const KernelTuple& k, const GpuTuple& gpu, const MemoryReads& reads, double warps_gpu,
                             double demand, double idle) {
  if (gpu.blocks != BlockRule::kPipelined || waited_global_loads(k.mix) <= 0 || reads.bytes <= 0 || demand <= 0)
    return 0;
  const DramLoadsInFlight resident = resident_loads(k, gpu, reads, warps_gpu);
  const auto rate = [&](double busy) {
    DramLoadsInFlight loads = resident;
    loads.lines_per_sm *= busy;
    return dram_read_bytes_per_s(reads.grid, loads) / gpu.clock_hz;
  };
  const double full = rate(1);
  if (full <= 0 || idle <= 0) return full;
  double low = demand / full;
  double high = low + idle;
  for (int step = 0; step < kConcurrencyBisectionSteps; ++step) {
    const double mid = (low + high) / 2;
    const double served = rate((mid - idle) / mid);
    if (served > 0 && mid < demand / served) {
      low = mid;
    } else {
      high = mid;
    }
  }
  return demand / high;
}

// Cycles of every wave in which an SM's own levels (its L1's data stage and bandwidth, its tag stage) serve nothing:
// pipelined blocks' slots turn over together at the end of each wave (a wave's blocks start and end together), and
// while they do no block is on the SM. The GPU-wide levels keep serving the other SMs meanwhile.
double sm_idle_cycles(const GpuTuple& gpu) { return gpu.blocks == BlockRule::kPipelined ? gpu.block_turnaround : 0; }

// Cycles of every wave in which a barrier keeps a kernel's shared-memory work from the L1's data stage: a block that
// loads global data, waits at a barrier and then works on it in shared memory (a tiled kernel) cannot start that work
// before its loads arrive, and with pipelined blocks the wave's blocks wait together. Each barrier separates at most
// one group of loads waited on together (min of barriers and load groups per warp), each exposing its latency beyond
// the compiler's cover (asynchronous copies are a pipeline's next stages: not waited on here). Only with the
// compiler's schedule (barriers and load groups come from the SASS summary).
double barrier_wait_cycles(const KernelTuple& k, const GpuTuple& gpu) {
  if (gpu.blocks != BlockRule::kPipelined || !k.schedule || k.syncs <= 0) return 0;
  const double waited = waited_global_loads(k.mix);
  if (waited <= 0 || k.mix.shared_loads <= 0) return 0;
  const double loads_per_group = k.schedule->global_loads_per_stall;
  const double groups = waited / loads_per_group;
  const double group_latency = group_load_latency(gpu.memory, k.hits, loads_per_group);
  return std::min(groups, k.syncs) * exposed_global_group_latency(group_latency, *k.schedule);
}

// A warp's share of the sectors a hot spot sends its L2 slice: the busiest slice's sectors beyond the mean slice's of
// the GPU that recorded them (the target's where that one is unknown), less its atomics (the slice atomics level
// prices them), at most the written sectors (workloads/microbench_l2_hotspot measured stores to one word; a line
// every SM reads is not known to queue so). The same words are as hot on the target GPU. 0 without its slice count.
double l2_hot_slice_sectors(const KernelTuple& k, const GpuTuple& gpu) {
  const uint32_t slices = k.recorded_l2_slices > 0 ? k.recorded_l2_slices : gpu.l2_slices;
  if (gpu.l2_slices == 0 || slices == 0) return 0;
  const WarpTraffic& t = k.traffic;
  const double sector = static_cast<double>(kSectorBytes);
  const double mean = t.l2_bytes / sector / slices;
  const double beyond = t.l2_busiest_slice_sectors - mean - t.l2_slice_atomic_sectors;
  return std::clamp(beyond, 0.0, t.l2_write_bytes / sector);
}

// A warp's L2 bytes as the streamed reads that would take the L2 as long: scattered reads' sectors, one per line, at
// its single-sector rate (workloads/microbench_l2_scatter), written sectors at its write rate
// (workloads/microbench_l2_hotspot's spread stores), single-sector stores' at their own where measured
// (microbench_l2_scatter's scattered stores).
double l2_equivalent_bytes(const WarpTraffic& t, const Bandwidths& band) {
  const double reads = streaming_equivalent_bytes(t.l2_bytes, t.l2_scattered_bytes, band.l2, band.l2_scattered);
  const double scattered_writes =
      band.l2_scattered_write > 0 ? std::min(t.l2_scattered_write_bytes, t.l2_write_bytes) : 0;
  const double with_writes =
      streaming_equivalent_bytes(reads, t.l2_write_bytes - scattered_writes, band.l2, band.l2_write);
  return streaming_equivalent_bytes(with_writes, scattered_writes, band.l2, band.l2_scattered_write);
}

// In the paper's order (L1, L2, DRAM, uncoalesced), shared memory first: it shares the L1's data stage; then the
// busiest L2 slice's atomics, which wait like L2 hits, and DRAM's and a peer GPU's reads at the wave's concurrency.
std::array<NamedLevel, 9> levels(const KernelTuple& k, const GpuTuple& gpu, const WaveShape& shape) {
  const double warps_sm = shape.blocks_per_sm * k.warps_per_block;
  const double warps_gpu = shape.blocks * k.warps_per_block;
  const WarpTraffic& t = k.traffic;
  // The data stage passes shared-memory wavefronts and, where measured, global and local ones: then the measured
  // count replaces the uncoalesced estimate (the same passes, estimated from sectors per request).
  const double data_stage = t.shared_wavefronts + t.lg_data_wavefronts.value_or(0);
  const double uncoalesced = t.lg_data_wavefronts ? 0 : t.uncoal_bytes;
  // Partial-sector stores' read-modify-write goes at DRAM's scattered rate: the level counts it as the streaming bytes
  // that would take as long.
  const double dram =
      streaming_equivalent_bytes(t.dram_bytes, t.dram_partial_write_bytes, gpu.band.dram, gpu.band.dram_scattered);
  const double l2 = l2_equivalent_bytes(t, gpu.band);
  const double dram_write_share = t.dram_bytes > 0 ? 1 - t.dram_read_bytes / t.dram_bytes : 0;
  const double sm_idle = sm_idle_cycles(gpu);
  const double dram_waited_reads = warps_gpu * t.dram_read_bytes * waited_read_share(k.mix);
  const double peer_reads = warps_gpu * t.peer_read_bytes;
  return {{
      {t.lg_data_wavefronts ? "l1 data stage" : "shared bandwidth",
       {&MemoryLatencies::shared, warps_sm * data_stage, gpu.band.shared_per_sm,
        sm_idle + barrier_wait_cycles(k, gpu)}},
      {"l1 bandwidth", {&MemoryLatencies::l1, warps_sm * t.l1_bytes, gpu.band.l1_per_sm, sm_idle}},
      {"l2 bandwidth", {&MemoryLatencies::l2, warps_gpu * l2, gpu.band.l2}},
      {"dram bandwidth", {&MemoryLatencies::dram, warps_gpu * dram, gpu.band.dram}},
      // The tag stage is each SM's own: the busiest SM's scattered sectors against one SM's rate.
      {"uncoalesced bandwidth",
       {&MemoryLatencies::uncoal_extra, warps_sm * uncoalesced, gpu.band.uncoal_per_sm, sm_idle}},
      // One slice serves every atomic to its addresses: the wave's share of the busiest slice's sectors at its rate.
      {"l2 slice atomics", {&MemoryLatencies::l2, warps_gpu * t.l2_slice_atomic_sectors, gpu.band.l2_slice_atomics}},
      // Stores to one word from many warps serialise in its slice (a flag every warp sets).
      {"l2 hot slice", {&MemoryLatencies::l2, warps_gpu * l2_hot_slice_sectors(k, gpu), gpu.band.l2_hot_slice}},
      {"dram concurrency",
       {&MemoryLatencies::dram, dram_waited_reads,
        concurrency_bandwidth(k, gpu,
                              {gpu.dram_concurrency, t.dram_read_bytes, gpu.memory.dram, k.hits.dram, dram_write_share},
                              warps_gpu, dram_waited_reads, sm_idle)}},
      // A peer's reads: the local writes of a copy from it do not slow them (microbench_dram_inflight --peer 1). A
      // warp that reads remotely waits a peer round trip, longer than a local warp's, so it holds its slot longer and
      // remote warps hold more of the slots than their share of the warps: Little's law over the warp's path
      // (lines_held_per_warp) gives their lines, up to a whole warp's group for each (share: the peer's hit fraction).
      {"peer concurrency",
       {&MemoryLatencies::peer, peer_reads,
        concurrency_bandwidth(k, gpu, {gpu.peer_concurrency, t.peer_read_bytes, gpu.memory.peer, k.hits.peer, 0},
                              warps_gpu, peer_reads, sm_idle)}},
  }};
}

}  // namespace

double warps_per_processing_block(double warps_per_sm, uint32_t processing_blocks) {
  return std::ceil(warps_per_sm / std::max<uint32_t>(processing_blocks, 1));
}

WaveTime wave_time(const KernelTuple& kernel, const GpuTuple& gpu, const WaveShape& shape,
                   const FixedPointOptions& options) {
  const double warps_pb =
      warps_per_processing_block(shape.blocks_per_sm * kernel.warps_per_block, gpu.processing_blocks);
  const WaveTimeFn sm_time = [&](const MemoryLatencies& lat) {
    return processing_block_time(kernel, gpu, lat, warps_pb).cycles;
  };
  WaveTime wave;
  wave.latencies = gpu.memory;
  const BlockTime start = processing_block_time(kernel, gpu, wave.latencies, warps_pb);
  wave.cycles = start.cycles;
  wave.limiter = start.issue_bound ? "issue" : "latency";
  for (const NamedLevel& named : levels(kernel, gpu, shape)) {
    const FixedPoint settled = settle_bandwidth(sm_time, wave.latencies, named.level, wave.cycles, options);
    if (settled.time > wave.cycles * (1 + options.tolerance)) wave.limiter = named.limiter;
    wave.cycles = std::max(wave.cycles, settled.time);
  }
  return wave;
}

}  // namespace warpsim::models::wave
