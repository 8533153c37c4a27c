#include "replay_program.h"

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>
#include <utility>

namespace warpsim::replay {
namespace {

std::optional<std::pair<std::uint32_t, std::uint32_t>> stream_of(const Event& event) {
  switch (event.kind_case()) {
    case Event::kKernel: return std::pair{event.kernel().device_id(), event.kernel().stream_id()};
    case Event::kMemcpy: return std::pair{event.memcpy().device_id(), event.memcpy().stream_id()};
    case Event::kMemset: return std::pair{event.memset().device_id(), event.memset().stream_id()};
    default: return std::nullopt;
  }
}

bool blocks_host(const Event& event) {
  if (!event.has_memcpy()) return false;
  const Memcpy& copy = event.memcpy();
  const bool synchronous_call = copy.has_asynchronous() && !copy.asynchronous();
  return synchronous_call || copy.src_memory() == MEMORY_KIND_PAGEABLE ||
         copy.dst_memory() == MEMORY_KIND_PAGEABLE || copy.kind() == Memcpy::HTOH;
}

}  // namespace

StreamKinds stream_kinds(const std::vector<Event>& events) {
  StreamKinds kinds;
  for (const Event& event : events) {
    if (event.has_stream()) kinds[{event.stream().device_id(), event.stream().stream_id()}] = event.stream().kind();
  }
  return kinds;
}

std::size_t ProgramBuilder::stream_index(StreamKey key) {
  auto [it, added] = stream_index_.try_emplace(key, streams_.size());
  if (added) {
    streams_.push_back({key.first, key.second, {}});
    last_op_.emplace_back();
    pending_waits_.emplace_back();
  }
  return it->second;
}

EventActions ProgramBuilder::add(const Event& event, std::size_t event_index, std::optional<AddedOp>& added) {
  EventActions actions;
  added.reset();
  if (auto stream = stream_of(event)) {
    added = add_operation(event, event_index, stream_index(*stream), actions);
  } else if (event.has_sync()) {
    add_synchronization(event.sync(), actions);
  }
  return actions;
}

std::vector<std::pair<std::size_t, std::uint64_t>> ProgramBuilder::last_ops_on(std::uint32_t device) const {
  std::vector<std::pair<std::size_t, std::uint64_t>> ops;
  for (std::size_t s = 0; s < streams_.size(); ++s) {
    if (streams_[s].device_id == device && last_op_[s].op != kNoOp)
      ops.emplace_back(last_op_[s].op, last_op_[s].recorded_end_ns);
  }
  return ops;
}

Stream::Kind ProgramBuilder::kind_of(std::size_t stream) const {
  const auto it = kinds_.find({streams_[stream].device_id, streams_[stream].stream_id});
  return it == kinds_.end() ? Stream::BLOCKING : it->second;
}

// The legacy default stream waits for the device's blocking streams, and they for it.
void ProgramBuilder::add_legacy_default_waits(std::size_t stream, std::vector<std::size_t>& waits) {
  const Stream::Kind kind = kind_of(stream);
  if (kind == Stream::NON_BLOCKING) return;
  const std::uint32_t device = streams_[stream].device_id;
  if (kind == Stream::LEGACY_DEFAULT) {
    for (std::size_t s = 0; s < streams_.size(); ++s) {
      if (s != stream && streams_[s].device_id == device && kind_of(s) == Stream::BLOCKING && last_op_[s].op != kNoOp)
        waits.push_back(last_op_[s].op);
    }
  } else if (auto it = last_legacy_op_.find(device); it != last_legacy_op_.end()) {
    waits.push_back(it->second);
  }
}

AddedOp ProgramBuilder::add_operation(const Event& event, std::size_t event_index, std::size_t stream,
                                      EventActions& actions) {
  const std::size_t op = ops_++;
  std::vector<std::size_t> waits = std::move(pending_waits_[stream]);
  pending_waits_[stream].clear();
  add_legacy_default_waits(stream, waits);
  AddedOp added{
      {event_index, stream, std::move(waits)}, last_op_[stream].recorded_end_ns, last_op_[stream].op != kNoOp};
  last_op_[stream] = {op, end_of(event)};
  if (kind_of(stream) == Stream::LEGACY_DEFAULT) last_legacy_op_[streams_[stream].device_id] = op;
  actions.issues = op;
  if (blocks_host(event)) host_waits_for(last_op_[stream], actions);
  return added;
}

void ProgramBuilder::host_waits_for(const LastOp& last, EventActions& actions) {
  if (last.op == kNoOp) return;
  actions.waits.push_back(last.op);
  actions.waits_recorded_end_ns.push_back(last.recorded_end_ns);
}

void ProgramBuilder::add_synchronization(const Synchronization& sync, EventActions& actions) {
  switch (sync.type()) {
    case Synchronization::EVENT_RECORD:
      if (sync.has_stream_id())
        recorded_[sync.event_id()] = last_op_[stream_index({sync.device_id(), sync.stream_id()})];
      break;
    case Synchronization::STREAM_WAIT_EVENT:
      if (auto it = recorded_.find(sync.event_id());
          it != recorded_.end() && it->second.op != kNoOp && sync.has_stream_id()) {
        pending_waits_[stream_index({sync.device_id(), sync.stream_id()})].push_back(it->second.op);
      }
      break;
    case Synchronization::EVENT_SYNCHRONIZE:
      if (auto it = recorded_.find(sync.event_id()); it != recorded_.end()) host_waits_for(it->second, actions);
      break;
    case Synchronization::STREAM_SYNCHRONIZE:
      if (sync.has_stream_id()) host_waits_for(last_op_[stream_index({sync.device_id(), sync.stream_id()})], actions);
      break;
    case Synchronization::CONTEXT_SYNCHRONIZE:
      for (std::size_t s = 0; s < streams_.size(); ++s) {
        if (streams_[s].device_id == sync.device_id()) host_waits_for(last_op_[s], actions);
      }
      break;
    default: break;
  }
}

std::uint64_t correlation_of(const Event& event) {
  switch (event.kind_case()) {
    case Event::kKernel: return event.kernel().correlation_id();
    case Event::kMemcpy: return event.memcpy().correlation_id();
    case Event::kMemset: return event.memset().correlation_id();
    case Event::kSync: return event.sync().correlation_id();
    case Event::kApiCall: return event.api_call().correlation_id();
    case Event::kStream: return event.stream().correlation_id();
    default: return 0;
  }
}

std::uint64_t start_of(const Event& event) {
  switch (event.kind_case()) {
    case Event::kKernel: return event.kernel().start_ns();
    case Event::kMemcpy: return event.memcpy().start_ns();
    case Event::kMemset: return event.memset().start_ns();
    case Event::kSync: return event.sync().start_ns();
    case Event::kMarker: return event.marker().start_ns();
    case Event::kApiCall: return event.api_call().start_ns();
    default: return 0;
  }
}

std::uint64_t end_of(const Event& event) {
  switch (event.kind_case()) {
    case Event::kKernel: return event.kernel().end_ns();
    case Event::kMemcpy: return event.memcpy().end_ns();
    case Event::kMemset: return event.memset().end_ns();
    case Event::kSync: return event.sync().end_ns();
    case Event::kMarker: return event.marker().end_ns();
    case Event::kApiCall: return event.api_call().end_ns();
    default: return 0;
  }
}

ReplayProgram build_replay_program(const std::vector<Event>& events) {
  ProgramBuilder builder(stream_kinds(events));
  ReplayProgram program;
  std::optional<AddedOp> added;
  for (std::size_t i = 0; i < events.size(); ++i) {
    program.actions.push_back(builder.add(events[i], i, added));
    if (added) program.ops.push_back(std::move(added->op));
  }
  program.streams = builder.streams();
  for (std::size_t op = 0; op < program.ops.size(); ++op) program.streams[program.ops[op].stream].ops.push_back(op);
  return program;
}

}  // namespace warpsim::replay
