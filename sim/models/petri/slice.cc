#include "petri/slice.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "petri/engine.h"

namespace warpsim::models::petri {
namespace {

struct SliceRun {
  double steps = 0;
  double idle = 0;
  uint64_t firings = 0;
};

// t0, the SM's waiting transition, is transition 0 of every net kernel_nets builds.
constexpr TransitionId kWaiting = 0;

SliceRun simulate(const Net& net, uint32_t warps, const SliceOptions& options) {
  RunOptions run_options;
  run_options.seed = options.seed;
  // Every instruction makes progress within its latency, so the dead marking comes long before this; a net that
  // misses it is a construction bug, not a slow kernel.
  run_options.max_steps = 64 * options.firing_budget + 1'000'000;
  const RunResult result = run(net, run_options);
  if (!result.dead) {
    throw std::logic_error("petri: SM net of " + std::to_string(warps) + " warps did not reach its dead marking in " +
                           std::to_string(result.steps) + " steps");
  }
  return {static_cast<double>(result.steps), static_cast<double>(result.firings[kWaiting]), result.total_firings};
}

}  // namespace

WaveEstimate estimate_wave(const KernelNets& nets, uint32_t warps, const SliceOptions& options) {
  if (warps == 0) return {};
  const double instructions = nets.instructions_per_warp();
  const double affordable = static_cast<double>(options.firing_budget) / (warps * nets.firings_per_instruction());
  const double slice_size = std::max(affordable, options.min_instructions);
  if (instructions <= slice_size) {
    const SliceRun whole = simulate(nets.build(warps), warps, options);
    return {whole.steps, whole.idle, false, whole.firings};
  }
  const MixSlice slice = nets.slice(slice_size);
  const SliceRun part = simulate(nets.build(warps, slice), warps, options);
  return {part.steps * slice.factor, part.idle * slice.factor, true, part.firings};
}

}  // namespace warpsim::models::petri
