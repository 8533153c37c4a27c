#pragma once
/// @brief Where a timeline export goes, whatever its format: processes and their threads (tracks), slices, instants
/// and flow arrows, as timeline_export.cc lays them out. Implemented by the Chrome/Perfetto trace-event JSON writer
/// (timeline_json.h) and the Perfetto protobuf writer (timeline_perfetto.h).

#include <cstdint>
#include <string>

#include "outputs/timeline_slices.h"

namespace warpsim::report {

/// A slice on thread `tid` of process `pid`, times in ns from the export's origin.
struct TimelineSlice {
  int pid = 0;
  int tid = 0;
  std::uint64_t start_ns = 0;
  std::uint64_t duration_ns = 0;  ///< unused for an instant
  const SliceText* text = nullptr;
};

/// A flow arrow's end: the start binds to the slice enclosing `at_ns` on its thread (the API call), the finish to
/// the one enclosing `at_ns` on its thread (the GPU operation).
struct FlowEnd {
  bool start = true;
  std::uint64_t id = 0;
  int pid = 0;
  int tid = 0;
  std::uint64_t at_ns = 0;
};

class TimelineSink {
 public:
  virtual ~TimelineSink() = default;
  /// Trace by trace: its processes in pid order, each followed by its threads in tid order, then its slices and flows.
  virtual void process(int pid, const std::string& name) = 0;
  virtual void thread(int pid, int tid, const std::string& name) = 0;
  virtual void slice(const TimelineSlice& slice) = 0;
  virtual void flow(const FlowEnd& end) = 0;
  /// After the last slice and flow: a format that needs the whole picture writes it now.
  virtual void finish() = 0;
};

}  // namespace warpsim::report
