#pragma once
// The host threads' programs: what each thread of the recorded process does, in its order, as compute steps, API
// calls, issues and waits (no SimGrid).
//
// With API calls in the trace (timeline traces recorded since the tracer records them), one program per host thread:
// - between two of its top-level API calls the thread computes for the recorded gap; before its first call, for the
//   time from the start of the recording (host work is taken as unchanged by the GPU: `host_scale` asks what if
//   the CPU were faster or slower);
// - a call that does not block costs its recorded duration (the driver's CPU work), then issues its GPU work;
// - a call that blocks (synchronizations, synchronous and pageable copies, cudaFree and the other implicitly
//   synchronizing calls) costs its recorded setup (from its start, or from when the work it queued behind ended,
//   to its work's recorded start: a synchronous copy pins or stages host memory first), issues its work, waits for
//   what it waits for in the simulation, then costs the part of its recorded duration after the awaited work's
//   recorded end (the wake-up and the call's own work after it);
// - driver calls made inside a runtime call (same thread, within it) belong to the runtime call.
// Without API calls (older traces), one host thread issues every operation in API order, each after the platform's
// `api_call_overhead_us`, and waits where CUDA blocks: the host's own time is unknown.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <queue>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "api_call_nesting.h"
#include "replay_program.h"
#include "trace.pb.h"

namespace warpsim::replay {

struct HostOptions {
  double api_call_overhead_s = 0;  // traces without API calls: the cost of issuing one operation
  double host_scale = 1;           // recorded host time (gaps, calls' own time) is multiplied by this
};

struct HostSummary {
  bool from_api_calls = false;  // false: the trace has no API calls, host time is unknown
  std::size_t threads = 0;
  std::size_t api_calls = 0;  // top-level calls replayed
  std::size_t blocking_calls = 0;
  std::size_t unattributed_events = 0;  // GPU work or waits no recorded API call issued (issued at once, in order)
};

using trace::ThreadKey;  // (process, thread)

/// Builds the host threads' steps one event at a time, in API order, each event after a ProgramBuilder took it. A
/// top-level call's steps are ready once no later event can belong to it: when its thread makes its next top-level
/// call, when an API call of any thread starts after it ended (calls nested in it began before, so their ids and
/// their work came before), or at finish().
class HostStepsBuilder {
 public:
  /// `threads`: the threads that made API calls, in order (none: the trace has none, and one thread issues
  /// everything); `unattributed`: whether a thread for work no recorded call issued follows them. A thread's first
  /// call comes after computing from `recording_start_ns`.
  HostStepsBuilder(const HostOptions& options, std::uint64_t recording_start_ns, std::vector<ThreadKey> threads,
                   bool unattributed);
  ~HostStepsBuilder();
  /// The next event in API order: `actions` and `op` are what the ProgramBuilder made of it.
  void add(const Event& event, std::size_t event_index, const EventActions& actions, const std::optional<AddedOp>& op,
           const ProgramBuilder& program);
  /// The trace ended: every open call's steps become ready.
  void finish();
  std::size_t thread_count() const { return ready_.size(); }
  /// Steps of thread `t` (`threads`' order, the unattributed thread last) ready to run, in order.
  std::deque<HostStep>& ready(std::size_t t) { return ready_[t]; }
  const HostSummary& summary() const { return summary_; }

 private:
  struct Member;
  struct OpenCall;
  struct ThreadState;
  void add_api_call(const ApiCall& call, std::size_t event_index, const ProgramBuilder& program);
  void add_work(const Event& event, std::size_t event_index, const EventActions& actions,
                const std::optional<AddedOp>& op, const ProgramBuilder& program);
  void close_calls_ended_before(std::uint64_t start_ns);
  void close(std::size_t thread);
  void compute(std::size_t thread, std::uint64_t recorded_ns);
  void add_call(std::size_t thread, const OpenCall& call);
  void append_actions(std::size_t thread, std::size_t event_index, const EventActions& actions,
                      const std::optional<AddedOp>& op, double issue_cost_s);

  HostOptions options_;
  std::vector<ThreadState> threads_;
  std::map<ThreadKey, std::size_t> thread_index_;
  std::unordered_map<std::uint64_t, std::size_t> owner_;  // correlation id of an open call (nested too) -> thread
  // Open top-level calls by their recorded end (lazily pruned: a closed call's entry is skipped).
  std::priority_queue<std::pair<std::uint64_t, std::size_t>, std::vector<std::pair<std::uint64_t, std::size_t>>,
                      std::greater<>>
      open_by_end_;
  std::vector<std::deque<HostStep>> ready_;
  HostSummary summary_;
};

/// The name of an API call without CUPTI's version suffix: "cudaLaunchKernel_v7000" -> "cudaLaunchKernel".
std::string api_base_name(const std::string& name);

}  // namespace warpsim::replay
