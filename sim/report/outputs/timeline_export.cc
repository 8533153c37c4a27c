#include "outputs/timeline_export.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>

#include "atomic_output.h"
#include "outputs/host_tracks.h"
#include "outputs/timeline_json.h"
#include "outputs/timeline_lanes.h"
#include "outputs/timeline_perfetto.h"
#include "outputs/timeline_slices.h"
#include "outputs/timeline_tracks.h"
#include "trace_read_ahead.h"

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

// A track's lanes: assigned as its slices come while they come in start order (the second pass assigns them again
// the same way), else all at once after the first pass.
struct TrackLanes {
  explicit TrackLanes(LanePolicy lane_policy) : policy(lane_policy), stream(lane_policy) {}
  LanePolicy policy;
  LaneStream stream;
  bool in_order = true;
  std::uint32_t lanes = 1;
  std::vector<std::uint32_t> assigned;  // out of order: each slice's lane, in the order the slices come
};

// What the first pass learns: every track and its lanes, each trace's first start.
struct Layout {
  std::vector<TraceLayout> traces;
  std::vector<TrackLanes> tracks;  // per global track
  std::uint64_t next_flow_id = 1;  // flow ids are unique in the file, over all traces
};

// Host tracks nest (NVTX ranges, driver calls inside runtime calls); GPU tracks only hold disjoint slices.
LanePolicy lane_policy(TrackGroup group) {
  return group == TrackGroup::kHostThread || group == TrackGroup::kApiThread ? LanePolicy::kNested
                                                                             : LanePolicy::kDisjoint;
}

std::uint32_t track_number(const TrackKey& key, TraceLayout& trace, Layout& layout) {
  const auto [track, added] = trace.tracks.try_emplace(key, static_cast<std::uint32_t>(layout.tracks.size()));
  if (added) layout.tracks.emplace_back(lane_policy(key.group));
  return track->second;
}

void place(const Placement& at, TraceLayout& trace, Layout& layout) {
  TrackLanes& lanes = layout.tracks[track_number(at.track, trace, layout)];
  trace.first_ns = std::min(trace.first_ns.value_or(at.start_ns), at.start_ns);
  if (!lanes.in_order) return;
  if (!lanes.stream.in_order(at.start_ns, at.end_ns)) {
    lanes.in_order = false;  // assigned after this pass
    return;
  }
  lanes.lanes = std::max(lanes.lanes, lanes.stream.add(at.start_ns, at.end_ns) + 1);
}

// Host work fills the gaps between a thread's calls, where no call is open: the first lane always has room for it.
void place_host_work(const HostWork& work, TraceLayout& trace, Layout& layout) {
  track_number(work.track, trace, layout);
  trace.first_ns = std::min(trace.first_ns.value_or(work.start_ns), work.start_ns);
}

void lay_out_trace(const TimelineSource& source, Layout& layout) {
  TraceReadAhead reader(source.path);
  TraceLayout& trace = layout.traces.emplace_back();
  trace.source = source;
  trace.header = reader.header();
  Event event;
  while (reader.next(event)) {
    const Placements p = placements(event);
    for (std::size_t i = 0; i < p.count; ++i) place(p.at[i], trace, layout);
    trace.host.add(event, p);
  }
  trace.truncation_warning = reader.finished_reader().truncation_warning();
  trace.host.finish(layout.next_flow_id);
  layout.next_flow_id += trace.host.flow_count();
  for (const HostWork& work : trace.host.host_work()) place_host_work(work, trace, layout);
}

// The trace's tracks whose slices came out of order: its slices read again and assigned together (memory for theirs
// alone).
void assign_out_of_order(Layout& layout, const TraceLayout& trace) {
  const auto out_of_order = [&layout](const auto& entry) { return !layout.tracks[entry.second].in_order; };
  if (std::none_of(trace.tracks.begin(), trace.tracks.end(), out_of_order)) return;
  std::vector<LaneSlice> slices;
  TraceReadAhead reader(trace.source.path);
  Event event;
  while (reader.next(event)) {
    const Placements p = placements(event);
    for (std::size_t i = 0; i < p.count; ++i) {
      const std::uint32_t track = trace.tracks.at(p.at[i].track);
      if (!layout.tracks[track].in_order) slices.push_back({track, p.at[i].start_ns, p.at[i].end_ns});
    }
  }
  std::vector<LanePolicy> policies;
  for (const TrackLanes& t : layout.tracks) policies.push_back(t.policy);
  const LaneAssignment assignment = assign_lanes(slices, policies);
  for (std::size_t i = 0; i < slices.size(); ++i) layout.tracks[slices[i].track].assigned.push_back(assignment.lane[i]);
  for (const auto& [key, track] : trace.tracks)
    if (!layout.tracks[track].in_order) layout.tracks[track].lanes = assignment.lanes_per_track[track];
}

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

