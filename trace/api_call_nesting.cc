#include "api_call_nesting.h"

#include <algorithm>
#include <map>

namespace warpsim::trace {

std::vector<ThreadCallGroups> group_api_calls(const std::vector<Event>& events,
                                              const std::set<std::uint64_t>& skipped) {
  std::map<ThreadKey, std::vector<std::size_t>> by_thread;
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (events[i].has_api_call() && skipped.count(events[i].api_call().thread_id()) == 0)
      by_thread[{events[i].api_call().process_id(), events[i].api_call().thread_id()}].push_back(i);
  }
  std::vector<ThreadCallGroups> threads;
  for (auto& [key, calls] : by_thread) {
    std::stable_sort(calls.begin(), calls.end(), [&](std::size_t a, std::size_t b) {
      const ApiCall& x = events[a].api_call();
      const ApiCall& y = events[b].api_call();
      return x.start_ns() != y.start_ns() ? x.start_ns() < y.start_ns() : x.end_ns() > y.end_ns();
    });
    ThreadCallGroups thread{key, {}};
    for (std::size_t i : calls) {
      const ApiCall& call = events[i].api_call();
      const bool nested = !thread.calls.empty() &&
                          call.start_ns() < events[thread.calls.back().front()].api_call().end_ns() &&
                          call.end_ns() <= events[thread.calls.back().front()].api_call().end_ns();
      if (!nested) thread.calls.emplace_back();
      thread.calls.back().push_back(i);
    }
    threads.push_back(std::move(thread));
  }
  return threads;
}

}  // namespace warpsim::trace
