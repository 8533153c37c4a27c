#include "mwp/mwp_params.h"

#include <algorithm>

#include "block_time.h"
#include "gpu_rates.h"
#include "kernel_work.h"
#include "numeric.h"

namespace warpsim::models::mwp {
namespace {

// Comp_cycles generalizes the paper's #Issue_cycles x #Total_insts: on its G80, 4 issue cycles per instruction were
// 32 threads over 8 lanes, a pipe rate. A modern SM issues one warp instruction per scheduler per clock and each pipe
// retires lanes / warp_size warp instructions per clock, so one warp's instructions take the busiest of those (the
// core's block_time over the SM's resources, fed one warp's share of the kernel's work).
BlockTime comp_cycles(const KernelCounters& counters, uint64_t warps, const platform::GpuSpec& gpu) {
  return block_time(kernel_work(counters), std::max<uint64_t>(warps, 1), gpu);
}

}  // namespace

double memory_instructions(const WarpInstructions& w) {
  return as_double(w.global_ld() + w.global_st() + w.global_atom() + w.global_red() + w.local_ld() + w.local_st() +
                   w.ldgsts());
}

double sectors_per_request(const KernelCounters& counters) {
  const MemoryTraffic& m = counters.memory();
  if (!m.has_l1_sectors()) return kSectorsPerCoalescedRequest;  // nothing known: the paper's default, coalesced
  const double requests =
      m.has_l1_requests() ? as_double(m.l1_requests()) : memory_instructions(counters.warp_instructions());
  return requests <= 0 ? kSectorsPerCoalescedRequest : as_double(m.l1_sectors()) / requests;
}

MwpInputs mwp_inputs(const KernelCounters& counters, uint64_t warps, const platform::GpuSpec& gpu) {
  const double n_warps = as_double(std::max<uint64_t>(warps, 1));
  const double sectors = sectors_per_request(counters);
  const GpuRates rates = GpuRates::of(gpu);
  // One SM's share of the DRAM peak, in bytes per SM clock: the rate at which the memory system takes one SM's
  // requests when every SM streams, so the spacing of consecutive requests (the departure delay) is their bytes over
  // it.
  const double share = dram_bytes_per_sm_cycle(rates.dram_peak_bytes_per_s, rates);
  const double mem_insts = memory_instructions(counters.warp_instructions()) / n_warps;
  const bool coalesced = sectors <= kSectorsPerCoalescedRequest;
  MwpInputs in;
  in.total_insts = kernel_work(counters).issue_slots / n_warps;
  in.coal_mem_insts = coalesced ? mem_insts : 0;
  in.uncoal_mem_insts = coalesced ? 0 : mem_insts;
  in.synch_insts = 0;  // no barrier counter in the trace (README)
  const BlockTime comp = comp_cycles(counters, warps, gpu);
  in.comp_cycles = comp.cycles;
  in.comp_resource = comp.limiter;
  // A coalesced access is one transaction of its bytes; an uncoalesced one, one transaction per sector it touches.
  in.uncoal_per_mw = coalesced ? 1 : sectors;
  in.load_bytes_per_warp = sectors * static_cast<double>(kSectorBytes);
  in.mem_ld = gpu.sm().latency_cycles().dram();
  in.departure_del_coal =
      ratio_or_zero(std::min(sectors, kSectorsPerCoalescedRequest) * static_cast<double>(kSectorBytes), share);
  in.departure_del_uncoal = ratio_or_zero(static_cast<double>(kSectorBytes), share);
  in.mem_bandwidth = rates.dram_sustained_bytes_per_s;
  in.freq = rates.clock_hz;
  return in;
}

}  // namespace warpsim::models::mwp