// Names and orders trace `t`'s processes and threads; sets the first tid of each of its tracks (its lanes follow).
void write_metadata(const Layout& layout, std::size_t t, TimelineSink& sink, std::vector<int>& first_tid) {
  first_tid.resize(layout.tracks.size(), 0);
  const TraceLayout& trace = layout.traces[t];
  std::optional<std::uint32_t> process;
  int next_tid = 0;
  for (const auto& [key, track] : trace.tracks) {  // map order: process, then group, then id
    const int p = pid(t, key.process);
    if (process != key.process) {
      process = key.process;
      next_tid = 1;
      sink.process(p, process_name(trace, key.process));
    }
    first_tid[track] = next_tid;
    const std::string name = trace.host.track_name(trace.header, key);
    for (std::uint32_t lane = 0; lane < layout.tracks[track].lanes; ++lane, ++next_tid) {
      const std::string thread = lane == 0 ? name : fmt::format("{} #{}", name, lane + 1);
      sink.thread(p, next_tid, thread);
    }
  }
}

// The second pass: the same placements in the same order, now with their lanes (assigned again as they come, or as
// assigned out of order), names and arguments.
constexpr std::uint64_t kProgressEvery = 4096;  // slices between two progress reports

class SliceWriter {
 public:
  SliceWriter(const Layout& layout, const std::vector<int>& first_tid, TimelineSink& sink,
              const std::function<void(std::uint64_t)>& progress)
      : layout_(layout), first_tid_(first_tid), sink_(sink), progress_(progress) {}

  void write_trace(std::size_t t, const TraceLayout& trace, std::uint64_t origin_ns) {
    while (lanes_.size() < layout_.tracks.size())
      lanes_.push_back({LaneStream(layout_.tracks[lanes_.size()].policy), 0});
    TraceReadAhead reader(trace.source.path);
    FlowCursor cursor(trace.host);
    Event event;
    while (reader.next(event)) {
      const Placements p = placements(event);
      if (p.count == 0) continue;
      const SliceText text = slice_text(event);
      std::array<int, 2> tids{};
      for (std::size_t i = 0; i < p.count; ++i) {
        const std::uint32_t track = trace.tracks.at(p.at[i].track);
        tids[i] = write_slice(t, track, lane(track, p.at[i]), p.at[i], text, origin_ns);
      }
      // An arrow binds to the slice on its stream (a copy's first placement), not to the copy on the link.
      write_flow(event, {pid(t, p.at[0].track.process), tids[0]}, p.at[0], cursor, origin_ns);
    }
    const SliceText host_work{"host work", "host", {}};
    for (const HostWork& work : trace.host.host_work())
      write_slice(t, trace.tracks.at(work.track), 0, {work.track, work.start_ns, work.end_ns}, host_work, origin_ns);
  }

  std::uint64_t written() const { return written_; }
  std::uint64_t flows() const { return flows_; }

 private:
  struct Thread {
    int pid;
    int tid;
  };
  struct Lanes {
    LaneStream stream;  // a track in order
    std::size_t next;   // a track out of order: its next slice's place in TrackLanes::assigned
  };

  std::uint32_t lane(std::uint32_t track, const Placement& at) {
    Lanes& lanes = lanes_[track];
    if (layout_.tracks[track].in_order) return lanes.stream.add(at.start_ns, at.end_ns);
    return layout_.tracks[track].assigned.at(lanes.next++);
  }

  // A flow's start lies inside its API call's slice, its finish in the middle of the GPU operation's: strictly
  // inside both, so that no neighbouring slice can claim them.
  void write_flow(const Event& event, Thread at_thread, const Placement& at, FlowCursor& cursor,
                  std::uint64_t origin_ns) {
    if (event.kind_case() == Event::kApiCall) {
      const FlowStart start = cursor.from_call(event.api_call());
      for (std::uint32_t i = 0; i < start.count; ++i)
        sink_.flow({true, start.first_id + i, at_thread.pid, at_thread.tid, start.at_ns - origin_ns});
      flows_ += start.count;
    } else if (const auto id = cursor.into(gpu_correlation_id(event))) {
      sink_.flow({false, *id, at_thread.pid, at_thread.tid, at.start_ns + (at.end_ns - at.start_ns) / 2 - origin_ns});
    }
  }

