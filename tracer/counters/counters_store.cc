#include "counters/counters_store.h"

#include <utility>

namespace warpsim::tracer {

void CountersStore::put(std::uint32_t correlation_id, KernelCounters counters) {
  const std::lock_guard lock(mutex_);
  by_launch_[correlation_id].push_back(std::move(counters));
}

std::optional<KernelCounters> CountersStore::take(std::uint32_t correlation_id) {
  const std::lock_guard lock(mutex_);
  const auto it = by_launch_.find(correlation_id);
  if (it == by_launch_.end()) return std::nullopt;
  KernelCounters counters = std::move(it->second.front());
  it->second.pop_front();
  if (it->second.empty()) by_launch_.erase(it);
  return counters;
}

std::size_t CountersStore::pending() const {
  const std::lock_guard lock(mutex_);
  std::size_t count = 0;
  for (const auto& [id, queue] : by_launch_) count += queue.size();
  return count;
}

}  // namespace warpsim::tracer
