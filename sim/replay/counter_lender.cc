#include "counter_lender.h"

#include <utility>

namespace warpsim::replay {

bool has_core_counters(const KernelLaunch& kernel) {
  return kernel.has_counters() && kernel.counters().has_warp_instructions() &&
         kernel.counters().warp_instructions().has_total();
}

CounterLender::Shape CounterLender::shape_of(const KernelLaunch& kernel) {
  return Shape{kernel.name(),      kernel.grid().x(),  kernel.grid().y(), kernel.grid().z(),
               kernel.block().x(), kernel.block().y(), kernel.block().z()};
}

void CounterLender::offer(const KernelLaunch& kernel) {
  if (!has_core_counters(kernel)) return;
  const Shape shape = shape_of(kernel);
  if (!known_.contains(shape)) known_.emplace(shape, kernel.counters());
}

bool CounterLender::lend(KernelLaunch& kernel) const {
  if (has_core_counters(kernel)) return false;
  const auto found = known_.find(shape_of(kernel));
  if (found == known_.end()) return false;
  KernelCounters counters = found->second;
  counters.MergeFrom(kernel.counters());
  *kernel.mutable_counters() = std::move(counters);
  return true;
}

}  // namespace warpsim::replay
