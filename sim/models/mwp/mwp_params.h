#pragma once
// The inputs of the MWP-CWP model (Hong & Kim, ISCA 2009, Table 1 "Summary of model parameters"), derived from a
// kernel's counters and a GpuSpec.
//
// The paper reads them from PTX and a hand-measured machine table of 2008 GPUs (G80, GT200); here the per-warp
// counts are the range profiler's kernel totals divided by the grid's warps, and the machine parameters come from the
// GpuSpec. Every derivation, with its reason, is in README.md.
#include <cstdint>
#include <string_view>

#include "platform.pb.h"
#include "trace.pb.h"

namespace warpsim::models::mwp {

/// Everything the equations need for one kernel on one GPU, named as in the paper. Per-warp counts are averages over
/// the grid's warps; cycles are SM clocks.
struct MwpInputs {
  // One warp's instructions.
  double total_insts = 0;          // #Total_insts: warp instructions issued, computation and memory
  double coal_mem_insts = 0;       // #Coal_Mem_insts: global/local memory instructions of the coalesced kind
  double uncoal_mem_insts = 0;     // #Uncoal_Mem_insts: the same, uncoalesced (one class per kernel: see README)
  double synch_insts = 0;          // #Synch_insts: barriers; the trace counts none, so 0
  double comp_cycles = 0;          // Comp_cycles: SM cycles that issue one warp's instructions (busiest SM resource)
  std::string_view comp_resource;  // that resource: "issue", "fma pipe", ... (block_time.h's names)
  // Its memory accesses.
  double uncoal_per_mw = 1;        // #Uncoal_per_mw: transactions (32 B sectors) per uncoalesced warp access
  double load_bytes_per_warp = 0;  // Load_bytes_per_warp: bytes one warp memory instruction moves
  // The machine.
  double mem_ld = 0;                // Mem_LD: DRAM access latency, cycles
  double departure_del_coal = 0;    // Departure_del_coal: cycles between two coalesced requests of one SM
  double departure_del_uncoal = 0;  // Departure_del_uncoal: cycles between two transactions of an uncoalesced one
  double mem_bandwidth = 0;         // Mem_Bandwidth: sustained DRAM bandwidth, bytes/s
  double freq = 0;                  // Freq: SM clock, Hz

  double mem_insts() const { return coal_mem_insts + uncoal_mem_insts; }  // #Mem_insts
};

/// Warp-level memory instructions that reach the memory system through L1: global and local loads, stores,
/// atomics and reductions, and LDGSTS (cp.async). TMA bulk copies are left out (README, "What it leaves out").
double memory_instructions(const WarpInstructions& w);

/// 32-byte sectors per L1 request: l1_sectors / l1_requests, or l1_sectors / memory_instructions when the trace has
/// no request count (one request per warp memory instruction); kSectorsPerCoalescedRequest (kernel_work.h) without
/// sector counts.
double sectors_per_request(const KernelCounters& counters);

/// The inputs for `counters` of a grid of `warps` warps on `gpu`.
MwpInputs mwp_inputs(const KernelCounters& counters, uint64_t warps, const platform::GpuSpec& gpu);

}  // namespace warpsim::models::mwp
