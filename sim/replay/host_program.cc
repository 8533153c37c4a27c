#include "host_program.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "api_call_nesting.h"

namespace warpsim::replay {
namespace {

using trace::ThreadKey;

// A top-level API call and the trace events it issued or waited on (its own, and its nested driver calls').
struct TopCall {
  std::size_t event = 0;
  std::vector<std::size_t> members;      // in API order
  std::vector<std::size_t> extra_waits;  // an implicitly synchronizing call: the device's work issued before it
  bool implicitly_synchronizing = false;
};

struct ThreadCalls {
  ThreadKey key;
  std::vector<TopCall> calls;  // in start order
};

// Calls CUDA documents as synchronizing the device although no synchronization record says so.
bool implicitly_synchronizing(const std::string& name) {
  static constexpr std::array<std::string_view, 9> kNames = {
      "cudaFree",  "cudaFreeHost",  "cudaFreeArray",  "cudaFreeMipmappedArray", "cudaDeviceReset",
      "cuMemFree", "cuMemFreeHost", "cuArrayDestroy", "cuMipmappedArrayDestroy"};
  const std::string base = api_base_name(name);
  return std::find(kNames.begin(), kNames.end(), base) != kNames.end();
}

double seconds(std::uint64_t ns) { return static_cast<double>(ns) * 1e-9; }

// Each thread's top-level calls (trace/api_call_nesting.h). `owner` maps every call's correlation id (nested ones
// too) to (thread, top-level call).
std::vector<ThreadCalls> top_level_calls(
    const std::vector<Event>& events, std::unordered_map<std::uint64_t, std::pair<std::size_t, std::size_t>>& owner) {
  std::vector<ThreadCalls> threads;
  for (const trace::ThreadCallGroups& groups : trace::group_api_calls(events)) {
    ThreadCalls thread{groups.key, {}};
    for (const std::vector<std::size_t>& group : groups.calls) {
      TopCall top{group.front(), {}, {}, false};
      for (std::size_t i : group) {
        const ApiCall& call = events[i].api_call();
        top.implicitly_synchronizing = top.implicitly_synchronizing || implicitly_synchronizing(call.name());
        owner.try_emplace(call.correlation_id(), threads.size(), thread.calls.size());
      }
      thread.calls.push_back(std::move(top));
    }
    threads.push_back(std::move(thread));
  }
  return threads;
}

class HostProgramBuilder {
 public:
  HostProgramBuilder(const std::vector<Event>& events, ReplayProgram& program, const HostOptions& options)
      : events_(events), program_(program), options_(options), previous_in_stream_(program.ops.size(), kNoOp) {
    for (const ReplayStream& stream : program.streams) {
      for (std::size_t i = 1; i < stream.ops.size(); ++i) previous_in_stream_[stream.ops[i]] = stream.ops[i - 1];
    }
  }

  HostSummary build() {
    threads_ = top_level_calls(events_, owner_);
    if (threads_.empty()) return build_without_api_calls();
    attribute_events();
    for (const ThreadCalls& thread : threads_) program_.threads.push_back(thread_program(thread));
    if (!unattributed_.empty()) program_.threads.push_back(unattributed_program());
    summary_.from_api_calls = true;
    summary_.threads = threads_.size();
    return summary_;
  }

 private:
  bool has_actions(std::size_t i) const {
    return program_.actions[i].issues != kNoOp || !program_.actions[i].waits.empty();
  }

  // Gives every GPU operation and synchronization the top-level call that made it, in API order; an implicitly
  // synchronizing call waits for what its thread's current device had been given before it.
  void attribute_events() {
    std::vector<std::size_t> last_op(program_.streams.size(), kNoOp);
    std::map<ThreadKey, std::uint32_t> current_device;
    for (std::size_t i = 0; i < events_.size(); ++i) {
      const Event& event = events_[i];
      if (event.has_api_call()) {
        note_implicit_sync(i, last_op, current_device);
        continue;
      }
      if (!has_actions(i) && !event.has_sync()) continue;
      const auto owner = owner_.find(correlation_of(event));
      if (owner == owner_.end()) {
        if (has_actions(i)) unattributed_.push_back(i);
      } else {
        threads_[owner->second.first].calls[owner->second.second].members.push_back(i);
      }
      if (const std::size_t op = program_.actions[i].issues; op != kNoOp) {
        const std::size_t stream = program_.ops[op].stream;
        last_op[stream] = op;
        if (owner != owner_.end())
          current_device[threads_[owner->second.first].key] = program_.streams[stream].device_id;
      }
    }
  }

  void note_implicit_sync(std::size_t event, const std::vector<std::size_t>& last_op,
                          const std::map<ThreadKey, std::uint32_t>& current_device) {
    const auto owner = owner_.find(events_[event].api_call().correlation_id());
    if (owner == owner_.end()) return;
    ThreadCalls& thread = threads_[owner->second.first];
    TopCall& call = thread.calls[owner->second.second];
    if (call.event != event || !call.implicitly_synchronizing) return;
    const auto device = current_device.find(thread.key);
    const std::uint32_t device_id = device == current_device.end() ? 0 : device->second;
    for (std::size_t s = 0; s < program_.streams.size(); ++s) {
      if (program_.streams[s].device_id == device_id && last_op[s] != kNoOp) call.extra_waits.push_back(last_op[s]);
    }
  }

