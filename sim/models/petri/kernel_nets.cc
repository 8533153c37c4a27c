#include "petri/kernel_nets.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "gpu_rates.h"
#include "kernel_work.h"
#include "load_hits.h"
#include "numeric.h"
#include "occupancy.h"

namespace warpsim::models::petri {
namespace {

double global_instructions(const WarpInstructions& w) {
  return as_double(w.global_ld() + w.global_st() + w.global_atom() + w.global_red() + w.ldgsts() + w.tma());
}

double local_instructions(const WarpInstructions& w) { return as_double(w.local_ld() + w.local_st()); }

double shared_instructions(const WarpInstructions& w) {
  return as_double(w.shared_ld() + w.shared_st() + w.shared_atom() + w.ldsm());
}

double per_warp(double total, double warps) { return warps > 0 ? std::max(0.0, total) / warps : 0; }

Tokens cycles(double latency) { return std::max<Tokens>(1, std::llround(latency)); }

// The pipes a kind waits for. Warp instructions retire at lanes / warp_size per clock (gpu_rates.h).
std::vector<PipeSpec> pipes(const platform::GpuSpec& gpu) {
  const platform::Lanes& lanes = gpu.sm().lanes();
  const uint32_t ws = gpu.sm().warp_size();
  return {{"fma", pipe_warp_rate(lanes.fp32(), ws)},
          {"fp64", pipe_warp_rate(lanes.fp64(), ws)},
          {"alu", pipe_warp_rate(lanes.int32(), ws)},
          {"xu", pipe_warp_rate(lanes.sfu(), ws)},
          {"tensor", lanes.tensor_flops_per_cycle() / kFlopPerTensorInstruction},
          {"lsu", pipe_warp_rate(lanes.ldst(), ws)}};
}

enum PipeIndex : int { kFma, kFp64Pipe, kAlu, kXu, kTensorPipe, kLsu };

// One access moves one 128-byte block (the paper, section 2: global memory is accessed in blocks of 32, 64 or 128
// bytes, and a warp whose addresses span several blocks accesses it repeatedly): four 32-byte L1 sectors, the sectors
// of a coalesced request (kernel_work.h).
constexpr double kSectorsPerAccess = kSectorsPerCoalescedRequest;

}  // namespace

double global_accesses(const KernelCounters& counters) {
  const WarpInstructions& w = counters.warp_instructions();
  const double instructions = global_instructions(w) + local_instructions(w);
  const MemoryTraffic& m = counters.memory();
  if (!m.has_l1_sectors()) return instructions;
  return std::max(instructions, as_double(m.l1_sectors()) / kSectorsPerAccess);
}

double shared_accesses(const KernelCounters& counters) {
  const double instructions = shared_instructions(counters.warp_instructions());
  const MemoryTraffic& m = counters.memory();
  if (!m.has_shared_wavefronts()) return instructions;
  return std::max(instructions, as_double(m.shared_wavefronts()));
}

PaperMix paper_mix(const KernelCounters& counters, double warps) {
  const WarpInstructions& w = counters.warp_instructions();
  const double memory_instructions = global_instructions(w) + local_instructions(w) + shared_instructions(w);
  const double arithmetic = kernel_work(counters).issue_slots - memory_instructions;
  return PaperMix{per_warp(arithmetic, warps), per_warp(shared_accesses(counters), warps),
                  per_warp(global_accesses(counters), warps)};
}

double steps_per_cycle(Variant variant) { return variant == Variant::kPaper ? kPaperStepsPerCycle : 1; }

PerKind<double> kind_mix(const KernelCounters& counters, double warps, const platform::Lanes& lanes) {
  const KernelWork work = kernel_work(counters);
  const WarpInstructions& w = counters.warp_instructions();
  PerKind<double> total{};
  total[kind_index(InstructionKind::kFp32)] = work.pipes.fma;
  total[kind_index(InstructionKind::kFp64)] = work.pipes.fp64;
  total[kind_index(InstructionKind::kInt)] = work.pipes.alu;
  total[kind_index(InstructionKind::kSfu)] = work.pipes.xu;
  total[kind_index(InstructionKind::kTensor)] = tensor_fp16_instructions(work.tensor_flops, lanes);
  total[kind_index(InstructionKind::kShared)] = shared_instructions(w);
  total[kind_index(InstructionKind::kGlobal)] = global_instructions(w);
  total[kind_index(InstructionKind::kLocal)] = local_instructions(w);
  double covered = 0;
  for (const double t : total) covered += t;
  total[kind_index(InstructionKind::kInt)] += std::max(0.0, work.issue_slots - covered);
  PerKind<double> mix{};
  for (size_t k = 0; k < kInstructionKinds; ++k) mix[k] = per_warp(total[k], warps);
  return mix;
}

Tokens share(double average, uint32_t warp) {
  const double a = std::max(0.0, average);
  return static_cast<Tokens>(std::floor((warp + 1.0) * a + 0.5) - std::floor(warp * a + 0.5));
}

PaperParams paper_params(const platform::GpuSpec& gpu) {
  PaperParams params;
  params.schedulers = std::max<Tokens>(1, gpu.sm().schedulers());
  return params;  // l1 = 20, l2 = 2: the paper's defaults
}

double global_latency_cycles(const KernelCounters& counters, const platform::SmSpec& sm) {
  const MemoryTraffic& m = counters.memory();
  const platform::Latencies& lat = sm.latency_cycles();
  const std::optional<double> l2_load_hit = l2_load_hit_fraction(m);
  if (!m.has_l1_hit_rate_pct() || !l2_load_hit) return lat.dram();
  const double h1 = std::clamp(m.l1_hit_rate_pct() / 100, 0.0, 1.0);
  const double h2 = *l2_load_hit;
  return h1 * lat.l1_hit() + (1 - h1) * (h2 * lat.l2_hit() + (1 - h2) * lat.dram());
}

Tokens dram_slots(const KernelCounters& counters, const platform::GpuSpec& gpu, double latency_cycles) {
  const MemoryTraffic& m = counters.memory();
  const WarpInstructions& w = counters.warp_instructions();
  const double bytes = as_double(m.dram_read_bytes() + m.dram_write_bytes());
  const double requests = global_instructions(w) + local_instructions(w);
  if (bytes <= 0 || requests <= 0 || gpu.sm_count() == 0 || gpu.sm_clock_mhz() <= 0) return 0;
  const GpuRates rates = GpuRates::of(gpu);
  // A spec without an efficiency (0) streams at the peak. (The peak x 1 is the peak, to the bit.)
  const double sustained =
      gpu.memory().dram_efficiency() > 0 ? rates.dram_sustained_bytes_per_s : rates.dram_peak_bytes_per_s;
  const double bytes_per_cycle_per_sm = dram_bytes_per_sm_cycle(sustained, rates);
  const double slots = bytes_per_cycle_per_sm * latency_cycles / (bytes / requests);
  return std::max<Tokens>(1, static_cast<Tokens>(std::ceil(slots)));
}

ExtendedParams extended_params(const KernelCounters& counters, const platform::GpuSpec& gpu) {
  const platform::SmSpec& sm = gpu.sm();
  const platform::Latencies& lat = sm.latency_cycles();
  const double global = global_latency_cycles(counters, sm);
  ExtendedParams params;
  params.schedulers = std::max<Tokens>(1, sm.schedulers());
  params.pipes = pipes(gpu);
  auto set = [&params](InstructionKind k, double latency, int pipe) {
    params.kinds[kind_index(k)] = {cycles(latency), pipe};
  };
  set(InstructionKind::kFp32, lat.fp32(), kFma);
  set(InstructionKind::kFp64, lat.fp64(), kFp64Pipe);
  set(InstructionKind::kInt, lat.int32(), kAlu);
  set(InstructionKind::kSfu, lat.sfu(), kXu);
  set(InstructionKind::kTensor, lat.fp32(), kTensorPipe);  // no tensor latency in GpuSpec: fp32's, a lower bound
  set(InstructionKind::kShared, lat.shared(), kLsu);
  set(InstructionKind::kGlobal, global, kLsu);
  set(InstructionKind::kLocal, global, kLsu);  // local memory is cached and backed like global memory
  params.dram_slots = dram_slots(counters, gpu, global);
  return params;
}

KernelNets::KernelNets(Variant variant, const KernelCounters& counters, uint64_t total_warps,
                       const platform::GpuSpec& gpu)
    : variant_(variant) {
  const double warps = static_cast<double>(std::max<uint64_t>(total_warps, 1));
  if (variant == Variant::kPaper) {
    const PaperMix m = paper_mix(counters, warps);
    paper_params_ = paper_params(gpu);
    mix_ = {m.arithmetic, m.shared, m.global};
    // Steps of a lone warp's instruction (warp_net.h): 4, 5 + l2, 5 + l1.
    cost_ = {4, 5 + static_cast<double>(paper_params_.shared_latency),
             5 + static_cast<double>(paper_params_.global_latency)};
    return;
  }
  const PerKind<double> m = kind_mix(counters, warps, gpu.sm().lanes());
  extended_params_ = extended_params(counters, gpu);
  mix_.assign(m.begin(), m.end());
  for (const KindSpec& k : extended_params_.kinds) {
    // sel, t1, exec, done, plus the latency ticks (extended_net.h).
    cost_.push_back(4 + static_cast<double>(std::max<Tokens>(0, k.latency - kFixedStepsPerInstruction)));
  }
}

double KernelNets::instructions_per_warp() const {
  double sum = 0;
  for (const double x : mix_) sum += x;
  return sum;
}

double KernelNets::firings_per_instruction() const {
  const double n = instructions_per_warp();
  if (n <= 0) return 1;
  double firings = 0;
  for (size_t k = 0; k < mix_.size(); ++k) firings += mix_[k] * cost_[k];
  return firings / n;
}

Net KernelNets::build(uint32_t warps) const {
  std::vector<std::vector<Tokens>> counts(warps, std::vector<Tokens>(mix_.size()));
  for (uint32_t w = 0; w < warps; ++w) {
    for (size_t k = 0; k < mix_.size(); ++k) counts[w][k] = share(mix_[k], w);
  }
  return build_warps(counts);
}

MixSlice KernelNets::slice(double instructions) const {
  const double whole = instructions_per_warp();
  if (whole <= 0 || instructions >= whole) return {std::vector<Tokens>(mix_.begin(), mix_.end()), 1};
  size_t heaviest = 0;
  for (size_t k = 0; k < mix_.size(); ++k) {
    if (mix_[k] * cost_[k] > mix_[heaviest] * cost_[heaviest]) heaviest = k;
  }
  const double nominal = instructions / whole;
  const double exact = std::max(1.0, std::round(mix_[heaviest] * nominal));
  const double scale = std::min(1.0, exact / mix_[heaviest]);
  MixSlice slice;
  double whole_firings = 0;
  double slice_firings = 0;
  for (size_t k = 0; k < mix_.size(); ++k) {
    slice.counts.push_back(std::llround(mix_[k] * scale));
    whole_firings += mix_[k] * cost_[k];
    slice_firings += static_cast<double>(slice.counts[k]) * cost_[k];
  }
  slice.factor = slice_firings > 0 ? whole_firings / slice_firings : 1;
  return slice;
}

Net KernelNets::build(uint32_t warps, const MixSlice& slice) const {
  return build_warps(std::vector<std::vector<Tokens>>(warps, slice.counts));
}

Net KernelNets::build_warps(const std::vector<std::vector<Tokens>>& warps) const {
  if (variant_ == Variant::kPaper) {
    std::vector<PaperWarp> nets;
    for (const std::vector<Tokens>& c : warps) nets.push_back({c.at(0), c.at(1), c.at(2)});
    return paper_sm_net(nets, paper_params_);
  }
  std::vector<PerKind<Tokens>> nets(warps.size());
  for (size_t w = 0; w < warps.size(); ++w) std::copy_n(warps[w].begin(), kInstructionKinds, nets[w].begin());
  return extended_sm_net(nets, extended_params_);
}

WarpPlan warp_plan(const KernelLaunch& launch, const platform::GpuSpec& gpu) {
  const Occupancy occ = occupancy(launch, gpu.sm());
  return WarpPlan{wave_plan(launch, occ, gpu), std::max<uint32_t>(occ.warps_per_block, 1)};
}

}  // namespace warpsim::models::petri
