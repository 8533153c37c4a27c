#include "spmd_scale.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <system_error>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "api_call_nesting.h"
#include "atomic_output.h"
#include "trace.pb.h"
#include "trace_error.h"
#include "trace_reader.h"
#include "trace_writer.h"

namespace warpsim::trace {
namespace {

struct Recording {
  TraceHeader header;
  std::vector<Event> events;
};

Recording read_all(const std::filesystem::path& input) {
  TraceReader reader(input);
  Recording recording{reader.header(), {}};
  Event event;
  while (reader.next(event)) recording.events.push_back(event);
  return recording;
}

void check_input(const Recording& recording, const ScaleOptions& options, const std::filesystem::path& input) {
  const auto refuse = [&](const std::string& why) { throw TraceError(input.string(), std::nullopt, why); };
  if (options.gpus < 2 || options.gpus % 2 != 0)
    refuse("--gpus " + std::to_string(options.gpus) + ": the pairs scaling needs an even count of at least 2");
  if (recording.header.mode() == CAPTURE_MODE_SIMULATED) refuse("a simulated trace: scale a recording");
  const auto& devices = recording.header.devices();
  if (devices.size() != 2 || devices[0].id() != 0 || devices[1].id() != 1)
    refuse("scaling needs a two-GPU recording (devices 0 and 1); this trace has " + std::to_string(devices.size()) +
           " device(s)");
}

/// What every pair adds to an id so that no two pairs share one: one more than the recording's largest. (Correlation
/// ids are numbered apart: CorrelationIds.)
struct IdStrides {
  std::uint64_t stream = 1, cuda_event = 1, thread = 1, graph = 1;
};

void widen(std::uint64_t& stride, std::uint64_t id) { stride = std::max(stride, id + 1); }

/// A kernel, copy or memset: the stream operations that share device, stream, correlation and graph fields.
template <typename StreamOp>
void widen_for(IdStrides& s, const StreamOp& op) {
  widen(s.stream, op.stream_id());
  if (op.has_graph_id()) widen(s.graph, op.graph_id());
}

IdStrides id_strides(const std::vector<Event>& events) {
  IdStrides s;
  for (const Event& e : events) {
    if (e.has_kernel()) {
      widen_for(s, e.kernel());
    } else if (e.has_memcpy()) {
      widen_for(s, e.memcpy());
    } else if (e.has_memset()) {
      widen_for(s, e.memset());
    } else if (e.has_sync()) {
      widen(s.stream, e.sync().stream_id());
      widen(s.cuda_event, e.sync().event_id());
    } else if (e.has_api_call()) {
      widen(s.thread, e.api_call().thread_id());
    } else if (e.has_stream()) {
      widen(s.stream, e.stream().stream_id());
    } else if (e.has_host_thread()) {
      widen(s.thread, e.host_thread().thread_id());
    } else if (e.has_marker() && e.marker().has_thread_id()) {
      widen(s.thread, e.marker().thread_id());
    }
  }
  return s;
}

// ---------------------------------------------------------------------------------------------------------------
// Header: the pair's devices and links, once per pair
// ---------------------------------------------------------------------------------------------------------------

bool touches_device(const Endpoint& end) { return end.kind() == Endpoint::DEVICE; }

void move_endpoint(Endpoint& end, std::uint32_t pair) {
  if (touches_device(end)) end.set_device_id(2 * pair + end.device_id());
}

TraceHeader scaled_header(const TraceHeader& recorded, std::uint32_t pairs) {
  TraceHeader header = recorded;
  header.clear_devices();
  header.clear_links();
  for (std::uint32_t p = 0; p < pairs; ++p) {
    for (const Device& original : recorded.devices()) {
      Device& device = *header.add_devices();
      device = original;
      device.set_id(2 * p + original.id());
      device.clear_uuid();  // a copy is not that GPU
      device.clear_pci_bus_id();
      device.clear_peer_access_device_ids();
      for (std::uint32_t peer : original.peer_access_device_ids()) device.add_peer_access_device_ids(2 * p + peer);
    }
    for (const Link& original : recorded.links()) {
      if (!touches_device(original.a()) && !touches_device(original.b())) {
        if (p == 0) *header.add_links() = original;  // host-side links are the node's, not a pair's
        continue;
      }
      Link& link = *header.add_links();
      link = original;
      move_endpoint(*link.mutable_a(), p);
      move_endpoint(*link.mutable_b(), p);
    }
  }
  return header;
}

// ---------------------------------------------------------------------------------------------------------------
// Host threads: which get a copy per pair
// ---------------------------------------------------------------------------------------------------------------

std::uint64_t correlation_of(const Event& e) {
  if (e.has_kernel()) return e.kernel().correlation_id();
  if (e.has_memcpy()) return e.memcpy().correlation_id();
  if (e.has_memset()) return e.memset().correlation_id();
  if (e.has_sync()) return e.sync().correlation_id();
  return 0;
}

std::uint32_t device_of(const Event& e) {
  if (e.has_kernel()) return e.kernel().device_id();
  if (e.has_memcpy()) return e.memcpy().device_id();
  if (e.has_memset()) return e.memset().device_id();
  return e.sync().device_id();
}

/// The threads whose calls' GPU work all lands on one device: they drove that GPU alone.
std::set<std::uint64_t> one_gpu_threads(const std::vector<Event>& events) {
  std::unordered_map<std::uint64_t, std::uint32_t> device_of_correlation;
  for (const Event& e : events) {
    if (correlation_of(e) != 0) device_of_correlation.emplace(correlation_of(e), device_of(e));
  }
  std::map<std::uint64_t, std::set<std::uint32_t>> devices_of_thread;
  for (const Event& e : events) {
    if (!e.has_api_call()) continue;
    std::set<std::uint32_t>& devices = devices_of_thread[e.api_call().thread_id()];
    const auto device = device_of_correlation.find(e.api_call().correlation_id());
    if (device != device_of_correlation.end()) devices.insert(device->second);
  }
  std::set<std::uint64_t> threads;
  for (const auto& [thread, devices] : devices_of_thread)
    if (devices.size() == 1) threads.insert(thread);
  return threads;
}

std::set<std::uint64_t> replicated_threads(const std::vector<Event>& events, HostThreads host) {
  if (host == HostThreads::kShared) return {};
  if (host == HostThreads::kAuto) return one_gpu_threads(events);
  std::set<std::uint64_t> all;
  for (const Event& e : events) {
    if (e.has_api_call()) all.insert(e.api_call().thread_id());
    if (e.has_host_thread()) all.insert(e.host_thread().thread_id());
  }
  return all;
}

// ---------------------------------------------------------------------------------------------------------------
// Host time: each shared host thread issues every pair's copy of a call in turn
// ---------------------------------------------------------------------------------------------------------------

/// shift[p][i]: nanoseconds added to every time of pair p's copy of event i.
using TimeShifts = std::vector<std::vector<std::int64_t>>;

/// Lays every shared thread's top-level calls out pair after pair: each copy keeps the recorded gap before the call
/// and the call's duration. Device work follows its call (same correlation id) by the same shift. Replicated threads
/// keep their recorded times.
TimeShifts shared_host_shifts(const std::vector<Event>& events, std::uint32_t pairs,
                              const std::set<std::uint64_t>& replicated) {
  TimeShifts shift(pairs, std::vector<std::int64_t>(events.size(), 0));
  std::unordered_map<std::uint64_t, std::size_t> call_of_correlation;
  for (const ThreadCallGroups& groups : group_api_calls(events, replicated)) {
    const auto& thread = groups.calls;
    if (thread.empty()) continue;
    std::uint64_t clock = events[thread.front().front()].api_call().start_ns();
    std::uint64_t recorded_end = clock;
    for (const std::vector<std::size_t>& top : thread) {
      const ApiCall& call = events[top.front()].api_call();
      const std::uint64_t gap = call.start_ns() > recorded_end ? call.start_ns() - recorded_end : 0;
      for (std::uint32_t p = 0; p < pairs; ++p) {
        const std::uint64_t start = clock + gap;
        for (std::size_t i : top)
          shift[p][i] = static_cast<std::int64_t>(start) - static_cast<std::int64_t>(call.start_ns());
        clock = start + (call.end_ns() - call.start_ns());
      }
      recorded_end = std::max(recorded_end, call.end_ns());
      for (std::size_t i : top) call_of_correlation.emplace(events[i].api_call().correlation_id(), i);
    }
  }
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (events[i].has_api_call()) continue;
    const std::uint64_t correlation = correlation_of(events[i]);
    const auto call = call_of_correlation.find(correlation);
    if (correlation == 0 || call == call_of_correlation.end()) continue;
    for (std::uint32_t p = 0; p < pairs; ++p) shift[p][i] = shift[p][call->second];
  }
  return shift;
}

// ---------------------------------------------------------------------------------------------------------------
// Correlation ids: each recorded call's copies one after the other
// ---------------------------------------------------------------------------------------------------------------

/// Every pair's correlation ids. CUPTI numbers a process's API calls in the order they are made, and the replay takes
/// each thread's calls in that order (sim/replay/README.md, "Order"). With pair p's ids the recording's plus p times
/// a stride, a shared thread's calls would come pair after pair in that order, not in turn as the thread makes them
/// (pair 1's calls would look nested in pair 0's last). So the ids go top-level call by top-level call, in the
/// recording's order: for each, every pair's copy in turn, each copy the call's id and then those of the calls nested
/// in it, as a shared thread makes them; an id no call has is one on its own. A recording without API calls keeps
/// its pairs one after the other, as before.
class CorrelationIds {
 public:
  CorrelationIds(const std::vector<Event>& events, std::uint32_t pairs) {
    std::map<std::uint64_t, std::uint64_t> first_of;  // recorded id -> the first id of its top-level call's group
    for (const Event& e : events) {
      if (const std::uint64_t id = recorded_id(e); id != 0) first_of.emplace(id, id);
    }
    const std::vector<ThreadCallGroups> threads = group_api_calls(events);
    for (const ThreadCallGroups& thread : threads) {
      for (const std::vector<std::size_t>& group : thread.calls) {
        std::uint64_t first = std::numeric_limits<std::uint64_t>::max();
        for (std::size_t i : group) first = std::min(first, events[i].api_call().correlation_id());
        for (std::size_t i : group) first_of[events[i].api_call().correlation_id()] = first;
      }
    }
    std::map<std::uint64_t, std::vector<std::uint64_t>> groups;  // first id -> the group's ids, in order
    for (const auto& [id, first] : first_of) {
      rank_.emplace(id, rank_.size());
      groups[first].push_back(id);
    }
    ids_.assign(pairs, std::vector<std::uint64_t>(rank_.size(), 0));
    std::uint64_t next = 1;
    if (threads.empty()) {
      for (std::uint32_t p = 0; p < pairs; ++p) {
        for (std::uint64_t& id : ids_[p]) id = next++;
      }
      return;
    }
    for (const auto& [first, ids] : groups) {
      for (std::uint32_t p = 0; p < pairs; ++p) {
        for (std::uint64_t id : ids) ids_[p][rank_.at(id)] = next++;
      }
    }
  }

