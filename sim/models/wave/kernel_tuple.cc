#include "wave/kernel_tuple.h"

#include <algorithm>
#include <cmath>

#include "kernel_work.h"
#include "load_hits.h"
#include "numeric.h"
#include "occupancy.h"

namespace warpsim::models::wave {
namespace {

double fraction(double pct) { return std::clamp(pct / 100, 0.0, 1.0); }

// One request per warp-level global or local memory instruction (NVIDIA: each such instruction sends one request
// to L1TEX), where l1tex__t_requests was not recorded.
double l1_requests(const KernelCounters& c) {
  if (c.memory().has_l1_requests()) return as_double(c.memory().l1_requests());
  const WarpInstructions& w = c.warp_instructions();
  return as_double(w.global_ld() + w.global_st() + w.global_atom() + w.global_red() + w.local_ld() + w.local_st());
}

// Lanes of a warp request: a request whose lanes all touch different lines takes this many data-stage wavefronts.
constexpr double kLanesPerRequest = 32;

// How far the requests are from coalesced, as a share of a fully scattered request's extra cost (README.md): where
// the trace has the L1's global/local data wavefronts, (wavefronts per request - 1) / (lanes - 1), the passes
// beyond the first that a request took; else the share of sectors a coalesced request (4 sectors, one 128-byte line)
// would not need, 1 - 4 / sectors per request.
double uncoalesced_share(const KernelCounters& c) {
  const MemoryTraffic& m = c.memory();
  if (m.has_l1_lgds_data_wavefronts() && m.l1_lg_requests() > 0) {
    const double per_request = as_double(m.l1_lgds_data_wavefronts()) / as_double(m.l1_lg_requests());
    return std::clamp((per_request - 1) / (kLanesPerRequest - 1), 0.0, 1.0);
  }
  const double requests = l1_requests(c);
  if (requests <= 0 || !c.memory().has_l1_sectors()) return 0;
  const double per_request = as_double(c.memory().l1_sectors()) / requests;
  return per_request <= kSectorsPerCoalescedRequest ? 0 : 1 - kSectorsPerCoalescedRequest / per_request;
}

PerClass issued(const KernelWork& work, const platform::Lanes& lanes) {
  PerClass n{};
  n[index(InstClass::kFp32)] = work.pipes.fma;
  n[index(InstClass::kInt)] = work.pipes.alu;
  n[index(InstClass::kFp64)] = work.pipes.fp64;
  n[index(InstClass::kSfu)] = work.pipes.xu;
  // Tensor work as mma.sync m16n8k16 FP16 instructions, the unit of the tensor class's issue delay (gpu_tuple.cc).
  n[index(InstClass::kTensor)] = tensor_fp16_instructions(work.tensor_flops, lanes);
  n[index(InstClass::kLsu)] = work.pipes.lsu;
  double piped = 0;
  for (double count : n) piped += count;
  n[index(InstClass::kOther)] = std::max(0.0, work.issue_slots - piped);
  return n;
}

WarpInstructionMix mix(const KernelCounters& c, const KernelWork& work, const platform::Lanes& lanes) {
  const WarpInstructions& w = c.warp_instructions();
  WarpInstructionMix m;
  m.issued = issued(work, lanes);
  m.global_loads = as_double(w.global_ld() + w.local_ld() + w.global_atom() + w.ldgsts() + w.tma());
  m.async_copies = as_double(w.ldgsts() + w.tma());
  m.shared_loads = as_double(w.shared_ld() + w.shared_atom() + w.ldsm());
  m.stores = as_double(w.global_st() + w.local_st() + w.global_red() + w.shared_st());
  const double memory = m.global_loads + m.shared_loads + m.stores;
  m.other_lsu = std::max(0.0, work.pipes.lsu - memory);
  m.integer_multiplies = work.pipes.fma_integer;
  m.wide_integer_multiplies = work.pipes.fma_wide_integer;
  m.fp16_fmas = work.pipes.fma_fp16;
  m.adu = work.pipes.adu;
  m.branches = as_double(w.branch());
  return m;
}

WarpInstructionMix per_warp(WarpInstructionMix m, double warps) {
  for (double& count : m.issued) count /= warps;
  m.global_loads /= warps;
  m.async_copies /= warps;
  m.shared_loads /= warps;
  m.stores /= warps;
  m.other_lsu /= warps;
  m.integer_multiplies /= warps;
  m.wide_integer_multiplies /= warps;
  m.fp16_fmas /= warps;
  m.adu /= warps;
  m.branches /= warps;
  return m;
}

WarpTraffic traffic_per_warp(const KernelWork& work, double uncoal_share, double warps) {
  WarpTraffic t;
  t.shared_wavefronts = work.shared_wavefronts / warps;
  t.l1_bytes = work.l1_bytes / warps;
  t.l2_bytes = as_double(work.l2_bytes) / warps;
  // Single-sector requests where the trace counts the L2's requests, else the L1's uncoalesced share estimates them.
  t.l2_scattered_bytes =
      work.l2_single_sector_read_bytes ? *work.l2_single_sector_read_bytes / warps : t.l2_bytes * uncoal_share;
  t.l2_write_bytes = as_double(work.l2_write_bytes) / warps;
  t.l2_scattered_write_bytes = work.l2_single_sector_write_bytes.value_or(0) / warps;
  t.dram_bytes = as_double(work.dram_bytes) / warps;
  t.dram_read_bytes = as_double(work.dram_read_bytes) / warps;
  t.peer_read_bytes = work.peer_read_bytes / warps;
  t.dram_partial_write_bytes = as_double(work.dram_partial_write_bytes) / warps;
  t.uncoal_bytes = t.l1_bytes * uncoal_share;
  t.l2_slice_atomic_sectors = work.l2_slice_atomic_sectors / warps;
  t.l2_busiest_slice_sectors = work.l2_busiest_slice_sectors / warps;
  if (work.lg_data_wavefronts) t.lg_data_wavefronts = *work.lg_data_wavefronts / warps;
  return t;
}

// Of the loads that miss L1, the share a peer GPU serves: its bytes against the local L2's read bytes. Remote loads
// bypass the local L2 (remote_access_sweep on 2xH100 and 2xH200: the L2's read sectors fall as the remote share
// grows, its peer aperture stays 0, NVLink receives the rest).
double peer_share(const MemoryTraffic& m, double peer_read_bytes) {
  const double local = as_double(m.l2_read_sectors()) * static_cast<double>(kSectorBytes);
  return peer_read_bytes > 0 ? peer_read_bytes / (peer_read_bytes + local) : 0;
}

// Of the loads that pass the L2, the share host memory serves: its bytes against the L1's read requests to the L2
// (lts__t_sectors_srcunit_tex_op_read; the L2's own read sectors, where that is unrecorded, count 1.5 a sector on
// GH100). Zero-copy loads pass the L2's system-memory aperture, which the L2's device-side misses leave out, so the
// loads' L2 hit fraction counts them as hits (remote_access --remote host on H200: at 100% host, 1,139 device read
// misses of 12.6 million read sectors).
double host_share(const MemoryTraffic& m, double host_read_bytes) {
  if (host_read_bytes <= 0) return 0;
  const uint64_t sectors = m.has_l2_tex_read_sectors() ? m.l2_tex_read_sectors() : m.l2_read_sectors();
  const double read = as_double(sectors) * static_cast<double>(kSectorBytes);
  return read > 0 ? std::min(1.0, host_read_bytes / read) : 1;
}

// hit_fractions with the kernel's peer and host read bytes (KernelWork) already known.
HitFractions hit_fractions(const KernelCounters& counters, double peer_read_bytes, double host_read_bytes) {
  const MemoryTraffic& m = counters.memory();
  // A hit rate the profiler did not give counts as 0: every request goes on to the next level. The L2's is what
  // loads find there (stores always hit: load_hits.h).
  const double l1_hit = m.has_l1_hit_rate_pct() ? fraction(m.l1_hit_rate_pct()) : 0;
  const double l2_hit = l2_load_hit_fraction(m).value_or(0);
  const double peer = peer_share(m, peer_read_bytes);
  // The host's loads come out of the L2's hits first (where the hit fraction counted them), the rest out of DRAM's.
  const double host = host_share(m, host_read_bytes);
  const double local = (1 - l1_hit) * (1 - peer);
  HitFractions h;
  h.l1 = l1_hit;
  h.l2 = local * std::max(0.0, l2_hit - host);
  h.dram = local * (1 - l2_hit - std::max(0.0, host - l2_hit));
  h.host = local * host;
  h.peer = (1 - l1_hit) * peer;
  h.uncoal = uncoalesced_share(counters);
  return h;
}

}  // namespace

HitFractions hit_fractions(const KernelCounters& counters) {
  const KernelWork work = kernel_work(counters);
  return hit_fractions(counters, work.peer_read_bytes, work.host_read_bytes);
}

double inflight_hit_share(const KernelLaunch& launch, uint32_t blocks_per_sm, double l1_hit) {
  const auto& shares = launch.load_sharing().inflight_request_share();
  if (shares.empty() || l1_hit <= 0) return 0;
  const int at = std::clamp(static_cast<int>(blocks_per_sm), 1, shares.size()) - 1;
  if (!std::isfinite(shares[at])) return 0;  // a corrupt trace's value: no share rather than a NaN time
  return std::clamp(shares[at] / l1_hit, 0.0, 1.0);
}

KernelTuple kernel_tuple(const KernelLaunch& launch, uint32_t warp_size, const platform::Lanes& lanes) {
  const KernelCounters& c = launch.counters();
  const KernelWork work = kernel_work(c, launch.has_sass() ? &launch.sass() : nullptr);
  KernelTuple k;
  const uint64_t threads = threads_per_block(launch);
  const uint32_t ws = std::max<uint32_t>(warp_size, 1);
  k.warps_per_block = static_cast<uint32_t>(std::max<uint64_t>((threads + ws - 1) / ws, 1));
  const double warps = std::max(1.0, as_double(grid_blocks(launch)) * k.warps_per_block);
  k.hits = hit_fractions(c, work.peer_read_bytes, work.host_read_bytes);
  k.mix = per_warp(mix(c, work, lanes), warps);
  k.traffic = traffic_per_warp(work, k.hits.uncoal, warps);
  k.schedule = compiler_schedule(launch);
  if (k.schedule) {
    const double issued = work.issue_slots / warps;
    k.syncs = issued * k.schedule->barriers_per_instruction;
    k.schedule->global_loads_per_stall =
        warp_global_loads_per_stall(launch, *k.schedule, issued, waited_global_loads(k.mix));
    k.schedule->issue_cycles = warp_issue_cycles(launch, *k.schedule, issued);
    k.schedule->constant_stalls = warp_constant_stalls(launch, *k.schedule, issued);
  }
  return k;
}

}  // namespace warpsim::models::wave
