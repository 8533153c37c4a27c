#include "mwp/mwp_model.h"

#include <algorithm>
#include <limits>

#include "kernel_work.h"
#include "occupancy.h"
#include "prediction_shape.h"
#include "wave_plan.h"

namespace warpsim::models {
namespace mwp {
namespace {

constexpr double kUnbounded = std::numeric_limits<double>::infinity();

// a / b where b = 0 means "no bound" (a spec or kernel without that rate cannot limit anything).
double quotient(double a, double b) { return b <= 0 ? kUnbounded : a / b; }

// BW_per_warp = Freq x Load_bytes_per_warp / Mem_L (M7): the bandwidth one warp's requests take, in bytes/s.
double bw_per_warp(const MwpInputs& in, double mem_latency) {
  return quotient(in.freq * in.load_bytes_per_warp, mem_latency);
}

// MWP_peak_BW = Mem_Bandwidth / (BW_per_warp x #Active_SMs) (M8): the warps in flight that the DRAM can feed.
double mwp_peak_bw(const MwpInputs& in, double warp_bandwidth, uint32_t active_sms) {
  if (in.mem_bandwidth <= 0) return kUnbounded;
  return quotient(in.mem_bandwidth, warp_bandwidth * active_sms);
}

// CWP_full = (Mem_cycles + Comp_cycles) / Comp_cycles (M12): warps whose computation fits in one warp's memory
// period, + 1.
double cwp_full(const MwpInputs& in, double memory_cycles) {
  return quotient(memory_cycles + in.comp_cycles, in.comp_cycles);
}

// The paper's summary equation, its conditions in its order: MWP = N and CWP = N; else CWP >= MWP or
// Comp_cycles > Mem_cycles; else (MWP > CWP).
Case which_case(const MwpInputs& in, const Round& r) {
  if (in.mem_insts() <= 0) return Case::kNoMemory;
  if (r.mwp == r.n && r.cwp == r.n) return Case::kNotEnoughWarps;  // both capped at N: min() returns N itself
  if (r.cwp >= r.mwp) return Case::kMemoryBound;
  if (in.comp_cycles > r.mem_cycles) return Case::kComputeOverMemory;
  return Case::kComputeBound;
}

// The paper's three cases for one repetition. Comp_p = Comp_cycles / #Mem_insts is the computation between two
// memory instructions; (MWP - 1) of them are exposed. MWP can fall below 1 when bandwidth is that tight: the exposed
// computation term then stays at 0 rather than subtracting cycles.
double exec_cycles(const MwpInputs& in, const Round& r) {
  const double comp_p = in.mem_insts() > 0 ? in.comp_cycles / in.mem_insts() : 0;
  const double exposed = comp_p * std::max(r.mwp - 1, 0.0);
  switch (r.which) {
    case Case::kNotEnoughWarps: return r.mem_cycles + in.comp_cycles + exposed;  // M13
    case Case::kMemoryBound:
    case Case::kComputeOverMemory: return r.mem_cycles * r.n / r.mwp + exposed;  // M14
    case Case::kComputeBound: return r.mem_l + in.comp_cycles * r.n;             // M15
    case Case::kNoMemory: return in.comp_cycles * r.n;
  }
  return 0;
}

}  // namespace

// Share of the memory instructions of each kind (M3); no memory instruction counts as coalesced.
double weight_uncoal(const MwpInputs& in) { return in.mem_insts() <= 0 ? 0 : in.uncoal_mem_insts / in.mem_insts(); }
double weight_coal(const MwpInputs& in) { return 1 - weight_uncoal(in); }

double mem_l_coal(const MwpInputs& in) { return in.mem_ld; }

double mem_l_uncoal(const MwpInputs& in) {
  return in.mem_ld + (std::max(in.uncoal_per_mw, 1.0) - 1) * in.departure_del_uncoal;
}

double mem_l(const MwpInputs& in) { return mem_l_uncoal(in) * weight_uncoal(in) + mem_l_coal(in) * weight_coal(in); }

double departure_delay(const MwpInputs& in) {
  return in.departure_del_uncoal * in.uncoal_per_mw * weight_uncoal(in) + in.departure_del_coal * weight_coal(in);
}

double mem_cycles(const MwpInputs& in) {
  return mem_l_uncoal(in) * in.uncoal_mem_insts + mem_l_coal(in) * in.coal_mem_insts;
}

Round round(const MwpInputs& in, double n, uint32_t active_sms) {
  Round r;
  r.n = n;
  r.mem_l = mem_l(in);
  r.departure_delay = departure_delay(in);
  r.mwp_without_bw_full = quotient(r.mem_l, r.departure_delay);
  r.mwp_without_bw = std::min(r.mwp_without_bw_full, n);
  r.bw_per_warp = bw_per_warp(in, r.mem_l);
  r.mwp_peak_bw = mwp_peak_bw(in, r.bw_per_warp, active_sms);
  r.mwp = std::min({r.mwp_without_bw, r.mwp_peak_bw, n});
  r.mem_cycles = mem_cycles(in);
  r.cwp_full = cwp_full(in, r.mem_cycles);
  r.cwp = std::min(r.cwp_full, n);
  r.which = which_case(in, r);
  r.exec_cycles = exec_cycles(in, r);
  return r;
}

// M17 without its x #Rep: the model adds it to every repetition it counts.
double synch_cost(const MwpInputs& in, const Round& r, double active_blocks_per_sm) {
  return r.departure_delay * std::max(r.mwp - 1, 0.0) * in.synch_insts * active_blocks_per_sm;
}

std::string limiter(const Round& r, std::string_view compute_resource) {
  switch (r.which) {
    case Case::kNotEnoughWarps: return "not enough warps (MWP = CWP = N)";
    case Case::kMemoryBound:
      return r.mwp_peak_bw <= r.mwp_without_bw ? "memory bound (CWP >= MWP): dram bandwidth"
                                               : "memory bound (CWP >= MWP): departure delay";
    case Case::kComputeOverMemory:
      return "computation over memory (Comp_cycles > Mem_cycles): " + std::string(compute_resource);
    case Case::kComputeBound: return "compute bound (MWP > CWP): " + std::string(compute_resource);
    case Case::kNoMemory: return "compute bound (no memory instructions): " + std::string(compute_resource);
  }
  return "unknown";
}

}  // namespace mwp

namespace {

// Exec_cycles_app (+ Synch_cost, 0 without barrier counts) over all repetitions; `limiter` from the costlier part.
// #Rep is the waves: whole repetitions of N = blocks_per_sm x warps_per_block warps on every SM, then a last, partial
// one, where the busiest SM holds ceil(blocks left / SMs) blocks and only min(SMs, blocks left) SMs share the DRAM.
double exec_cycles_app(const mwp::MwpInputs& in, const WavePlan& reps, uint32_t warps_per_block,
                       const platform::GpuSpec& gpu, std::string& limiter) {
  double full = 0;
  double tail = 0;
  if (reps.full_waves > 0) {
    const mwp::Round r = mwp::round(in, static_cast<double>(reps.blocks_per_sm) * warps_per_block, gpu.sm_count());
    full = static_cast<double>(reps.full_waves) * (r.exec_cycles + mwp::synch_cost(in, r, reps.blocks_per_sm));
    limiter = mwp::limiter(r, in.comp_resource);
  }
  if (reps.tail_blocks_per_sm > 0) {
    const mwp::Round r =
        mwp::round(in, static_cast<double>(reps.tail_blocks_per_sm) * warps_per_block, reps.tail_sms());
    tail = r.exec_cycles + mwp::synch_cost(in, r, reps.tail_blocks_per_sm);
    if (tail > full) limiter = mwp::limiter(r, in.comp_resource);
  }
  return full + tail;
}

}  // namespace

KernelPrediction MwpModel::predict(const KernelView& kernel, const platform::GpuSpec& gpu) const {
  const KernelLaunch& launch = kernel.launch();
  const Occupancy occ = occupancy(launch, gpu.sm());
  const WavePlan reps = wave_plan(launch, occ, gpu);
  KernelPrediction p = shaped_prediction(launch, occ, gpu);
  if (!kernel.has_counters()) {
    // Timeline-only trace: as roofline, one DRAM latency per repetition (a warp with one load and nothing else).
    p.sm_time_s = cycles_to_seconds(no_counters_cycles(p, gpu, launch), gpu);
  } else {
    const uint32_t warps_per_block = std::max<uint32_t>(occ.warps_per_block, 1);
    const mwp::MwpInputs in = mwp::mwp_inputs(launch.counters(), reps.blocks * warps_per_block, gpu);
    p.sm_time_s = cycles_to_seconds(exec_cycles_app(in, reps, warps_per_block, gpu, p.limiter), gpu);
    add_bytes(p, kernel_work(launch.counters()));
  }
  mark_does_not_fit(p, occ);
  return p;
}

}  // namespace warpsim::models
