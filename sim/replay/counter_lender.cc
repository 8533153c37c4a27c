#include "counter_lender.h"

#include <tuple>
#include <utility>

namespace warpsim::replay {

bool has_core_counters(const KernelLaunch& kernel) {
  return kernel.has_counters() && kernel.counters().has_warp_instructions() &&
         kernel.counters().warp_instructions().has_total();
}

CounterLender::Shape CounterLender::shape_of(const KernelLaunch& kernel) {
  return std::make_from_tuple<Shape>(view_of(kernel));
}

CounterLender::ShapeView CounterLender::view_of(const KernelLaunch& kernel) {
  return ShapeView{kernel.name(),      kernel.grid().x(),  kernel.grid().y(), kernel.grid().z(),
                   kernel.block().x(), kernel.block().y(), kernel.block().z()};
}

void CounterLender::offer(const KernelLaunch& kernel) {
  if (!has_core_counters(kernel)) return;
  if (!known_.contains(view_of(kernel))) known_.emplace(shape_of(kernel), kernel.counters());
}

bool CounterLender::lend(KernelLaunch& kernel) const {
  if (has_core_counters(kernel)) return false;
  const auto found = known_.find(view_of(kernel));
  if (found == known_.end()) return false;
  KernelCounters counters = found->second;
  counters.MergeFrom(kernel.counters());
  *kernel.mutable_counters() = std::move(counters);
  return true;
}

}  // namespace warpsim::replay
