#include "host_program.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace warpsim::replay {
namespace {

// Calls CUDA documents as synchronizing the device although no synchronization record says so.
bool implicitly_synchronizing(const std::string& name) {
  static constexpr std::array<std::string_view, 9> kNames = {
      "cudaFree",  "cudaFreeHost",  "cudaFreeArray",  "cudaFreeMipmappedArray", "cudaDeviceReset",
      "cuMemFree", "cuMemFreeHost", "cuArrayDestroy", "cuMipmappedArrayDestroy"};
  const std::string base = api_base_name(name);
  return std::find(kNames.begin(), kNames.end(), base) != kNames.end();
}

double seconds(std::uint64_t ns) { return static_cast<double>(ns) * 1e-9; }

bool has_actions(const EventActions& actions) { return actions.issues != kNoOp || !actions.waits.empty(); }

}  // namespace

// A trace event a top-level call (or a call nested in it) issued or waited on.
struct HostStepsBuilder::Member {
  std::size_t event = 0;
  std::uint64_t start_ns = 0;  // recorded
  EventActions actions;
  std::optional<AddedOp> op;
};

struct HostStepsBuilder::OpenCall {
  std::size_t event = 0;
  std::uint64_t start_ns = 0, end_ns = 0;
  std::vector<std::uint64_t> correlations;  // its own and its nested calls'
  std::vector<Member> members;              // in API order
  bool implicitly_synchronizing = false;
  // The last operations of the thread's current device's streams when the call began: an implicitly synchronizing
  // call waits for them.
  std::vector<std::pair<std::size_t, std::uint64_t>> device_work;
};

struct HostStepsBuilder::ThreadState {
  std::uint64_t host_clock = 0;  // recorded end of its latest top-level call
  std::optional<OpenCall> open;
  std::optional<std::uint32_t> current_device;  // the device it last issued to
};

HostStepsBuilder::HostStepsBuilder(const HostOptions& options, std::uint64_t recording_start_ns,
                                   std::vector<ThreadKey> threads, bool unattributed)
    : options_(options) {
  for (const ThreadKey& key : threads) {
    thread_index_.emplace(key, threads_.size());
    threads_.push_back({recording_start_ns, std::nullopt, std::nullopt});
  }
  summary_.from_api_calls = !threads.empty();
  summary_.threads = threads.empty() ? 1 : threads.size();
  ready_.resize(threads.size() + (threads.empty() || unattributed ? 1 : 0));
}

HostStepsBuilder::~HostStepsBuilder() = default;

void HostStepsBuilder::add(const Event& event, std::size_t event_index, const EventActions& actions,
                           const std::optional<AddedOp>& op, const ProgramBuilder& program) {
  if (!summary_.from_api_calls) {
    append_actions(0, event_index, actions, op, options_.api_call_overhead_s);
  } else if (event.has_api_call()) {
    add_api_call(event.api_call(), event_index, program);
  } else if (has_actions(actions) || event.has_sync()) {
    add_work(event, event_index, actions, op, program);
  }
}

void HostStepsBuilder::add_api_call(const ApiCall& call, std::size_t event_index, const ProgramBuilder& program) {
  close_calls_ended_before(call.start_ns());
  const auto it = thread_index_.find({call.process_id(), call.thread_id()});
  if (it == thread_index_.end()) return;
  const std::size_t t = it->second;
  ThreadState& thread = threads_[t];
  const bool nested = thread.open && call.start_ns() < thread.open->end_ns && call.end_ns() <= thread.open->end_ns;
  if (!nested) {
    close(t);
    OpenCall open;
    open.event = event_index;
    open.start_ns = call.start_ns();
    open.end_ns = call.end_ns();
    open.device_work = program.last_ops_on(thread.current_device.value_or(0));
    thread.open = std::move(open);
    open_by_end_.emplace(call.end_ns(), t);
  }
  thread.open->correlations.push_back(call.correlation_id());
  thread.open->implicitly_synchronizing =
      thread.open->implicitly_synchronizing || implicitly_synchronizing(call.name());
  owner_.try_emplace(call.correlation_id(), t);
}

// Gives a GPU operation or synchronization the open call that made it; work no recorded call made is issued at once,
// in API order, by the unattributed thread.
void HostStepsBuilder::add_work(const Event& event, std::size_t event_index, const EventActions& actions,
                                const std::optional<AddedOp>& op, const ProgramBuilder& program) {
  const auto owner = owner_.find(correlation_of(event));
  if (owner == owner_.end()) {
    if (!has_actions(actions)) return;
    ++summary_.unattributed_events;
    append_actions(ready_.size() - 1, event_index, actions, op, 0);
    return;
  }
  ThreadState& thread = threads_[owner->second];
  thread.open->members.push_back({event_index, start_of(event), actions, op});
  if (op) thread.current_device = program.streams()[op->op.stream].device_id;
}

