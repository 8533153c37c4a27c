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

using StreamKey = std::pair<std::uint32_t, std::uint32_t>;  // (device, stream)

// The streams the trace says were created non-blocking or are the legacy default stream; any other is blocking.
std::map<StreamKey, Stream::Kind> stream_kinds(const std::vector<Event>& events) {
  std::map<StreamKey, Stream::Kind> kinds;
  for (const Event& event : events) {
    if (event.has_stream()) kinds[{event.stream().device_id(), event.stream().stream_id()}] = event.stream().kind();
  }
  return kinds;
}

// Walks the events once, keeping what CUDA keeps: the last operation per stream, what each event recorded, and the
// waits a stream owes its next operation.
class ProgramBuilder {
 public:
  explicit ProgramBuilder(const std::vector<Event>& events) : events_(events), kinds_(stream_kinds(events)) {}

  ReplayProgram build() {
    program_.actions.resize(events_.size());
    for (std::size_t i = 0; i < events_.size(); ++i) {
      if (auto stream = stream_of(events_[i])) {
        add_operation(i, stream_index(*stream));
      } else if (events_[i].has_sync()) {
        add_synchronization(i, events_[i].sync());
      }
    }
    return std::move(program_);
  }

 private:
  std::size_t stream_index(StreamKey key) {
    auto [it, added] = stream_index_.try_emplace(key, program_.streams.size());
    if (added) {
      program_.streams.push_back({key.first, key.second, {}});
      last_op_.push_back(kNoOp);
      pending_waits_.emplace_back();
    }
    return it->second;
  }

  Stream::Kind kind_of(std::size_t stream) const {
    const auto it = kinds_.find({program_.streams[stream].device_id, program_.streams[stream].stream_id});
    return it == kinds_.end() ? Stream::BLOCKING : it->second;
  }

  // The legacy default stream waits for the device's blocking streams, and they for it.
  void add_legacy_default_waits(std::size_t stream, std::vector<std::size_t>& waits) {
    const Stream::Kind kind = kind_of(stream);
    if (kind == Stream::NON_BLOCKING) return;
    const std::uint32_t device = program_.streams[stream].device_id;
    if (kind == Stream::LEGACY_DEFAULT) {
      for (std::size_t s = 0; s < program_.streams.size(); ++s) {
        if (s != stream && program_.streams[s].device_id == device && kind_of(s) == Stream::BLOCKING &&
            last_op_[s] != kNoOp)
          waits.push_back(last_op_[s]);
      }
    } else if (auto it = last_legacy_op_.find(device); it != last_legacy_op_.end()) {
      waits.push_back(it->second);
    }
  }

  void add_operation(std::size_t event, std::size_t stream) {
    const std::size_t op = program_.ops.size();
    std::vector<std::size_t> waits = std::move(pending_waits_[stream]);
    pending_waits_[stream].clear();
    add_legacy_default_waits(stream, waits);
    program_.ops.push_back({event, stream, std::move(waits)});
    program_.streams[stream].ops.push_back(op);
    last_op_[stream] = op;
    if (kind_of(stream) == Stream::LEGACY_DEFAULT) last_legacy_op_[program_.streams[stream].device_id] = op;
    program_.actions[event].issues = op;
    if (blocks_host(events_[event])) host_waits_for(op, event);
  }

  void host_waits_for(std::size_t op, std::size_t event) {
    if (op != kNoOp) program_.actions[event].waits.push_back(op);
  }

  void add_synchronization(std::size_t event, const Synchronization& sync) {
    switch (sync.type()) {
      case Synchronization::EVENT_RECORD:
        if (sync.has_stream_id()) recorded_[sync.event_id()] = last_op_[stream_index({sync.device_id(), sync.stream_id()})];
        break;
      case Synchronization::STREAM_WAIT_EVENT:
        if (auto it = recorded_.find(sync.event_id()); it != recorded_.end() && it->second != kNoOp && sync.has_stream_id()) {
          pending_waits_[stream_index({sync.device_id(), sync.stream_id()})].push_back(it->second);
        }
        break;
      case Synchronization::EVENT_SYNCHRONIZE:
        if (auto it = recorded_.find(sync.event_id()); it != recorded_.end()) host_waits_for(it->second, event);
        break;
      case Synchronization::STREAM_SYNCHRONIZE:
        if (sync.has_stream_id()) host_waits_for(last_op_[stream_index({sync.device_id(), sync.stream_id()})], event);
        break;
      case Synchronization::CONTEXT_SYNCHRONIZE:
        for (std::size_t s = 0; s < program_.streams.size(); ++s) {
          if (program_.streams[s].device_id == sync.device_id()) host_waits_for(last_op_[s], event);
        }
        break;
      default: break;
    }
  }

  const std::vector<Event>& events_;
  const std::map<StreamKey, Stream::Kind> kinds_;
  ReplayProgram program_;
  std::map<StreamKey, std::size_t> stream_index_;
  std::map<std::uint32_t, std::size_t> last_legacy_op_;  // device -> last operation on its legacy default stream
  std::vector<std::size_t> last_op_;
  std::vector<std::vector<std::size_t>> pending_waits_;
  std::unordered_map<std::uint64_t, std::size_t> recorded_;  // event id -> operation it marks
};

}  // namespace

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

// Sorts keys, not events: comparing and swapping the events themselves cost a million-event trace half a second.
std::vector<std::size_t> api_order(const std::vector<Event>& events) {
  struct Key {
    std::uint64_t correlation, start;
    std::size_t index;
  };
  std::vector<Key> keys;
  keys.reserve(events.size());
  for (std::size_t i = 0; i < events.size(); ++i) keys.push_back({correlation_of(events[i]), start_of(events[i]), i});
  std::stable_sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
    return std::pair{a.correlation, a.start} < std::pair{b.correlation, b.start};
  });
  std::vector<std::size_t> order;
  order.reserve(keys.size());
  for (const Key& key : keys) order.push_back(key.index);
  return order;
}

std::vector<std::size_t> sort_by_api_order(std::vector<Event>& events) {
  std::vector<std::size_t> order = api_order(events);
  std::vector<Event> sorted(events.size());
  for (std::size_t i = 0; i < order.size(); ++i) sorted[i].Swap(&events[order[i]]);
  events.swap(sorted);
  return order;
}

ReplayProgram build_replay_program(const std::vector<Event>& events) { return ProgramBuilder(events).build(); }

}  // namespace warpsim::replay
