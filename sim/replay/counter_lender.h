#pragma once
// A kernel recorded without core counters takes those of an identical launch (same name, grid and block) that has
// them, keeping any counters of its own on top; with none to borrow, it keeps its own (another group's alone: the
// models estimate it from the launch configuration and the DRAM bytes the `cache` group measured). Timeline traces
// whose counters run profiled only some launches (--kernels, --launch-count) or chose other kernels (cuFFT) need it.
//
// The lender keeps one copy of counters per distinct launch shape, not per launch: a simulation streams the trace past
// it (offer every kernel, then lend) without holding the trace's counters in memory.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <tuple>

#include "trace.pb.h"

namespace warpsim::replay {

/// Whether a kernel has the core counters (instruction mix, memory traffic) the models need; a merge can leave a
/// kernel with only another group's (links, tensor) when its core counters run chose other kernels there.
bool has_core_counters(const KernelLaunch& kernel);

class CounterLender {
 public:
  /// Remembers the core counters of `kernel`, if it has them and is the first of its shape to.
  void offer(const KernelLaunch& kernel);
  /// Gives `kernel`, if it lacks core counters, those of the first identical launch offered them, its own merged on
  /// top. Returns whether it did.
  bool lend(KernelLaunch& kernel) const;

  /// What makes two launches identical here: name, grid and block.
  using Shape =
      std::tuple<std::string, std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>;
  static Shape shape_of(const KernelLaunch& kernel);
  /// Whether a launch of `shape` with core counters has been offered.
  bool knows(const Shape& shape) const { return known_.contains(shape); }

 private:
  // The shape of a launch, looked up without copying its name (every kernel of a trace is looked up, twice).
  using ShapeView = std::tuple<std::string_view, std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t,
                               std::uint32_t, std::uint32_t>;
  static ShapeView view_of(const KernelLaunch& kernel);

  std::map<Shape, KernelCounters, std::less<>> known_;
};

}  // namespace warpsim::replay
