#pragma once
// Paper 001's bandwidth fixed point (its Fig. 4 for L1 per SM, Fig. 5 for L2 over the GPU; likewise DRAM and
// uncoalesced requests): when a wave asks a memory level for more than its bandwidth, the level's requests wait
// longer. Start from the nominal latency; repeat { time = wave time at these latencies; mul = (demand / time) /
// bandwidth; if mul > 1 scale the level's latency by mul } until the time stops changing.
//
// Differences from the paper's loop, all so that it always ends at the physical answer:
// - It stops when demand / time matches the bandwidth (|mul - 1| <= tolerance), not when |delta time| < eps: while
//   a wave is issue-bound, a longer latency does not change its time yet, and the paper's test would stop at once
//   with the demand still above the bandwidth.
// - It scales down as well as up (never below the nominal latency): the step in which an issue-bound wave turns
//   latency-bound can overshoot.
// - The scaled latency never exceeds demand / bandwidth (no request waits longer than the level needs to serve the
//   whole wave), and the result is at least demand / bandwidth: the fixed point's limit, also where the time does
//   not depend on that latency at all (a level the kernel's loads do not read from, e.g. stores only).
// - A level of one SM may be left idle for part of every wave (`idle_cycles`: its slots turning over, its warps
//   waiting at a barrier for global loads): it then needs demand / bandwidth cycles on top of those.
#include <functional>

#include "wave/memory_latency.h"

namespace warpsim::models::wave {

/// One level: which latency congestion lengthens, how much the wave asks of it, how much it can give per cycle.
struct Level {
  double MemoryLatencies::*latency = nullptr;
  double demand = 0;     // bytes (shared: wavefronts) of the whole wave at this level
  double bandwidth = 0;  // per cycle; <= 0: unlimited
  double idle_cycles = 0;  // cycles of the wave in which nothing reaches the level (only counted where it is bounded)
};

struct FixedPointOptions {
  double tolerance = 1e-6;  // relative: stop when |demand / (time * bandwidth) - 1| <= tolerance
  int max_iterations = 1000;
};

struct FixedPoint {
  double time = 0;     // wave cycles once the level's demand fits
  int iterations = 0;  // latency updates made
};

/// Wave cycles as a function of the latencies.
using WaveTimeFn = std::function<double(const MemoryLatencies&)>;

/// Runs the fixed point for `level`, updating `lat` in place (later levels start from it). `floor` is the time the
/// levels settled before this one imposed: the wave takes at least that long whatever the latencies.
FixedPoint settle_bandwidth(const WaveTimeFn& time_of, MemoryLatencies& lat, const Level& level, double floor,
                            const FixedPointOptions& options = {});

}  // namespace warpsim::models::wave
