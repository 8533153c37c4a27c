// The equations alone, on round inputs a reader can check by hand. M1-M17 are the README's numbers.
#include <gtest/gtest.h>

#include "mwp/mwp_model.h"

namespace warpsim::models::mwp {
namespace {

// Mem_LD 400, coalesced departure 10, uncoalesced 4 per transaction, 100 GB/s at 1 GHz, 128 B per warp access.
// One warp: 10 coalesced loads, 20 compute cycles. So Mem_L 400, Mem_cycles 4000, MWP_Without_BW_full 40,
// BW_per_warp 1e9 * 128 / 400 = 0.32 GB/s, CWP_full (4000 + 20) / 20 = 201.
MwpInputs round_inputs() {
  MwpInputs in;
  in.total_insts = 100;
  in.coal_mem_insts = 10;
  in.comp_cycles = 20;
  in.load_bytes_per_warp = 128;
  in.mem_ld = 400;
  in.departure_del_coal = 10;
  in.departure_del_uncoal = 4;
  in.mem_bandwidth = 100e9;
  in.freq = 1e9;
  return in;
}

// M6, M7, M12 on the round inputs: MWP_Without_BW_full = 400 / 10, BW_per_warp = 1e9 * 128 / 400 B/s,
// CWP_full = (4000 + 20) / 20; N = 64 caps neither.
TEST(MwpEquations, IntermediatesOnRoundInputs) {
  const Round r = round(round_inputs(), 64, 10);
  EXPECT_DOUBLE_EQ(r.mem_l, 400);
  EXPECT_DOUBLE_EQ(r.departure_delay, 10);
  EXPECT_DOUBLE_EQ(r.mwp_without_bw_full, 40);
  EXPECT_DOUBLE_EQ(r.bw_per_warp, 3.2e8);
  EXPECT_DOUBLE_EQ(r.mem_cycles, 4000);
  EXPECT_DOUBLE_EQ(r.cwp_full, 201);
}

// M6 and M12 cap at N: with N = 8 the full values stay 40 and 201, MWP_Without_BW and CWP become 8.
TEST(MwpEquations, WarpParallelismIsCappedAtN) {
  const Round r = round(round_inputs(), 8, 1);
  EXPECT_DOUBLE_EQ(r.mwp_without_bw_full, 40);
  EXPECT_DOUBLE_EQ(r.mwp_without_bw, 8);
  EXPECT_DOUBLE_EQ(r.cwp_full, 201);
  EXPECT_DOUBLE_EQ(r.cwp, 8);
}

// 10 SMs: MWP_peak_BW = 100 / (0.32 * 10) = 31.25 < 40 < N = 64.
// Exec = 4000 * 64 / 31.25 + (20 / 10) * (31.25 - 1) = 8192 + 60.5.
TEST(MwpEquations, MemoryBoundByBandwidth) {
  const Round r = round(round_inputs(), 64, 10);
  EXPECT_DOUBLE_EQ(r.mwp_without_bw, 40);
  EXPECT_DOUBLE_EQ(r.mwp_peak_bw, 31.25);
  EXPECT_DOUBLE_EQ(r.mwp, 31.25);
  EXPECT_DOUBLE_EQ(r.cwp, 64);
  EXPECT_EQ(r.which, Case::kMemoryBound);
  EXPECT_DOUBLE_EQ(r.exec_cycles, 8192 + 60.5);
  EXPECT_EQ(limiter(r, "issue"), "memory bound (CWP >= MWP): dram bandwidth");
}

// One SM: MWP_peak_BW = 312.5, so the departure delay bounds: MWP = 40. Exec = 4000 * 64 / 40 + 2 * 39.
TEST(MwpEquations, MemoryBoundByDepartureDelay) {
  const Round r = round(round_inputs(), 64, 1);
  EXPECT_DOUBLE_EQ(r.mwp_peak_bw, 312.5);
  EXPECT_DOUBLE_EQ(r.mwp, 40);
  EXPECT_EQ(r.which, Case::kMemoryBound);
  EXPECT_DOUBLE_EQ(r.exec_cycles, 6400 + 78);
  EXPECT_EQ(limiter(r, "issue"), "memory bound (CWP >= MWP): departure delay");
}

// N = 8: MWP and CWP are both capped at N. Exec = 4000 + 20 + 2 * (8 - 1).
TEST(MwpEquations, NotEnoughWarps) {
  const Round r = round(round_inputs(), 8, 1);
  EXPECT_DOUBLE_EQ(r.mwp, 8);
  EXPECT_DOUBLE_EQ(r.cwp, 8);
  EXPECT_EQ(r.which, Case::kNotEnoughWarps);
  EXPECT_DOUBLE_EQ(r.exec_cycles, 4034);
  EXPECT_EQ(limiter(r, "issue"), "not enough warps (MWP = CWP = N)");
}

// 2000 compute cycles: CWP = (4000 + 2000) / 2000 = 3 < MWP = 40. Exec = Mem_L + Comp_cycles * N = 400 + 2000 * 64.
TEST(MwpEquations, ComputeBound) {
  MwpInputs in = round_inputs();
  in.comp_cycles = 2000;
  const Round r = round(in, 64, 1);
  EXPECT_DOUBLE_EQ(r.cwp, 3);
  EXPECT_EQ(r.which, Case::kComputeBound);
  EXPECT_DOUBLE_EQ(r.exec_cycles, 400 + 2000 * 64);
  EXPECT_EQ(limiter(r, "fma pipe"), "compute bound (MWP > CWP): fma pipe");
}

// 32 transactions per access: Mem_L_Uncoal = 400 + 31 * 4 = 524, Departure_delay = 4 * 32 = 128.
TEST(MwpEquations, UncoalescedAccessesRaiseMemCycles) {
  MwpInputs in = round_inputs();
  in.uncoal_mem_insts = 10;
  in.coal_mem_insts = 0;
  in.uncoal_per_mw = 32;
  EXPECT_DOUBLE_EQ(mem_l_uncoal(in), 524);
  EXPECT_DOUBLE_EQ(mem_l(in), 524);
  EXPECT_DOUBLE_EQ(departure_delay(in), 128);
  EXPECT_DOUBLE_EQ(mem_cycles(in), 5240);
  EXPECT_GT(mem_cycles(in), mem_cycles(round_inputs()));
  const Round r = round(in, 64, 1);
  EXPECT_DOUBLE_EQ(r.mwp_without_bw, 524.0 / 128);
  EXPECT_DOUBLE_EQ(r.bw_per_warp, 1e9 * 128 / 524);  // M7 divides by Mem_L, not Mem_LD
  EXPECT_DOUBLE_EQ(r.mwp_peak_bw, 100e9 / (1e9 * 128 / 524));
}

// M3: 1 uncoalesced and 3 coalesced instructions weigh 1/4 and 3/4; none at all counts as coalesced.
// With 32 transactions: Mem_L (M4) = 524 / 4 + 400 * 3 / 4 = 431, Departure_delay (M5) = 4 * 32 / 4 + 10 * 3 / 4.
TEST(MwpEquations, WeightsAreInstructionShares) {
  MwpInputs in = round_inputs();
  in.coal_mem_insts = 3;
  in.uncoal_mem_insts = 1;
  in.uncoal_per_mw = 32;
  EXPECT_DOUBLE_EQ(weight_uncoal(in), 0.25);
  EXPECT_DOUBLE_EQ(weight_coal(in), 0.75);
  EXPECT_DOUBLE_EQ(mem_l(in), 431);
  EXPECT_DOUBLE_EQ(departure_delay(in), 39.5);
  EXPECT_DOUBLE_EQ(mem_cycles(in), 524 + 3 * 400);  // M10
  in.coal_mem_insts = 0;
  in.uncoal_mem_insts = 0;
  EXPECT_DOUBLE_EQ(weight_uncoal(in), 0);
  EXPECT_DOUBLE_EQ(weight_coal(in), 1);
}

// M15 uses Mem_L, not Mem_LD: uncoalesced (Mem_L 524, Departure_delay 128, MWP = 524 / 128 = 4.09) with
// Comp_cycles 2620: CWP = (5240 + 2620) / 2620 = 3 < MWP and Comp_cycles < Mem_cycles. Exec = 524 + 2620 * 64.
TEST(MwpEquations, ComputeBoundWaitsOneMemL) {
  MwpInputs in = round_inputs();
  in.coal_mem_insts = 0;
  in.uncoal_mem_insts = 10;
  in.uncoal_per_mw = 32;
  in.comp_cycles = 2620;
  const Round r = round(in, 64, 1);
  EXPECT_DOUBLE_EQ(r.cwp, 3);
  EXPECT_DOUBLE_EQ(r.mwp, 524.0 / 128);
  EXPECT_EQ(r.which, Case::kComputeBound);
  EXPECT_DOUBLE_EQ(r.exec_cycles, 524 + 2620 * 64);
}

// Half and half: Mem_L and Departure_delay are the weighted means, Mem_cycles the sum of both kinds.
TEST(MwpEquations, MixedAccessesAreWeightedByInstructionShare) {
  MwpInputs in = round_inputs();
  in.coal_mem_insts = 5;
  in.uncoal_mem_insts = 5;
  in.uncoal_per_mw = 32;
  EXPECT_DOUBLE_EQ(mem_l(in), 0.5 * 524 + 0.5 * 400);
  EXPECT_DOUBLE_EQ(departure_delay(in), 0.5 * 128 + 0.5 * 10);
  EXPECT_DOUBLE_EQ(mem_cycles(in), 524 * 5 + 400 * 5);
}

// The paper's summary equation sends Comp_cycles > Mem_cycles to the memory formula (M14) even when MWP > CWP.
// 5000 compute cycles against Mem_cycles 4000: CWP = (4000 + 5000) / 5000 = 1.8 < MWP = 40, yet
// Exec = 4000 * 64 / 40 + (5000 / 10) * (40 - 1), not M15's 400 + 5000 * 64.
TEST(MwpEquations, ComputationOverMemoryTakesTheMemoryFormula) {
  MwpInputs in = round_inputs();
  in.comp_cycles = 5000;
  const Round r = round(in, 64, 1);
  EXPECT_DOUBLE_EQ(r.cwp, 1.8);
  EXPECT_DOUBLE_EQ(r.mwp, 40);
  EXPECT_EQ(r.which, Case::kComputeOverMemory);
  EXPECT_DOUBLE_EQ(r.exec_cycles, 6400 + 19500);
  EXPECT_EQ(limiter(r, "fma pipe"), "computation over memory (Comp_cycles > Mem_cycles): fma pipe");
}

// Comp_cycles = Mem_cycles is not "greater": CWP = 2 < MWP = 40 goes to M15, 400 + 4000 * 64.
TEST(MwpEquations, ComputationEqualToMemoryIsComputeBound) {
  MwpInputs in = round_inputs();
  in.comp_cycles = 4000;
  const Round r = round(in, 64, 1);
  EXPECT_DOUBLE_EQ(r.cwp, 2);
  EXPECT_EQ(r.which, Case::kComputeBound);
  EXPECT_DOUBLE_EQ(r.exec_cycles, 400 + 4000 * 64);
}

// The case order: MWP = CWP = N is tested first. N = 1 with Comp_cycles 5000 > Mem_cycles: M13,
// Exec = 4000 + 5000 + 500 * (1 - 1).
TEST(MwpEquations, NotEnoughWarpsComesBeforeComputationOverMemory) {
  MwpInputs in = round_inputs();
  in.comp_cycles = 5000;
  const Round r = round(in, 1, 1);
  EXPECT_EQ(r.which, Case::kNotEnoughWarps);
  EXPECT_DOUBLE_EQ(r.exec_cycles, 9000);
}

// CWP >= MWP is tested before Comp_cycles > Mem_cycles (same formula, its own limiter): 0.4 GB/s on one SM gives
// MWP_peak_BW = 0.4 / 0.32 = 1.25 <= CWP = 1.8. Exec = 4000 * 64 / 1.25 + 500 * 0.25.
TEST(MwpEquations, MemoryBoundComesBeforeComputationOverMemory) {
  MwpInputs in = round_inputs();
  in.comp_cycles = 5000;
  in.mem_bandwidth = 0.4e9;
  const Round r = round(in, 64, 1);
  EXPECT_DOUBLE_EQ(r.mwp, 1.25);
  EXPECT_EQ(r.which, Case::kMemoryBound);
  EXPECT_DOUBLE_EQ(r.exec_cycles, 204800 + 125);
  EXPECT_EQ(limiter(r, "issue"), "memory bound (CWP >= MWP): dram bandwidth");
}

TEST(MwpEquations, NoMemoryInstructionsIsPureComputation) {
  MwpInputs in = round_inputs();
  in.coal_mem_insts = 0;
  const Round r = round(in, 64, 1);
  EXPECT_EQ(r.which, Case::kNoMemory);
  EXPECT_DOUBLE_EQ(r.exec_cycles, 20 * 64);
}

// 1 GB/s over 10 SMs: MWP_peak_BW = 1 / 3.2 < 1. Memory time grows as N / MWP; the exposed computation stays 0.
TEST(MwpEquations, BandwidthBelowOneWarpStretchesMemoryTime) {
  MwpInputs in = round_inputs();
  in.mem_bandwidth = 1e9;
  const Round r = round(in, 64, 10);
  EXPECT_DOUBLE_EQ(r.mwp, 1 / 3.2);
  EXPECT_DOUBLE_EQ(r.exec_cycles, 4000 * 64 * 3.2);
}

// M17 for one repetition: Synch_cost = Departure_delay * (MWP - 1) * #Synch_insts * #Active_blocks_per_SM
// = 10 * 30.25 * 2 * 4.
TEST(MwpEquations, SynchCostNeedsBarrierCounts) {
  MwpInputs in = round_inputs();
  EXPECT_DOUBLE_EQ(synch_cost(in, round(in, 64, 10), 4), 0);
  in.synch_insts = 2;
  EXPECT_DOUBLE_EQ(synch_cost(in, round(in, 64, 10), 4), 2420);
}

}  // namespace
}  // namespace warpsim::models::mwp