  HostThreadProgram thread_program(const ThreadCalls& thread) {
    HostThreadProgram result{thread.key.first, thread.key.second, {}};
    std::uint64_t host_clock = recording_start_ns(events_);
    for (const TopCall& call : thread.calls) {
      const ApiCall& api = events_[call.event].api_call();
      compute(result, api.start_ns() > host_clock ? api.start_ns() - host_clock : 0);
      add_call(result, call);
      host_clock = std::max(host_clock, api.end_ns());
    }
    summary_.api_calls += thread.calls.size();
    return result;
  }

  void compute(HostThreadProgram& thread, std::uint64_t recorded_ns) {
    if (recorded_ns > 0)
      thread.steps.push_back({HostStep::Kind::kCompute, kNoOp, kNoOp, seconds(recorded_ns) * options_.host_scale});
  }

  void add_call(HostThreadProgram& thread, const TopCall& call) {
    const ApiCall& api = events_[call.event].api_call();
    std::vector<std::size_t> issues, waits = call.extra_waits;
    for (std::size_t member : call.members) {
      if (program_.actions[member].issues != kNoOp) issues.push_back(member);
      for (std::size_t op : program_.actions[member].waits) waits.push_back(op);
    }
    thread.steps.push_back({HostStep::Kind::kCallStart, kNoOp, call.event, 0});
    if (waits.empty()) {
      compute(thread, api.end_ns() - api.start_ns());
      for (std::size_t member : issues)
        thread.steps.push_back({HostStep::Kind::kIssue, program_.actions[member].issues, member, 0});
    } else {
      ++summary_.blocking_calls;
      const std::uint64_t before = setup_ns(api, issues);
      compute(thread, before);
      for (std::size_t member : issues)
        thread.steps.push_back({HostStep::Kind::kIssue, program_.actions[member].issues, member, 0});
      std::uint64_t awaited_end = 0;
      for (std::size_t op : waits) {
        thread.steps.push_back({HostStep::Kind::kWait, op, call.event, 0});
        awaited_end = std::max(awaited_end, end_of(events_[program_.ops[op].event]));
      }
      const std::uint64_t after = api.end_ns() - std::clamp(awaited_end, api.start_ns(), api.end_ns());
      compute(thread, std::min(after, api.end_ns() - api.start_ns() - before));
    }
    thread.steps.push_back({HostStep::Kind::kCallEnd, kNoOp, call.event, 0});
  }

  // The host work of a blocking call before its GPU work could start (a synchronous copy pins or stages host
  // memory first): from the later of the call's start and the recorded end of what the work queued behind on its
  // stream, to the work's recorded start.
  std::uint64_t setup_ns(const ApiCall& api, const std::vector<std::size_t>& issues) const {
    std::uint64_t setup = 0;
    for (std::size_t member : issues) {
      const std::size_t op = program_.actions[member].issues;
      std::uint64_t ready = api.start_ns();
      if (previous_in_stream_[op] != kNoOp)
        ready = std::max(ready, end_of(events_[program_.ops[previous_in_stream_[op]].event]));
      const std::uint64_t start = start_of(events_[member]);
      if (start > ready) setup = std::max(setup, start - ready);
    }
    return std::min(setup, api.end_ns() - api.start_ns());
  }

  // Work no recorded call issued (e.g. outside a capture range): issued at once, in API order.
  HostThreadProgram unattributed_program() {
    HostThreadProgram thread{0, 0, {}};
    for (std::size_t i : unattributed_) append_actions(thread, i, 0);
    summary_.unattributed_events = unattributed_.size();
    return thread;
  }

  void append_actions(HostThreadProgram& thread, std::size_t event, double issue_cost_s) {
    if (const std::size_t op = program_.actions[event].issues; op != kNoOp) {
      if (issue_cost_s > 0) thread.steps.push_back({HostStep::Kind::kCompute, kNoOp, kNoOp, issue_cost_s});
      thread.steps.push_back({HostStep::Kind::kIssue, op, event, 0});
    }
    for (std::size_t op : program_.actions[event].waits) thread.steps.push_back({HostStep::Kind::kWait, op, event, 0});
  }

  HostSummary build_without_api_calls() {
    HostThreadProgram thread{0, 0, {}};
    for (std::size_t i = 0; i < events_.size(); ++i) append_actions(thread, i, options_.api_call_overhead_s);
    program_.threads.push_back(std::move(thread));
    summary_.threads = 1;
    return summary_;
  }

  const std::vector<Event>& events_;
  ReplayProgram& program_;
  const HostOptions& options_;
  std::vector<ThreadCalls> threads_;
  std::unordered_map<std::uint64_t, std::pair<std::size_t, std::size_t>> owner_;
  std::vector<std::size_t> previous_in_stream_;  // per operation, the one before it on its stream
  std::vector<std::size_t> unattributed_;
  HostSummary summary_;
};

}  // namespace

std::string api_base_name(const std::string& name) {
  const std::size_t suffix = name.rfind("_v");
  if (suffix == std::string::npos || suffix + 2 >= name.size()) return name;
  const bool digits = std::all_of(name.begin() + static_cast<std::ptrdiff_t>(suffix + 2), name.end(),
                                  [](char c) { return c >= '0' && c <= '9'; });
  return digits ? name.substr(0, suffix) : name;
}

std::uint64_t recording_start_ns(const std::vector<Event>& events) {
  std::uint64_t first = UINT64_MAX;
  for (const Event& event : events) {
    const std::uint64_t start = start_of(event);
    if (start > 0 && !event.has_sync()) first = std::min(first, start);
  }
  return first == UINT64_MAX ? 0 : first;
}

HostSummary build_host_threads(const std::vector<Event>& events, ReplayProgram& program, const HostOptions& options) {
  return HostProgramBuilder(events, program, options).build();
}

}  // namespace warpsim::replay