  int write_slice(std::size_t t, std::uint32_t track, std::uint32_t lane, const Placement& at, const SliceText& text,
                  std::uint64_t origin_ns) {
    const int tid = first_tid_[track] + static_cast<int>(lane);
    sink_.slice({pid(t, at.track.process), tid, at.start_ns - origin_ns, at.end_ns - at.start_ns, &text});
    ++written_;
    if (progress_ && written_ % kProgressEvery == 0) progress_(written_);
    return tid;
  }

  const Layout& layout_;
  std::vector<Lanes> lanes_;  // per global track
  const std::vector<int>& first_tid_;
  TimelineSink& sink_;
  const std::function<void(std::uint64_t)>& progress_;
  std::uint64_t written_ = 0;
  std::uint64_t flows_ = 0;
};

}  // namespace

namespace {

std::unique_ptr<TimelineSink> make_sink(TimelineFormat format, std::ostream& out) {
  if (format == TimelineFormat::kPerfetto) return std::make_unique<PerfettoTimelineSink>(out);
  return std::make_unique<JsonTimelineSink>(out);
}

}  // namespace

// Trace by trace: each is laid out and written as it is added, on its own clock; on a common clock every trace is laid
// out first (the origin is the earliest start of all), and written at the end.
class TimelineWriter::State {
 public:
  State(std::ostream& out, const TimelineOptions& options)
      : options_(options),
        sink_(make_sink(options.format, out)),
        slices_(layout_, first_tid_, *sink_, options_.progress) {}

  void add(const TimelineSource& source) {
    lay_out_trace(source, layout_);
    assign_out_of_order(layout_, layout_.traces.back());
    if (!options_.common_clock) write(layout_.traces.size() - 1, layout_.traces.back().first_ns.value_or(0));
  }

  TimelineResult finish() {
    if (options_.common_clock) {
      std::uint64_t origin = UINT64_MAX;
      for (const TraceLayout& trace : layout_.traces) origin = std::min(origin, trace.first_ns.value_or(0));
      for (std::size_t t = 0; t < layout_.traces.size(); ++t) write(t, origin);
    }
    sink_->finish();
    result_.events = slices_.written();
    result_.flows = slices_.flows();
    return std::move(result_);
  }

 private:
  void write(std::size_t t, std::uint64_t origin_ns) {
    write_metadata(layout_, t, *sink_, first_tid_);
    slices_.write_trace(t, layout_.traces[t], origin_ns);
    if (!layout_.traces[t].truncation_warning.empty()) result_.warnings.push_back(layout_.traces[t].truncation_warning);
  }

  TimelineOptions options_;
  Layout layout_;
  std::vector<int> first_tid_;  // per global track
  std::unique_ptr<TimelineSink> sink_;
  SliceWriter slices_;
  TimelineResult result_;
};

TimelineWriter::TimelineWriter(std::ostream& out, const TimelineOptions& options)
    : state_(std::make_unique<State>(out, options)) {}
TimelineWriter::~TimelineWriter() = default;
void TimelineWriter::add(const TimelineSource& source) { state_->add(source); }
TimelineResult TimelineWriter::finish() { return state_->finish(); }

TimelineResult write_timeline(const std::vector<TimelineSource>& sources, std::ostream& out,
                              const TimelineOptions& options) {
  TimelineWriter writer(out, options);
  for (const TimelineSource& source : sources) writer.add(source);
  return writer.finish();
}

TimelineFormat timeline_format_of(const std::string& name, const std::filesystem::path& path) {
  if (name == "json") return TimelineFormat::kJson;
  if (name == "perfetto") return TimelineFormat::kPerfetto;
  if (name != "auto") throw std::invalid_argument("timeline format '" + name + "': json, perfetto or auto");
  const std::string extension = path.extension().string();
  return extension == ".pftrace" || extension == ".perfetto-trace" ? TimelineFormat::kPerfetto : TimelineFormat::kJson;
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
