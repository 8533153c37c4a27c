#pragma once
// Paper 001's GPU model m_gpu = <smCount, lat_inst, delay_inst, lat_mem, band_mem, limits>, taken from a GpuSpec.
// Everything is in SM clock cycles and bytes per SM clock, so the wave model never converts units.
// (The residency limits stay in the GpuSpec: occupancy() reads them there.)
#include <array>
#include <cstddef>
#include <cstdint>

#include "platform.pb.h"
#include "wave/memory_latency.h"

namespace warpsim::models::wave {

/// Instruction classes, one per execution pipe the counters count (smsp__inst_executed_pipe_<pipe>), plus "other"
/// for issued instructions no such pipe counts (branches, uniform datapath, TMA, ...).
enum class InstClass : std::size_t { kFp32, kInt, kFp64, kSfu, kTensor, kLsu, kOther };
inline constexpr std::size_t kInstClassCount = 7;
using PerClass = std::array<double, kInstClassCount>;

constexpr std::size_t index(InstClass c) { return static_cast<std::size_t>(c); }

/// Bandwidths of the memory levels in bytes per SM clock (shared: wavefronts per clock).
struct Bandwidths {
  double shared_per_sm = 0;     // shared-memory wavefronts per clock per SM
  double l1_per_sm = 0;         // L1/shared data stage, per SM
  double l2 = 0;                // whole GPU
  double dram = 0;              // whole GPU, at the measured streaming efficiency
  double dram_scattered = 0;    // whole GPU, random single sectors (0: unmeasured, they stream)
  double l2_scattered = 0;      // whole GPU, single-sector requests (0: unmeasured, they stream)
  double l2_write = 0;          // whole GPU, written sectors (0: unmeasured, at the read rate)
  double l2_scattered_write = 0;  // whole GPU, written sectors of single-sector stores (0: unmeasured, at l2_write)
  double uncoal_per_sm = 0;     // sectors of scattered requests an L1 tag stage resolves per clock, in bytes
  double l2_slice_atomics = 0;  // atomic sectors one L2 slice executes per clock (0: unmeasured, no bound)
  double l2_hot_slice = 0;      // a hot spot's sectors one L2 slice takes in per clock (0: unmeasured, no bound)
};

/// How a processing block's issue time adds up over instruction classes. Paper 001 sums every instruction's issue
/// delay (a wide-pipe FP32 instruction and a narrow-pipe integer one never overlap). `kPipesOverlap` is the hardware
/// view: the scheduler issues one instruction per clock and each pipe accepts one every `delay` clocks, so the time
/// is the larger of the issue slots and the busiest pipe's occupancy.
enum class IssueRule { kSumOfDelays, kPipesOverlap };

/// How a kernel's blocks go through the SMs. Paper 001 hands the whole grid out (the launch regression's per-block
/// part) before the waves run. `kPipelined` is what workloads/microbench_blocks and microbench_dram_inflight measured:
/// the dispatcher hands blocks out while earlier ones run (only the first wave's waits), each wave's blocks leave
/// their slots empty for the GPU's block turnaround before the next wave's start, and DRAM serves a wave's reads at
/// the rate its loads in flight reach (MemorySpec.dram_concurrency), not at the streaming rate.
enum class BlockRule { kDispatchFirst, kPipelined };

struct GpuTuple {
  IssueRule issue = IssueRule::kSumOfDelays;
  uint32_t sm_count = 0;
  uint32_t l2_slices = 0;          // 0: unmeasured
  uint32_t processing_blocks = 0;  // warp schedulers per SM
  uint32_t warp_size = 0;
  double clock_hz = 0;
  PerClass latency{};      // dependent-issue latency of each class, cycles (kLsu: non-memory LSU work, e.g. shuffles)
  PerClass delay{};        // issue delay of each class: cycles its processing block spends issuing one warp instruction
  // Cycles a processing block's warp instruction takes of the SM's one address-divergence unit when every scheduler
  // sends it work: schedulers / its rate per SM clock. 0: not priced (a GPU file without the rate).
  double adu_delay = 0;
  double hfma2_delay = 0;  // the same for a packed FP16 FMA (HFMA2): two FP16 results a lane, lanes.fp16 / 2 lanes
  MemoryLatencies memory;  // nominal latencies of the memory levels
  Bandwidths band;
  BlockRule blocks = BlockRule::kDispatchFirst;
  double block_turnaround = 0;                 // cycles a block slot stays empty between two blocks (0: unmeasured)
  platform::DramConcurrency dram_concurrency;  // empty: unmeasured, no concurrency bound
  platform::DramConcurrency peer_concurrency;  // the same for a peer GPU's memory over NVLink
};

/// m_gpu for `gpu`; see README.md for where each number comes from.
GpuTuple gpu_tuple(const platform::GpuSpec& gpu);

/// Paper 001's issue delay of a lane-based class: max(1, warp_size / lanes per processing block), where lanes per
/// processing block = lanes per SM / schedulers. No lanes (a unit the GPU lacks): warp_size, as if one lane.
double issue_delay(double lanes_per_sm, uint32_t processing_blocks, uint32_t warp_size);

}  // namespace warpsim::models::wave
