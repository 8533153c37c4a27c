#pragma once
/// @brief The CPU side of a timeline (timeline_export.h), as Nsight Systems shows it: per host thread one track with
/// its API calls (driver calls nested inside the runtime calls that made them) and "host work" slices in the gaps
/// between consecutive top-level calls; flow arrows from each call to the GPU operations with its correlation id.
///
/// The timeline reads each trace twice. HostTracks learns in the first pass what the second needs: the gaps (which
/// need every call of a thread, in order), where each arrow starts and which ids the arrows get. FlowCursor hands
/// the ids out in the second pass. Memory: a few words per API call and per correlation id.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/host_calls.h"
#include "outputs/timeline_tracks.h"
#include "trace.pb.h"

namespace warpsim::report {

/// A "host work" slice: the thread computes between two API calls.
struct HostWork {
  TrackKey track;
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
};

/// The arrows starting at one API call: ids first_id .. first_id + count - 1, all at at_ns (inside the call, before
/// any call nested in it, so that viewers bind them to this call and not to a neighbour or a nested call).
struct FlowStart {
  std::uint64_t first_id = 0;
  std::uint32_t count = 0;
  std::uint64_t at_ns = 0;
};

/// The correlation id of a kernel, copy or memset (the GPU operations arrows end at); 0 for other events.
std::uint64_t gpu_correlation_id(const Event& event);

class HostTracks {
 public:
  /// First pass: every event of the trace, in file order, with its placements.
  void add(const Event& event, const Placements& placements);
  /// After the first pass: finds the host work and numbers the arrows from `first_flow_id` on.
  void finish(std::uint64_t first_flow_id);

  /// In thread order, then time; the second pass writes them after the events.
  const std::vector<HostWork>& host_work() const { return host_work_; }
  std::uint64_t flow_count() const { return flow_count_; }
  /// The thread's name for its API track (the thread's own name when the trace has it, else "thread TID"; with the
  /// process id when the trace has calls from several processes) and, on traces with API calls, "... NVTX" for its
  /// marker track; other tracks as track_name names them.
  std::string track_name(const TraceHeader& header, const TrackKey& key) const;

 private:
  friend class FlowCursor;
  // The call the arrows of one correlation id start from, and how many GPU operations they end at.
  struct Source {
    std::optional<std::uint64_t> call;  // ordinal among the placed API calls
    std::uint64_t call_ns = 0;          // its duration: the outermost of calls sharing the id is the source
    std::uint32_t gpu_operations = 0;
    std::uint64_t first_id = 0;
  };
  void add_call(const ApiCall& call);
  void count_gpu_operations();
  std::string thread_name(std::uint32_t process_id, std::uint64_t thread_id) const;

  std::vector<HostCall> calls_;  // placed API calls in file order; emptied by finish()
  std::vector<std::uint64_t> gpu_correlations_;  // of the placed GPU operations; emptied by finish()
  std::vector<std::uint64_t> own_point_ns_;
  std::unordered_map<std::uint64_t, Source> sources_;
  std::map<HostThreadId, std::string> names_;
  std::set<std::uint32_t> processes_;
  std::vector<HostWork> host_work_;
  std::uint64_t flow_count_ = 0;
};

/// Second pass: the same events in the same order, handing out the arrows' ids.
class FlowCursor {
 public:
  explicit FlowCursor(const HostTracks& host) : host_(host) {}
  /// For each placed API call: the arrows that start at it (count 0: none).
  FlowStart from_call(const ApiCall& call);
  /// For each placed GPU operation: the id of the arrow that ends at it, if a call has its correlation id.
  std::optional<std::uint64_t> into(std::uint64_t correlation_id);

 private:
  const HostTracks& host_;
  std::uint64_t next_call_ = 0;
  std::unordered_map<std::uint64_t, std::uint32_t> arrived_;  // per correlation id: arrows handed out
};

}  // namespace warpsim::report
