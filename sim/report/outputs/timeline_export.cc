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

// Names and orders the processes and threads; returns the first tid of each global track (its lanes follow).
std::vector<int> write_metadata(const Layout& layout, const LaneAssignment& lanes, TimelineSink& sink) {
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
        sink.process(p, process_name(trace, key.process));
      }
      first_tid[track] = next_tid;
      const std::string name = trace.host.track_name(trace.header, key);
      for (std::uint32_t lane = 0; lane < lanes.lanes_per_track[track]; ++lane, ++next_tid) {
        const std::string thread = lane == 0 ? name : fmt::format("{} #{}", name, lane + 1);
        sink.thread(p, next_tid, thread);
      }
    }
  }
  return first_tid;
}

// The second pass: the same placements in the same order, now with their lanes, names and arguments.
constexpr std::uint64_t kProgressEvery = 4096;  // slices between two progress reports

class SliceWriter {
 public:
  SliceWriter(const LaneAssignment& lanes, const std::vector<int>& first_tid, TimelineSink& sink,
              const std::function<void(std::uint64_t)>& progress)
      : lanes_(lanes), first_tid_(first_tid), sink_(sink), progress_(progress) {}

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
    const SliceText host_work{"host work", "host", {}};
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

  int write_slice(std::size_t t, std::uint32_t track, const Placement& at, const SliceText& text,
                  std::uint64_t origin_ns) {
    const int tid = first_tid_[track] + static_cast<int>(lanes_.lane[next_slice_++]);
    sink_.slice({pid(t, at.track.process), tid, at.start_ns - origin_ns, at.end_ns - at.start_ns, &text});
    ++written_;
    if (progress_ && written_ % kProgressEvery == 0) progress_(written_);
    return tid;
  }

  const LaneAssignment& lanes_;
  const std::vector<int>& first_tid_;
  TimelineSink& sink_;
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

namespace {

std::unique_ptr<TimelineSink> make_sink(TimelineFormat format, std::ostream& out) {
  if (format == TimelineFormat::kPerfetto) return std::make_unique<PerfettoTimelineSink>(out);
  return std::make_unique<JsonTimelineSink>(out);
}

}  // namespace

TimelineResult write_timeline(const std::vector<TimelineSource>& sources, std::ostream& out,
                              const TimelineOptions& options) {
  Layout layout;
  for (const TimelineSource& source : sources) lay_out_trace(source, layout);
  const LaneAssignment lanes = assign_lanes(layout.slices, layout.policies);
  const std::unique_ptr<TimelineSink> sink = make_sink(options.format, out);
  const std::vector<int> first_tid = write_metadata(layout, lanes, *sink);
  SliceWriter slices(lanes, first_tid, *sink, options.progress);
  const std::vector<std::uint64_t> origin = origins(layout, options.common_clock);
  TimelineResult result;
  for (std::size_t t = 0; t < layout.traces.size(); ++t) {
    slices.write_trace(t, layout.traces[t], origin[t]);
    if (!layout.traces[t].truncation_warning.empty()) result.warnings.push_back(layout.traces[t].truncation_warning);
  }
  sink->finish();
  result.events = slices.written();
  result.flows = slices.flows();
  return result;
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
