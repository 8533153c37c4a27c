#pragma once
// The two multi-GPU versions of the paper's finite-difference benchmark (Section 6.1): "distributed" (each GPU keeps
// halo copies of its neighbours' planes, exchanged with peer copies after every step) and "GPU-SM" (no halo: kernels
// read the neighbours' planes remotely through peer pointers).

#include <vector>

#include "domain.h"

namespace stencil {

struct RunConfig {
  Extent3 dom;
  int radius;
  int axis;  // decomposed axis: 0 = x, 1 = y, 2 = z
  int gpus;  // GPUs 0..gpus-1, slab g on GPU g
  int iterations;
};

struct RunResult {
  std::vector<float> field;  // the global result (x fastest)
  double loop_ms;            // host wall time of the iteration loop, all GPUs synchronised at both ends
};

/// Enables peer access both ways between GPUs g and g+1 (the only pairs that exchange data). Returns false, having
/// enabled nothing, when some pair cannot access each other.
bool enable_neighbour_peer_access(int gpus);

/// Both print one `timing stencil3d <kernel>@gpu<g> <index> <ms>` line per launch (index: launch order on that GPU)
/// once the loop is over, so that reading the times never serialises the GPUs.
RunResult run_distributed(const RunConfig& config, const std::vector<float>& initial);
RunResult run_gpusm(const RunConfig& config, const std::vector<float>& initial);

}  // namespace stencil
