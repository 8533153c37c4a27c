#include "analysis/host_calls.h"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace warpsim::report {
namespace {

// Call indices by thread, then start; at equal starts the longer first, so that an enclosing call comes before the
// calls it encloses.
std::vector<std::size_t> thread_order(const std::vector<HostCall>& calls) {
  std::vector<std::size_t> order(calls.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&calls](std::size_t x, std::size_t y) {
    const HostCall& a = calls[x];
    const HostCall& b = calls[y];
    return std::tie(a.thread, a.start_ns, b.end_ns) < std::tie(b.thread, b.start_ns, a.end_ns);
  });
  return order;
}

// Walks one thread's calls in start order.
class ThreadWalk {
 public:
  ThreadWalk(const std::vector<HostCall>& calls, CallStructure& out) : calls_(calls), out_(out) {}

  void visit(std::size_t index) {
    const HostCall& call = calls_[index];
    while (!open_.empty() && calls_[open_.back().index].end_ns <= call.start_ns) open_.pop_back();
    if (!open_.empty() && call.end_ns <= calls_[open_.back().index].end_ns) {
      note_nested(open_.back(), call.start_ns);
    } else {
      open_.clear();
      if (seen_call_ && busy_until_ < call.start_ns) out_.gaps.push_back({call.thread, busy_until_, call.start_ns});
      busy_until_ = seen_call_ ? std::max(busy_until_, call.end_ns) : call.end_ns;
      seen_call_ = true;
    }
    open_.push_back({index, false});
  }

 private:
  struct OpenCall {
    std::size_t index;
    bool has_nested;
  };

  // The first nested call ends the stretch at the start of the enclosing call that belongs to it alone.
  void note_nested(OpenCall& parent, std::uint64_t nested_start_ns) {
    if (parent.has_nested) return;
    parent.has_nested = true;
    const std::uint64_t start_ns = calls_[parent.index].start_ns;
    out_.own_point_ns[parent.index] = start_ns + (nested_start_ns - start_ns) / 2;
  }

  const std::vector<HostCall>& calls_;
  CallStructure& out_;
  std::vector<OpenCall> open_;  // enclosing calls, outermost first
  bool seen_call_ = false;
  std::uint64_t busy_until_ = 0;  // the latest end of the thread's top-level calls so far
};

}  // namespace

CallStructure structure_calls(const std::vector<HostCall>& calls) {
  CallStructure out;
  out.own_point_ns.reserve(calls.size());
  for (const HostCall& call : calls) out.own_point_ns.push_back(call.start_ns + (call.end_ns - call.start_ns) / 2);
  const std::vector<std::size_t> order = thread_order(calls);
  std::size_t begin = 0;
  while (begin < order.size()) {
    ThreadWalk walk(calls, out);
    std::size_t end = begin;
    for (; end < order.size() && calls[order[end]].thread == calls[order[begin]].thread; ++end) walk.visit(order[end]);
    begin = end;
  }
  return out;
}

}  // namespace warpsim::report
