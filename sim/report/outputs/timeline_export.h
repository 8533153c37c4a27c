#pragma once
/// @brief The timeline of one or more traces, side by side (ui.perfetto.dev, chrome://tracing): Chrome/Perfetto
/// trace-event JSON (timeline_json.h) or Perfetto's own protobuf format (timeline_perfetto.h), several times smaller.
///
/// Per trace and device one process "<label> GPU<id> <device name>" with one track per stream ("stream N": kernels,
/// copies, memsets) and the link tracks "PCIe HtoD", "PCIe DtoH" and "peer (NVLink|PCIe)" showing each copy on the
/// link it uses; per trace one process "<label> host" with, per host thread, a track of its API calls and the "host
/// work" between them, and the NVTX markers, one track per thread (host_tracks.h). Flow arrows lead from each API
/// call to the GPU operations with its correlation id. Overlapping slices of one track go to extra lanes ("stream 7
/// #2"): see timeline_lanes.h. Events without an end time (counters-mode kernels, event records) are left out. The
/// sink (timeline_sink.h) writes them in its format.
///
/// Each file is read twice (lanes first, then the events) so that memory stays a few bytes per event (the JSON sink
/// streams; the Perfetto one keeps each slice until the end): a 100k-event trace exports in well under a second.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace warpsim::report {

struct TimelineSource {
  std::string label;  ///< prefix of the process names, e.g. "A: matmul.timeline.wstrace"
  std::filesystem::path path;
};

enum class TimelineFormat { kJson, kPerfetto };

struct TimelineOptions {
  TimelineFormat format = TimelineFormat::kJson;
  /// false: each trace starts at 0, so a recording and its simulation line up whatever their clocks (simulations and
  /// recordings on other machines need not share a time base). true: one origin, the earliest start over all traces,
  /// for traces recorded together on one clock.
  bool common_clock = false;
  /// Told, now and then, how many slices are written (a progress line on a terminal; 1M operations take seconds).
  std::function<void(std::uint64_t slices)> progress;
};

struct TimelineResult {
  std::uint64_t events = 0;  ///< slices and instants written (metadata and flows not counted)
  std::uint64_t flows = 0;   ///< flow arrows from API calls to GPU operations (each a start and a finish event)
  std::vector<std::string> warnings;  ///< truncated traces: exported up to where they stop
};

/// Writes a timeline trace by trace: each is read and written when added (on a common clock, at finish(), once every
/// trace's first start is known), so that a command can export the trace it has while it makes the next (simulate:
/// the recording during the replay). Throws TraceError on bad input.
class TimelineWriter {
 public:
  TimelineWriter(std::ostream& out, const TimelineOptions& options);
  ~TimelineWriter();
  TimelineWriter(const TimelineWriter&) = delete;
  TimelineWriter& operator=(const TimelineWriter&) = delete;
  void add(const TimelineSource& source);
  /// After the last trace; nothing is to be added after.
  TimelineResult finish();

 private:
  class State;
  std::unique_ptr<State> state_;
};

/// Writes the timeline in `options.format` to `out`. Throws TraceError on bad input.
TimelineResult write_timeline(const std::vector<TimelineSource>& sources, std::ostream& out,
                              const TimelineOptions& options = {});
/// The same into the file `path`; throws std::runtime_error if it cannot be written.
TimelineResult write_timeline_file(const std::vector<TimelineSource>& sources, const std::filesystem::path& path,
                                   const TimelineOptions& options = {});

/// The names timeline_format_of takes, and what they mean, for the commands' --timeline-format.
inline constexpr const char* kTimelineFormatNames[] = {"auto", "json", "perfetto"};
inline constexpr const char* kTimelineFormatHelp =
    "Timeline format: json (Chrome/Perfetto trace events), perfetto (Perfetto protobuf, several times smaller), "
    "auto: perfetto for a .pftrace or .perfetto-trace path, else json";

/// `--timeline-format`: "json", "perfetto", or "auto" (perfetto for a path ending .pftrace or .perfetto-trace, else
/// json). Throws std::invalid_argument for another name.
TimelineFormat timeline_format_of(const std::string& name, const std::filesystem::path& path);

}  // namespace warpsim::report
