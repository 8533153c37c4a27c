#pragma once
// From a trace kernel to the nets the model runs: the average instruction mix of one warp, the net parameters from
// the GPU spec, and which warps share an SM in each wave.
//
// Mix: kernel totals of warp-level counters divided by the kernel's warps (blocks x warps per block); every warp of a
// net gets the average (fractions spread over the warps, see share()). Waves: the resident blocks per SM of the
// occupancy calculator make a full wave; the last, partial wave puts ceil(tail blocks / SMs) blocks on the busiest SM.
#include <cstdint>
#include <vector>

#include "petri/extended_net.h"
#include "petri/instruction_kind.h"
#include "petri/net.h"
#include "petri/variant.h"
#include "petri/warp_net.h"
#include "platform.pb.h"
#include "trace.pb.h"
#include "wave_plan.h"

namespace warpsim::models::petri {

/// Average per warp of the paper's three kinds. Memory kinds count accesses, as the paper does ("the numbers of
/// read/write operations from/to the shared and global memory"): one access moves one 128-byte block, and a warp
/// instruction whose addresses span several blocks, or several banks' rows, accesses memory repeatedly (section 2 of
/// the paper; its net has no repeated accesses or bank conflicts of its own, so they enter as more accesses).
struct PaperMix {
  double arithmetic = 0;  // warp instructions that are not shared or global accesses
  double shared = 0;      // shared wavefronts (one per conflict-free 128 bytes); shared ld/st/atom, ldmatrix without
  double global = 0;      // L1 sectors / 4 (global and local); global ld/st/atom/red, ldgsts, TMA, local ld/st without
};

PaperMix paper_mix(const KernelCounters& counters, double warps);

/// Global and local accesses of 128 bytes: the L1 sectors over 4, at least one per warp instruction (atomics and
/// reductions pass L1 without sectors); the warp instructions when the counters lack the sectors.
double global_accesses(const KernelCounters& counters);

/// Shared-memory accesses: the shared wavefronts (a bank conflict replays a wavefront), at least one per warp
/// instruction; the warp instructions when the counters lack the wavefronts.
double shared_accesses(const KernelCounters& counters);

/// Net steps per SM cycle: kPaperStepsPerCycle for the paper's net, 1 for the platform variant (whose warp issues
/// one instruction per scheduler token and step).
double steps_per_cycle(Variant variant);

/// Average warp instructions per warp by kind: arithmetic from the pipe counters (fma -> fp32, fp64, alu -> int,
/// xu -> sfu; tensor as mma.sync m16n8k16 FP16 instructions of the kernel's tensor work at `lanes`' rates,
/// tensor_work.h), memory from the warp-level instruction counters, and what no pipe or memory counter covers
/// (branches, uniform-datapath and control instructions) counted as int.
PerKind<double> kind_mix(const KernelCounters& counters, double warps, const platform::Lanes& lanes);

/// Instruction count of warp number `warp` for an average of `a`: floor((w+1) a + 1/2) - floor(w a + 1/2). Warps
/// 0..n-1 together do round(n a), and no two differ by more than one.
Tokens share(double average, uint32_t warp);

PaperParams paper_params(const platform::GpuSpec& gpu);

/// Latency of a global (or local) access in SM cycles: the L1/L2/DRAM latencies weighted by the kernel's sector hit
/// rates, h1 l1_hit + (1 - h1) (h2 l2_hit + (1 - h2) dram); the DRAM latency when the counters lack the hit rates.
double global_latency_cycles(const KernelCounters& counters, const platform::SmSpec& sm);

/// DRAM requests one SM may have in flight (README.md, "DRAM slots"): its share of the sustained DRAM bandwidth in
/// bytes per cycle, times the latency a request holds a slot, over the kernel's DRAM bytes per global or local warp
/// instruction. 0 (unbounded) when the kernel moves no DRAM bytes or issues no such instruction.
Tokens dram_slots(const KernelCounters& counters, const platform::GpuSpec& gpu, double latency_cycles);

ExtendedParams extended_params(const KernelCounters& counters, const platform::GpuSpec& gpu);

/// A slice of the mix for a cheaper simulation: every warp gets `counts` (per kind, in the variant's kind order), and
/// `factor` scales the slice's steps to the whole mix's.
struct MixSlice {
  std::vector<Tokens> counts;
  double factor = 1;
};

/// The nets of one kernel: builds the net of one SM for any number of resident warps, with the whole mix or a slice.
class KernelNets {
 public:
  KernelNets(Variant variant, const KernelCounters& counters, uint64_t total_warps, const platform::GpuSpec& gpu);

  /// Average instructions per warp of the whole mix.
  double instructions_per_warp() const;
  /// Roughly how many transition firings one instruction costs, for sizing slices.
  double firings_per_instruction() const;

  /// The net of one SM holding `warps` warps with the whole mix: each warp the average count of each kind, the
  /// fractions spread over the warps (share()).
  Net build(uint32_t warps) const;

  /// About `instructions` per warp of the same mix, every warp alike. The kind that weighs most in firings (count x
  /// cost: a rare global load can outweigh many additions) gets an exact integer count, the others round to nearest;
  /// `factor` is the ratio of the whole mix's firings to the slice's, so a kind that rounded down is made up for.
  MixSlice slice(double instructions) const;
  Net build(uint32_t warps, const MixSlice& slice) const;

 private:
  Net build_warps(const std::vector<std::vector<Tokens>>& warps) const;

  Variant variant_;
  std::vector<double> mix_;   // average instructions per warp, per kind of the variant
  std::vector<double> cost_;  // firings per instruction of each kind (its steps for a lone warp)
  PaperParams paper_params_;
  ExtendedParams extended_params_;
};

/// Which warps share an SM: the grid's waves (wave_plan.h: `full_waves` waves of blocks_per_sm blocks each, then a
/// tail of tail_blocks_per_sm on the busiest SM) and the warps of each block.
struct WarpPlan {
  WavePlan waves;
  uint32_t warps_per_block = 1;
  uint64_t total_warps() const { return waves.blocks * warps_per_block; }
  uint32_t full_wave_warps() const { return waves.blocks_per_sm * warps_per_block; }
  uint32_t tail_wave_warps() const { return waves.tail_blocks_per_sm * warps_per_block; }
};

WarpPlan warp_plan(const KernelLaunch& launch, const platform::GpuSpec& gpu);

}  // namespace warpsim::models::petri
