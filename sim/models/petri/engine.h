#pragma once
// Maximal concurrent step semantics (paper 000, Section 4), the way the paper's own implementation resolves conflicts.
//
// In every step: take the transitions enabled at the step's marking M in a uniformly random order; fire each one
// whose input tokens are still there after those fired before it in this step took theirs (earlier wins a conflict);
// then add all outputs. So a step is a maximal set of transitions enabled together at M, each fires at most once per
// step, and tokens a step produces are usable only from the next step on.
//
// Inhibitor arcs are judged at M, the step's starting marking, as in the paper's Definition of an enabled step
// (sum of inputs <= M and M(p) = 0 for every inhibitor place). Tokens only leave places during a step, so judging
// them on "M minus what earlier transitions consumed" could only enable more; it would also let the SM's waiting
// transition t0 fire in the same step as a warp that takes the last ready token, making the idle count depend on the
// random order. Judging at M keeps "t0 fired" equal to "no warp was ready at the start of this step".
//
// The run ends in the dead marking (nothing enabled) or after `max_steps`. The random order comes from a seeded
// SplitMix64, so a seed fixes the run.
//
// Cost: the engine keeps a set of candidate transitions up to date incrementally, and after a step examines only the
// transitions with an arc on a changed place whose weight the change crossed (net.h, Dependent). Candidates are the
// transitions whose watched inputs (net.h, watched_inputs) and inhibitors allow them; an input on a place that many
// transitions consume (the SM's p0) is checked only at the transition's turn in the step. A candidate short of such
// an input cannot fire at any point of the step (tokens only leave places during a step), so the steps, and their
// distribution over seeds, are those of the definition above; a step in which no candidate fires is the dead marking.
#include <cstdint>
#include <limits>
#include <vector>

#include "petri/net.h"

namespace warpsim::models::petri {

struct RunOptions {
  uint64_t seed = 1;
  uint64_t max_steps = std::numeric_limits<uint64_t>::max();
};

struct RunResult {
  uint64_t steps = 0;             // maximal steps taken (each fires at least one transition)
  bool dead = false;              // true: stopped in the dead marking; false: stopped at max_steps
  uint64_t total_firings = 0;     // sum of `firings`
  std::vector<uint64_t> firings;  // per transition, in Net order
  std::vector<Tokens> marking;    // the final marking
};

/// Runs `net` from its initial marking.
RunResult run(const Net& net, const RunOptions& options = {});

/// Runs `net` from `marking` (one token count per place) instead of its initial marking.
RunResult run(const Net& net, std::vector<Tokens> marking, const RunOptions& options = {});

}  // namespace warpsim::models::petri
