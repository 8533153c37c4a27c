#include "outputs/timeline_json.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <stdexcept>

#include "atomic_output.h"
#include "outputs/host_tracks.h"
#include "outputs/printable.h"
#include "outputs/timeline_lanes.h"
#include "outputs/timeline_slices.h"
#include "outputs/timeline_tracks.h"
#include "trace_reader.h"

namespace warpsim::report {
namespace {

constexpr int kPidsPerTrace = 1000;  // pid order (the sort index): traces as given, then host, GPUs by id

struct TraceLayout {
  TimelineSource source;
  TraceHeader header;
  std::map<TrackKey, std::uint32_t> tracks;  // -> global track number
  std::optional<std::uint64_t> first_ns;
  std::string truncation_warning;
  HostTracks host;
};

// What the first pass learns: every track, every slice's interval (for the lanes), each trace's first start.
struct Layout {
  std::vector<TraceLayout> traces;
  std::vector<LaneSlice> slices;
  std::vector<LanePolicy> policies;  // per global track
  std::uint64_t next_flow_id = 1;    // flow ids are unique in the file, over all traces
};

// Host tracks nest (NVTX ranges, driver calls inside runtime calls); GPU tracks only hold disjoint slices.
LanePolicy lane_policy(TrackGroup group) {
  return group == TrackGroup::kHostThread || group == TrackGroup::kApiThread ? LanePolicy::kNested
                                                                             : LanePolicy::kDisjoint;
}

void place(const Placement& at, TraceLayout& trace, Layout& layout) {
  const auto [track, added] = trace.tracks.try_emplace(at.track, static_cast<std::uint32_t>(layout.policies.size()));
  if (added) layout.policies.push_back(lane_policy(at.track.group));
  layout.slices.push_back({track->second, at.start_ns, at.end_ns});
  trace.first_ns = std::min(trace.first_ns.value_or(at.start_ns), at.start_ns);
}

void lay_out_trace(const TimelineSource& source, Layout& layout) {
  TraceReader reader(source.path);
  TraceLayout& trace = layout.traces.emplace_back();
  trace.source = source;
  trace.header = reader.header();
  Event event;
  while (reader.next(event)) {
    const Placements p = placements(event);
    for (std::size_t i = 0; i < p.count; ++i) place(p.at[i], trace, layout);
    trace.host.add(event, p);
  }
  trace.truncation_warning = reader.truncation_warning();
  trace.host.finish(layout.next_flow_id);
  layout.next_flow_id += trace.host.flow_count();
  for (const HostWork& work : trace.host.host_work()) place({work.track, work.start_ns, work.end_ns}, trace, layout);
}

// Writes the elements of the "traceEvents" array, commas between them.
class EventWriter {
 public:
  explicit EventWriter(std::ostream& out) : out_(out) {}
  void write(const nlohmann::json& event) {
    out_ << (first_ ? "\n" : ",\n") << json_text(event);
    first_ = false;
  }

 private:
  std::ostream& out_;
  bool first_ = true;
};

int pid(std::size_t trace, std::uint32_t process) {
  return static_cast<int>(trace + 1) * kPidsPerTrace + static_cast<int>(process);
}

std::string process_name(const TraceLayout& trace, std::uint32_t process) {
  if (process == kHostProcess) return trace.source.label + " host";
  const std::uint32_t device = process - 1;
  for (const Device& d : trace.header.devices())
    if (d.id() == device) return fmt::format("{} GPU{} {}", trace.source.label, device, d.name());
  return fmt::format("{} GPU{}", trace.source.label, device);
}

nlohmann::json metadata(const char* name, int process, std::optional<int> thread, nlohmann::json args) {
  nlohmann::json event = {{"ph", "M"}, {"name", name}, {"pid", process}, {"args", std::move(args)}};
  if (thread) event["tid"] = *thread;
  return event;
}

// Names and orders the processes and threads; returns the first tid of each global track (its lanes follow).
std::vector<int> write_metadata(const Layout& layout, const LaneAssignment& lanes, EventWriter& writer) {
  std::vector<int> first_tid(layout.policies.size(), 0);
  for (std::size_t t = 0; t < layout.traces.size(); ++t) {
    const TraceLayout& trace = layout.traces[t];
    std::optional<std::uint32_t> process;
    int next_tid = 0;
    for (const auto& [key, track] : trace.tracks) {  // map order: process, then group, then id
      const int p = pid(t, key.process);
      if (process != key.process) {
        process = key.process;
        next_tid = 1;
        writer.write(metadata("process_name", p, std::nullopt, {{"name", process_name(trace, key.process)}}));
        writer.write(metadata("process_sort_index", p, std::nullopt, {{"sort_index", p}}));
      }
      first_tid[track] = next_tid;
      const std::string name = trace.host.track_name(trace.header, key);
      for (std::uint32_t lane = 0; lane < lanes.lanes_per_track[track]; ++lane, ++next_tid) {
        const std::string thread = lane == 0 ? name : fmt::format("{} #{}", name, lane + 1);
        writer.write(metadata("thread_name", p, next_tid, {{"name", thread}}));
        writer.write(metadata("thread_sort_index", p, next_tid, {{"sort_index", next_tid}}));
      }
    }
  }
  return first_tid;
}

double microseconds(std::uint64_t ns) { return static_cast<double>(ns) / 1000.0; }

// The second pass: the same placements in the same order, now with their lanes, names and arguments.
constexpr std::uint64_t kProgressEvery = 4096;  // slices between two progress reports

class SliceWriter {
 public:
  SliceWriter(const LaneAssignment& lanes, const std::vector<int>& first_tid, EventWriter& writer,
              const std::function<void(std::uint64_t)>& progress)
      : lanes_(lanes), first_tid_(first_tid), writer_(writer), progress_(progress) {}

