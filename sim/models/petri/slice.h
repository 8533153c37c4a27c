#pragma once
// Step count of one wave on one SM, from a bounded slice of the warps' instructions.
//
// A big kernel gives each warp thousands to millions of instructions; the net needs a step per cycle and a firing
// per instruction stage, so simulating them all is out of reach. When the warps' whole share needs more than
// `firing_budget` firings (estimated), the model simulates a slice of the same mix, about C instructions per warp
// (C from the budget, at least `min_instructions`; KernelNets::slice says how it rounds), and scales its steps by
// the slice's factor.
//
// Why one scaled slice: the steps of a wave are linear in the instructions per warp with a negligible fill and
// drain (60 to 3,000 instructions per warp give the same steps per instruction within 1.5%, slice_test.cc). A
// two-point fit that separated fill from steady state was tried and was worse: it doubles the noise of the random
// order of the last instructions. Every warp of a slice gets the same counts: spreading a kind's fraction over the
// warps (6.4 loads: some warps 6, some 7) makes the wave as long as its slowest warp, 6% too long in that test.
#include <cstdint>

#include "petri/kernel_nets.h"

namespace warpsim::models::petri {

struct SliceOptions {
  uint64_t firing_budget = uint64_t{1} << 19;  // per simulated wave, estimated
  double min_instructions = 64;                // per warp, in a slice
  uint64_t seed = 1;
};

struct WaveEstimate {
  double steps = 0;       // predicted steps of the whole wave
  double idle_steps = 0;  // of which t0 fired (no warp ready)
  bool sliced = false;    // true: scaled from a slice
  uint64_t firings = 0;   // transitions fired in the simulations (cost)
};

/// Simulates one SM holding `warps` warps of `nets`' mix (0 warps: nothing to do, 0 steps).
WaveEstimate estimate_wave(const KernelNets& nets, uint32_t warps, const SliceOptions& options = {});

}  // namespace warpsim::models::petri