void HostStepsBuilder::close_calls_ended_before(std::uint64_t start_ns) {
  while (!open_by_end_.empty() && open_by_end_.top().first < start_ns) {
    const auto [end_ns, t] = open_by_end_.top();
    open_by_end_.pop();
    if (threads_[t].open && threads_[t].open->end_ns == end_ns) close(t);
  }
}

void HostStepsBuilder::finish() {
  for (std::size_t t = 0; t < threads_.size(); ++t) close(t);
}

void HostStepsBuilder::close(std::size_t t) {
  ThreadState& thread = threads_[t];
  if (!thread.open) return;
  const OpenCall call = std::move(*thread.open);
  thread.open.reset();
  for (std::uint64_t correlation : call.correlations) owner_.erase(correlation);
  compute(t, call.start_ns > thread.host_clock ? call.start_ns - thread.host_clock : 0);
  add_call(t, call);
  thread.host_clock = std::max(thread.host_clock, call.end_ns);
  ++summary_.api_calls;
}

void HostStepsBuilder::compute(std::size_t t, std::uint64_t recorded_ns) {
  if (recorded_ns > 0)
    ready_[t].push_back({HostStep::Kind::kCompute, kNoOp, kNoOp, seconds(recorded_ns) * options_.host_scale});
}

void HostStepsBuilder::add_call(std::size_t t, const OpenCall& call) {
  std::deque<HostStep>& steps = ready_[t];
  std::vector<const Member*> issues;
  std::vector<std::pair<std::size_t, std::uint64_t>> waits;
  if (call.implicitly_synchronizing) waits = call.device_work;
  for (const Member& member : call.members) {
    if (member.actions.issues != kNoOp) issues.push_back(&member);
    for (std::size_t i = 0; i < member.actions.waits.size(); ++i)
      waits.emplace_back(member.actions.waits[i], member.actions.waits_recorded_end_ns[i]);
  }
  const std::uint64_t duration = call.end_ns - call.start_ns;
  steps.push_back({HostStep::Kind::kCallStart, kNoOp, call.event, 0});
  if (waits.empty()) {
    compute(t, duration);
    for (const Member* member : issues)
      steps.push_back({HostStep::Kind::kIssue, member->actions.issues, member->event, 0, member->op->op.stream});
  } else {
    ++summary_.blocking_calls;
    // The host work of a blocking call before its GPU work could start (a synchronous copy pins or stages host
    // memory first): from the later of the call's start and the recorded end of what the work queued behind on its
    // stream, to the work's recorded start.
    std::uint64_t before = 0;
    for (const Member* member : issues) {
      std::uint64_t ready = call.start_ns;
      if (member->op && member->op->has_previous) ready = std::max(ready, member->op->previous_recorded_end_ns);
      if (member->start_ns > ready) before = std::max(before, member->start_ns - ready);
    }
    before = std::min(before, duration);
    compute(t, before);
    for (const Member* member : issues)
      steps.push_back({HostStep::Kind::kIssue, member->actions.issues, member->event, 0, member->op->op.stream});
    std::uint64_t awaited_end = 0;
    for (const auto& [op, recorded_end_ns] : waits) {
      steps.push_back({HostStep::Kind::kWait, op, call.event, 0});
      awaited_end = std::max(awaited_end, recorded_end_ns);
    }
    const std::uint64_t after = call.end_ns - std::clamp(awaited_end, call.start_ns, call.end_ns);
    compute(t, std::min(after, duration - before));
  }
  steps.push_back({HostStep::Kind::kCallEnd, kNoOp, call.event, 0});
}

void HostStepsBuilder::append_actions(std::size_t t, std::size_t event_index, const EventActions& actions,
                                      const std::optional<AddedOp>& op, double issue_cost_s) {
  if (op) {
    if (issue_cost_s > 0) ready_[t].push_back({HostStep::Kind::kCompute, kNoOp, kNoOp, issue_cost_s});
    ready_[t].push_back({HostStep::Kind::kIssue, actions.issues, event_index, 0, op->op.stream});
  }
  for (std::size_t awaited : actions.waits) ready_[t].push_back({HostStep::Kind::kWait, awaited, event_index, 0});
}

std::string api_base_name(const std::string& name) {
  const std::size_t suffix = name.rfind("_v");
  if (suffix == std::string::npos || suffix + 2 >= name.size()) return name;
  const bool digits = std::all_of(name.begin() + static_cast<std::ptrdiff_t>(suffix + 2), name.end(),
                                  [](char c) { return c >= '0' && c <= '9'; });
  return digits ? name.substr(0, suffix) : name;
}

}  // namespace warpsim::replay
