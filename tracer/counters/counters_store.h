#pragma once
/// @brief Counters measured at a launch, kept until the kernel's activity record arrives (on CUPTI's thread, later)
/// and takes them. Keyed by the launch's correlation id; a graph launch measures several kernels under one id, taken
/// in order. Pure, thread-safe.

#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "trace.pb.h"

namespace warpsim::tracer {

class CountersStore {
 public:
  void put(std::uint32_t correlation_id, KernelCounters counters);
  /// The oldest counters stored under `correlation_id`, removed; nullopt if none (the launch was not profiled).
  std::optional<KernelCounters> take(std::uint32_t correlation_id);
  std::size_t pending() const;

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::uint32_t, std::deque<KernelCounters>> by_launch_;
};

}  // namespace warpsim::tracer
