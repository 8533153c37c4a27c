#pragma once
// What bounded each simulated kernel, for reports (SimulatedBound in the simulated trace): its model's limiter when
// its SM work ended last, else the node resource whose transfer ended last under the replay's contention. Kept as
// small ids into a table of the distinct bounds, since a trace holds millions of kernels and a few dozen bounds.
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "kernel_model.h"
#include "op_work.h"
#include "topology.h"
#include "trace.pb.h"

namespace warpsim::replay {

/// The bound as the model names it: its limiter and the kind of that limiter; RECORDED when kernels keep their
/// recorded durations.
SimulatedBound model_bound(const models::KernelPrediction& prediction, bool recorded_durations);

/// The node resource behind a kernel's transfer on GPU `gpu`: its DRAM, its L2, the host's memory or a peer's.
SimulatedBound transfer_bound(const Transfer& transfer, const Topology& topology, std::uint32_t gpu);

/// The distinct bounds of a simulation, each with an id; 0 is no bound. Safe to use from two threads: kernels are
/// predicted on the reading thread and end on the replay's.
class BoundTable {
 public:
  std::uint16_t add(const SimulatedBound& bound);
  /// nullptr for 0 or an id never given.
  const SimulatedBound* find(std::uint16_t id) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::pair<int, std::string>, std::uint16_t> ids_;
  std::deque<SimulatedBound> bounds_;  // id - 1 -> bound; a deque: what find() returned stays put as bounds are added
};

}  // namespace warpsim::replay
