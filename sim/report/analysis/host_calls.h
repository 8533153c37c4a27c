#pragma once
/// @brief The CPU side of a trace: each host thread's API calls, which of them are top-level, and the gaps between
/// consecutive top-level calls ("host work": the application computing between CUDA calls).
///
/// A runtime call that calls the driver is recorded with the driver call nested inside it (same thread, within its
/// start and end). Nested calls add no time of their own to the thread; only top-level calls delimit host work.
/// Shared by the timeline (host tracks, flow arrows) and compare's attribution of the span.

#include <compare>
#include <cstdint>
#include <vector>

namespace warpsim::report {

struct HostThreadId {
  std::uint32_t process_id = 0;
  std::uint64_t thread_id = 0;
  auto operator<=>(const HostThreadId&) const = default;
};

struct HostCall {
  HostThreadId thread;
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
};

struct HostInterval {
  HostThreadId thread;
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
  bool operator==(const HostInterval&) const = default;
};

struct CallStructure {
  /// Host work: the non-empty gaps between consecutive top-level calls of a thread, by thread, then time.
  std::vector<HostInterval> gaps;
  /// Per call, in the order given: a time inside the call and before its first nested call (the middle of that
  /// stretch), where an arrow can start from the call itself rather than from a call nested in it.
  std::vector<std::uint64_t> own_point_ns;
};

/// Sorts the calls per thread and walks them with a stack of open calls: O(n log n) for n calls. A call that starts
/// inside an open call and ends within it is nested; one that starts inside and ends after it (only simulated
/// traces could have that) counts as a new top-level call, with no gap before it.
CallStructure structure_calls(const std::vector<HostCall>& calls);

}  // namespace warpsim::report