  void write_trace(std::size_t t, const TraceLayout& trace, std::uint64_t origin_ns) {
    TraceReader reader(trace.source.path);
    FlowCursor cursor(trace.host);
    Event event;
    while (reader.next(event)) {
      const Placements p = placements(event);
      if (p.count == 0) continue;
      const SliceText text = slice_text(event);
      std::array<int, 2> tids{};
      for (std::size_t i = 0; i < p.count; ++i)
        tids[i] = write_slice(t, trace.tracks.at(p.at[i].track), p.at[i], text, origin_ns);
      // An arrow binds to the slice on its stream (a copy's first placement), not to the copy on the link.
      write_flow(event, {pid(t, p.at[0].track.process), tids[0]}, p.at[0], cursor, origin_ns);
    }
    const SliceText host_work{"host work", "host", nlohmann::json::object()};
    for (const HostWork& work : trace.host.host_work())
      write_slice(t, trace.tracks.at(work.track), {work.track, work.start_ns, work.end_ns}, host_work, origin_ns);
  }

  std::uint64_t written() const { return written_; }
  std::uint64_t flows() const { return flows_; }

 private:
  struct Thread {
    int pid;
    int tid;
  };

  // Chrome trace-event flows: "s" binds to the call slice enclosing its time, "f" with "bp":"e" to the GPU slice
  // enclosing its time; both times lie strictly inside their slice so that no neighbour can claim them.
  void write_flow(const Event& event, Thread at_thread, const Placement& at, FlowCursor& cursor,
                  std::uint64_t origin_ns) {
    if (event.kind_case() == Event::kApiCall) {
      const FlowStart start = cursor.from_call(event.api_call());
      for (std::uint32_t i = 0; i < start.count; ++i)
        write_flow_event("s", start.first_id + i, at_thread, start.at_ns - origin_ns);
    } else if (const auto id = cursor.into(gpu_correlation_id(event))) {
      write_flow_event("f", *id, at_thread, at.start_ns + (at.end_ns - at.start_ns) / 2 - origin_ns);
    }
  }

  void write_flow_event(const char* phase, std::uint64_t id, Thread at_thread, std::uint64_t ns) {
    nlohmann::json event = {{"ph", phase},           {"id", id},
                            {"cat", "flow"},         {"name", "issue"},
                            {"pid", at_thread.pid},  {"tid", at_thread.tid},
                            {"ts", microseconds(ns)}};
    if (phase[0] == 'f') event["bp"] = "e";
    writer_.write(event);
    if (phase[0] == 's') ++flows_;
  }

  int write_slice(std::size_t t, std::uint32_t track, const Placement& at, const SliceText& text,
                  std::uint64_t origin_ns) {
    const int tid = first_tid_[track] + static_cast<int>(lanes_.lane[next_slice_++]);
    nlohmann::json event = {{"name", text.name},
                            {"cat", text.category},
                            {"pid", pid(t, at.track.process)},
                            {"tid", tid},
                            {"ts", microseconds(at.start_ns - origin_ns)},
                            {"args", text.args}};
    if (text.instant) {
      event["ph"] = "i";
      event["s"] = "t";
    } else {
      event["ph"] = "X";
      event["dur"] = microseconds(at.end_ns - at.start_ns);
    }
    writer_.write(event);
    ++written_;
    if (progress_ && written_ % kProgressEvery == 0) progress_(written_);
    return tid;
  }

  const LaneAssignment& lanes_;
  const std::vector<int>& first_tid_;
  EventWriter& writer_;
  const std::function<void(std::uint64_t)>& progress_;
  std::size_t next_slice_ = 0;
  std::uint64_t written_ = 0;
  std::uint64_t flows_ = 0;
};

std::vector<std::uint64_t> origins(const Layout& layout, bool common_clock) {
  std::vector<std::uint64_t> out;
  for (const TraceLayout& trace : layout.traces) out.push_back(trace.first_ns.value_or(0));
  if (common_clock && !out.empty()) std::fill(out.begin(), out.end(), *std::min_element(out.begin(), out.end()));
  return out;
}

}  // namespace

TimelineResult write_timeline(const std::vector<TimelineSource>& sources, std::ostream& out,
                              const TimelineOptions& options) {
  Layout layout;
  for (const TimelineSource& source : sources) lay_out_trace(source, layout);
  const LaneAssignment lanes = assign_lanes(layout.slices, layout.policies);
  out << R"({"traceEvents": [)";
  EventWriter writer(out);
  const std::vector<int> first_tid = write_metadata(layout, lanes, writer);
  SliceWriter slices(lanes, first_tid, writer, options.progress);
  const std::vector<std::uint64_t> origin = origins(layout, options.common_clock);
  TimelineResult result;
  for (std::size_t t = 0; t < layout.traces.size(); ++t) {
    slices.write_trace(t, layout.traces[t], origin[t]);
    if (!layout.traces[t].truncation_warning.empty()) result.warnings.push_back(layout.traces[t].truncation_warning);
  }
  out << "\n]}\n";
  result.events = slices.written();
  result.flows = slices.flows();
  return result;
}

TimelineResult write_timeline_file(const std::vector<TimelineSource>& sources, const std::filesystem::path& path,
                                   const TimelineOptions& options) {
  std::vector<std::filesystem::path> inputs;
  for (const TimelineSource& source : sources) inputs.push_back(source.path);
  refuse_outputs_over_inputs({path}, inputs);
  AtomicOutputFile file(path);  // whole or not at all
  TimelineResult result = write_timeline(sources, file.stream(), options);
  file.commit();
  return result;
}

}  // namespace warpsim::report
