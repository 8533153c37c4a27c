#pragma once
// mwp: Hong & Kim's MWP-CWP analytical model (ISCA 2009), the published baseline.
//
// One SM runs N warps. While a warp waits on memory (Mem_L), MWP warps can have requests in flight (bounded by how
// fast one SM sends requests, by the DRAM bandwidth its share allows, and by N) and CWP warps can compute (how many
// warps' computation fits in one warp's memory period, bounded by N). The paper's summary equation picks the case in
// this order: too few warps to hide anything (MWP = CWP = N); else the memory formula when CWP >= MWP or
// Comp_cycles > Mem_cycles; else compute bound (MWP > CWP). The grid runs as repetitions of that N-warp round; a
// last, partial round runs with the warps it has.
//
// Unlike roofline, sm_time_s includes memory time (the model's own MWP bandwidth bound); the replay still carries the
// kernel's bytes over DRAM and L2 in parallel (the longer wins), so contention with concurrent work stays modelled.
// Every equation and where each input comes from: README.md.
#include <cstdint>
#include <string>
#include <string_view>

#include "kernel_model.h"
#include "mwp/mwp_params.h"

namespace warpsim::models {

namespace mwp {

/// Which of the paper's three Exec_cycles cases applies (README: M13-M15). The memory formula (M14) is reached two
/// ways, kept apart for the limiter: CWP >= MWP (kMemoryBound) or, with MWP > CWP, Comp_cycles > Mem_cycles
/// (kComputeOverMemory). kNoMemory guards the paper's divisions by #Mem_insts.
enum class Case { kNotEnoughWarps, kMemoryBound, kComputeOverMemory, kComputeBound, kNoMemory };

/// One repetition (N warps on each of active_sms SMs) with every intermediate of the equations.
struct Round {
  double n = 0;                    // N: warps resident on one SM
  double mem_l = 0;                // Mem_L
  double departure_delay = 0;      // Departure_delay
  double mwp_without_bw_full = 0;  // MWP_Without_BW_full = Mem_L / Departure_delay
  double mwp_without_bw = 0;       // MWP_Without_BW = min(MWP_Without_BW_full, N)
  double bw_per_warp = 0;          // BW_per_warp = Freq x Load_bytes_per_warp / Mem_L, bytes/s
  double mwp_peak_bw = 0;          // MWP_peak_BW = Mem_Bandwidth / (BW_per_warp x #Active_SMs)
  double mwp = 0;                  // MWP = min(MWP_Without_BW, MWP_peak_BW, N)
  double mem_cycles = 0;           // Mem_cycles of one warp
  double cwp_full = 0;             // CWP_full = (Mem_cycles + Comp_cycles) / Comp_cycles
  double cwp = 0;                  // CWP = min(CWP_full, N)
  Case which = Case::kNoMemory;
  double exec_cycles = 0;  // Exec_cycles of this repetition
};

double weight_uncoal(const MwpInputs& in);    // #Uncoal_Mem_insts / (#Coal_Mem_insts + #Uncoal_Mem_insts), or 0
double weight_coal(const MwpInputs& in);      // 1 - Weight_uncoal (= #Coal_Mem_insts / #Mem_insts)
double mem_l_coal(const MwpInputs& in);       // Mem_L_Coal = Mem_LD
double mem_l_uncoal(const MwpInputs& in);     // Mem_L_Uncoal = Mem_LD + (#Uncoal_per_mw - 1) x Departure_del_uncoal
double mem_l(const MwpInputs& in);            // Mem_L: the two weighted by their instruction shares
double departure_delay(const MwpInputs& in);  // Departure_del_uncoal x #Uncoal_per_mw, Departure_del_coal: weighted
double mem_cycles(const MwpInputs& in);       // Mem_L_Uncoal x #Uncoal_Mem_insts + Mem_L_Coal x #Coal_Mem_insts

/// The equations for N warps per SM on active_sms SMs.
Round round(const MwpInputs& in, double n, uint32_t active_sms);

/// Synch_cost = Departure_delay x (MWP - 1) x #Synch_insts x #Active_blocks_per_SM, for one repetition.
double synch_cost(const MwpInputs& in, const Round& r, double active_blocks_per_sm);

/// "not enough warps (MWP = CWP = N)", "memory bound (CWP >= MWP): dram bandwidth" or "...: departure delay",
/// "computation over memory (Comp_cycles > Mem_cycles): <resource>", "compute bound (MWP > CWP): <resource>",
/// "compute bound (no memory instructions): <resource>".
std::string limiter(const Round& r, std::string_view compute_resource);

}  // namespace mwp

class MwpModel final : public KernelModel {
 public:
  std::string_view name() const override { return "mwp"; }
  KernelPrediction predict(const KernelView& kernel, const platform::GpuSpec& gpu) const override;
};

}  // namespace warpsim::models
