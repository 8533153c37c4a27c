#pragma once
// Paper 001's kernel model m_kernel = <time, delay, mem, uncoalMem, l1pct, l2pct, syncs, registers, sharedMem>, from
// a kernel's counters instead of a static analysis of its LLVM IR. Everything is per warp: a warp issues its main
// thread's instruction stream once for all its threads, so the paper's per-thread counts are kernel totals / warps.
// `time` and `delay` need the GPU's latencies, so warp_time.h computes them from the counts kept here.
// Registers and shared memory stay in the launch, where occupancy() reads them.
#include <cstdint>
#include <optional>

#include "compiler_schedule.h"
#include "platform.pb.h"
#include "trace.pb.h"
#include "wave/gpu_tuple.h"
#include "wave/memory_latency.h"

namespace warpsim::models::wave {

/// Warp instructions of one warp, split by what they wait for on its dependent path.
struct WarpInstructionMix {
  PerClass issued{};        // every issued instruction by class: what the issue delays sum over
  double global_loads = 0;  // global and local loads, atomics, LDGSTS, TMA: wait for the memory levels
  // Of global_loads, the asynchronous copies to shared memory (LDGSTS, TMA): a warp does not wait on them one by one
  // but on a pipeline stage of them at a barrier, with the next stages' copies already in flight.
  double async_copies = 0;
  double shared_loads = 0;  // shared loads and atomics, LDSM: wait for shared memory
  double stores = 0;        // global, local and shared stores, reductions: the warp does not wait for them
  double other_lsu = 0;     // the rest of the LSU pipe (shuffles, ...)
  // Of issued[kFp32] (the FMA pipe's count), the integer multiply-adds, on the FMA-heavy pipe alone, and of them the
  // 64-bit IMAD.WIDE (kernel_work.h).
  double integer_multiplies = 0;
  double wide_integer_multiplies = 0;
  // Of issued[kFp32], the packed FP16 FMAs (HFMA2), on the FMA-heavy pipe alone (kernel_work.h).
  double fp16_fmas = 0;
  double adu = 0;       // instructions for the SM's address-divergence unit (kernel_work.h)
  double branches = 0;  // branch instructions (warp_instructions.branch): each waits to resolve (warp_time.h)
};

/// The global loads a warp waits on one by one (a register result): all but the asynchronous copies.
inline double waited_global_loads(const WarpInstructionMix& m) { return m.global_loads - m.async_copies; }

/// Bytes (shared: wavefronts) one warp moves through each level; every byte passing through a level uses its bandwidth.
struct WarpTraffic {
  double shared_wavefronts = 0;
  double l1_bytes = 0;                  // l1tex__t_bytes: global and local traffic through the L1, hits and misses
  double l2_bytes = 0;                  // lts__t_bytes
  double l2_scattered_bytes = 0;        // of l2_bytes, those of scattered requests (the uncoalesced share)
  double l2_write_bytes = 0;            // of l2_bytes, the written sectors' (kernel_work.h)
  double l2_scattered_write_bytes = 0;  // of l2_write_bytes, single-sector stores' (kernel_work.h)
  double dram_bytes = 0;                // dram read + write
  double dram_read_bytes = 0;           // of dram_bytes, the reads
  double peer_read_bytes = 0;           // read from a peer GPU's memory (kernel_work.h)
  double dram_partial_write_bytes = 0;  // of dram_bytes, partial-sector stores' fills and write-backs (kernel_work.h)
  double uncoal_bytes = 0;              // the sectors beyond 4 per request, in bytes
  double l2_slice_atomic_sectors = 0;   // this warp's share of the busiest L2 slice's atomic sectors
  double l2_busiest_slice_sectors = 0;  // this warp's share of the busiest L2 slice's sectors, every kind
  // The L1 data stage's wavefronts for global, local (and distributed shared) accesses, where the trace has them
  // (l1_lgds_data_wavefronts): a request over n lines takes about n. Without them, uncoal_bytes estimates the cost.
  std::optional<double> lg_data_wavefronts;
};

struct KernelTuple {
  WarpInstructionMix mix;
  WarpTraffic traffic;
  HitFractions hits;  // l1pct, l2pct, drampct, uncoalpct
  double syncs = 0;   // barriers per warp: from the SASS summary's share of barriers in the code, else 0 (README.md)
  uint32_t warps_per_block = 0;
  uint32_t recorded_l2_slices = 0;  // of the GPU the counters come from (KernelView), 0: unknown, the target's
  // The compiler's issue spacing and load-use distances, when the trace has the kernel's SASS summary: the dependent
  // path then follows them instead of taking every instruction as dependent on the one before (README.md).
  std::optional<CompilerSchedule> schedule;
};

/// m_kernel of `launch`, which must have counters; `warp_size` from the GPU (32 on every CUDA GPU).
KernelTuple kernel_tuple(const KernelLaunch& launch, uint32_t warp_size, const platform::Lanes& lanes);

/// Of the L1 hit fraction `l1_hit`, the part whose lines were still on their way from the lower levels: the launch's
/// LoadSharing at `blocks_per_sm` resident blocks (its last element beyond them), at most all hits. 0 without it.
double inflight_hit_share(const KernelLaunch& launch, uint32_t blocks_per_sm, double l1_hit);

/// Fractions of requests served by L1, L2, DRAM and a peer GPU from the sector hit rates and the peer's read bytes;
/// uncoalesced share from sectors per request (l1_requests, else the warp-level global and local memory
/// instructions).
HitFractions hit_fractions(const KernelCounters& counters);

}  // namespace warpsim::models::wave
