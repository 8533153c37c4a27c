#pragma once
/// @brief A host thread's API calls grouped as the CPU ran them: each top-level call with the calls nested inside it
/// (a runtime call that calls the driver is recorded with the driver call within its start and end). The replay
/// issues a thread's work call by call in this order; `warpsim scale` lays the calls of every pair out by it.

#include <cstddef>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "trace.pb.h"

namespace warpsim::trace {

using ThreadKey = std::pair<std::uint32_t, std::uint64_t>;  ///< (process, thread)

struct ThreadCallGroups {
  ThreadKey key;
  /// Per top-level call, in start order: the indexes into the events of the call itself, then of the calls nested
  /// in it. A call that starts within the previous top-level call and ends by its end is nested in it.
  std::vector<std::vector<std::size_t>> calls;
};

/// Every host thread's calls (threads in (process, thread) order), leaving out the threads in `skipped`.
std::vector<ThreadCallGroups> group_api_calls(const std::vector<Event>& events,
                                              const std::set<std::uint64_t>& skipped = {});

}  // namespace warpsim::trace