  std::uint64_t operator()(std::uint32_t pair, std::uint64_t recorded) const {
    return recorded == 0 ? 0 : ids_[pair][rank_.at(recorded)];
  }

 private:
  static std::uint64_t recorded_id(const Event& e) {
    if (e.has_api_call()) return e.api_call().correlation_id();
    if (e.has_stream()) return e.stream().correlation_id();
    return correlation_of(e);
  }

  std::unordered_map<std::uint64_t, std::size_t> rank_;  // recorded id -> its place among the recording's ids
  std::vector<std::vector<std::uint64_t>> ids_;          // per pair, per rank: the scaled trace's id
};

// ---------------------------------------------------------------------------------------------------------------
// One event, moved to pair p
// ---------------------------------------------------------------------------------------------------------------

struct PairMap {
  std::uint32_t pair = 0;
  IdStrides strides;
  const CorrelationIds* correlations = nullptr;
  const std::set<std::uint64_t>* replicated = nullptr;  // threads with a copy per pair
  std::int64_t shift_ns = 0;

  bool replicates(std::uint64_t t) const { return replicated->count(t) != 0; }

  std::uint32_t device(std::uint32_t d) const { return 2 * pair + d; }
  std::uint32_t stream(std::uint32_t s) const { return static_cast<std::uint32_t>(s + pair * strides.stream); }
  std::uint64_t cuda_event(std::uint64_t e) const { return e + pair * strides.cuda_event; }
  std::uint64_t correlation(std::uint64_t c) const { return (*correlations)(pair, c); }
  std::uint64_t graph(std::uint64_t g) const { return g + pair * strides.graph; }
  std::uint64_t thread(std::uint64_t t) const { return replicates(t) ? t + pair * strides.thread : t; }
  std::uint64_t time(std::uint64_t ns) const {
    return ns == 0 ? 0 : static_cast<std::uint64_t>(static_cast<std::int64_t>(ns) + shift_ns);
  }
};

/// A kernel, copy or memset (widen_for's kinds) moved to the pair.
template <typename StreamOp>
void move_stream_op(StreamOp& op, const PairMap& m) {
  op.set_device_id(m.device(op.device_id()));
  op.set_stream_id(m.stream(op.stream_id()));
  op.set_correlation_id(m.correlation(op.correlation_id()));
  if (op.has_graph_id()) op.set_graph_id(m.graph(op.graph_id()));
  op.set_start_ns(m.time(op.start_ns()));
  op.set_end_ns(m.time(op.end_ns()));
}

void move_memcpy(Memcpy& c, const PairMap& m) {
  move_stream_op(c, m);
  if (c.has_src_device_id()) c.set_src_device_id(m.device(c.src_device_id()));
  if (c.has_dst_device_id()) c.set_dst_device_id(m.device(c.dst_device_id()));
}

void move_sync(Synchronization& s, const PairMap& m) {
  s.set_device_id(m.device(s.device_id()));
  if (s.has_stream_id()) s.set_stream_id(m.stream(s.stream_id()));
  if (s.has_event_id()) s.set_event_id(m.cuda_event(s.event_id()));
  s.set_correlation_id(m.correlation(s.correlation_id()));
  s.set_start_ns(m.time(s.start_ns()));
  s.set_end_ns(m.time(s.end_ns()));
}

void move_api_call(ApiCall& a, const PairMap& m) {
  a.set_thread_id(m.thread(a.thread_id()));
  a.set_correlation_id(m.correlation(a.correlation_id()));
  a.set_start_ns(m.time(a.start_ns()));
  a.set_end_ns(m.time(a.end_ns()));
}

void move_marker(Marker& k, const PairMap& m) {
  if (k.has_device_id()) k.set_device_id(m.device(k.device_id()));
  if (k.has_thread_id()) k.set_thread_id(m.thread(k.thread_id()));
  k.set_start_ns(m.time(k.start_ns()));
  if (k.has_end_ns()) k.set_end_ns(m.time(k.end_ns()));
}

void move_stream(Stream& s, const PairMap& m) {
  s.set_device_id(m.device(s.device_id()));
  s.set_stream_id(m.stream(s.stream_id()));
  s.set_correlation_id(m.correlation(s.correlation_id()));
}

/// Pair p's copy of `event`; false when the pair has none (a shared host thread is named once, by pair 0).
bool moved(const Event& event, const PairMap& m, Event& out) {
  out = event;
  switch (out.kind_case()) {
    case Event::kKernel: move_stream_op(*out.mutable_kernel(), m); break;
    case Event::kMemcpy: move_memcpy(*out.mutable_memcpy(), m); break;
    case Event::kMemset: move_stream_op(*out.mutable_memset(), m); break;
    case Event::kSync: move_sync(*out.mutable_sync(), m); break;
    case Event::kApiCall: move_api_call(*out.mutable_api_call(), m); break;
    case Event::kMarker: move_marker(*out.mutable_marker(), m); break;
    case Event::kStream: move_stream(*out.mutable_stream(), m); break;
    case Event::kHostThread:
      if (!m.replicates(out.host_thread().thread_id())) return m.pair == 0;
      out.mutable_host_thread()->set_thread_id(m.thread(out.host_thread().thread_id()));
      break;
    case Event::kTrafficSamples: return false;  // a traffic run's raw samples: merge turns them into kernel profiles
    case Event::KIND_NOT_SET: break;
  }
  return true;
}

void write_scaled(const Recording& recording, const ScaleOptions& options, const std::filesystem::path& path,
                  ScaleSummary& summary) {
  const std::uint32_t pairs = options.gpus / 2;
  const IdStrides strides = id_strides(recording.events);
  const std::set<std::uint64_t> replicated = replicated_threads(recording.events, options.host);
  const TimeShifts shifts = shared_host_shifts(recording.events, pairs, replicated);
  const CorrelationIds correlations(recording.events, pairs);
  TraceWriter writer(path, scaled_header(recording.header, pairs));
  Event out;
  for (std::size_t i = 0; i < recording.events.size(); ++i) {
    for (std::uint32_t p = 0; p < pairs; ++p) {
      const PairMap map{p, strides, &correlations, &replicated, shifts[p][i]};
      if (moved(recording.events[i], map, out)) writer.write(out);
    }
  }
  writer.close();
  summary.events_written = writer.events_written();
}

}  // namespace

ScaleSummary scale_pairs(const std::filesystem::path& input, const ScaleOptions& options,
                         const std::filesystem::path& output) {
  refuse_outputs_over_inputs({output}, {input});
  const Recording recording = read_all(input);
  check_input(recording, options, input);
  ScaleSummary summary;
  summary.pairs = options.gpus / 2;
  summary.events_read = recording.events.size();
  write_scaled(recording, options, output, summary);  // whole or not at all (TraceWriter)
  return summary;
}

}  // namespace warpsim::trace
