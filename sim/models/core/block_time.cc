#include "block_time.h"

#include <algorithm>
#include <array>

#include "gpu_rates.h"
#include "numeric.h"
#include "tensor_work.h"

namespace warpsim::models {
namespace {

struct Term {
  std::string_view name;
  double cycles;
};

// A spec without the pipe's rate (0 lanes) cannot bound.
double pipe_cycles(double warp_instructions, double lanes, uint32_t warp_size) {
  if (lanes <= 0) return 0;
  return warp_instructions / pipe_warp_rate(lanes, warp_size);
}

}  // namespace

BlockTime block_time(const KernelWork& work, uint64_t blocks, const platform::GpuSpec& gpu) {
  const platform::SmSpec& sm = gpu.sm();
  const platform::Lanes& lanes = sm.lanes();
  const uint32_t ws = sm.warp_size();
  // In tie order: a pipe that bounds as hard as issue is the more useful name.
  const std::array<Term, 9> terms{{
      {"fma pipe", pipe_cycles(work.pipes.fma, lanes.fp32(), ws)},
      {"alu pipe", pipe_cycles(work.pipes.alu, lanes.int32(), ws)},
      {"fp64 pipe", pipe_cycles(work.pipes.fp64, lanes.fp64(), ws)},
      {"xu pipe", pipe_cycles(work.pipes.xu, lanes.sfu(), ws)},
      {"lsu pipe", pipe_cycles(work.pipes.lsu, lanes.ldst(), ws)},
      {"tensor pipe", tensor_cycles(work.tensor_flops, lanes)},
      {"l1 bandwidth", ratio_or_zero(work.l1_bytes, sm.l1_bytes_per_cycle())},
      {"shared wavefronts", work.shared_wavefronts},
      {"issue", ratio_or_zero(work.issue_slots, sm.schedulers())},
  }};
  const auto slowest =
      std::max_element(terms.begin(), terms.end(), [](const Term& a, const Term& b) { return a.cycles < b.cycles; });
  return BlockTime{slowest->cycles / static_cast<double>(std::max<uint64_t>(blocks, 1)), slowest->name};
}

}  // namespace warpsim::models
