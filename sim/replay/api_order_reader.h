#pragma once
// A trace's replayed events in API call order without holding the trace: a first pass keeps one small key per event
// and sorts them (ApiOrderIndex); a later pass reads the source once, and an event read before its turn waits in a
// buffer until then (ApiOrderReader). A recording is nearly in API order (activity buffers arrive late, not far), so
// the buffer stays small.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "event_source.h"
#include "trace.pb.h"

namespace warpsim::replay {

/// Whether the replay takes part in an event: every kind but markers (host-side, left out of the output).
bool replayed(const Event& event);
/// Whether the replay runs `event` on a stream: kernels, copies and memsets.
bool is_operation(const Event& event);

/// Which recorded call times an event takes in the output: none (an operation takes its own), an API call's own, or
/// a synchronization's (the call that waited on it).
enum class CallTimeKind : std::uint8_t { kNone, kApiCall, kSynchronization };

/// The indices of `events` in API call order: by correlation id, the API call first (the work it issued may carry
/// an earlier GPU timestamp), then start time (a graph launch's kernels share one id); stable.
std::vector<std::size_t> api_order(const std::vector<Event>& events);
/// Puts events in API call order (api_order) and returns that order: position after -> position before.
std::vector<std::size_t> sort_by_api_order(std::vector<Event>& events);

class ApiOrderIndex {
 public:
  /// The next replayed event of the source, at `source_index` among all its events (markers included).
  void add(const Event& event, std::size_t source_index);
  /// Sorts the keys (by correlation id, the API call first, then start; then the source's order) and drops them.
  void finish();
  /// Source indices in API order (after finish()).
  const std::vector<std::uint32_t>& order() const { return order_; }
  /// Per event in API order (after finish()).
  const std::vector<CallTimeKind>& call_time_kinds() const { return call_time_kinds_; }
  /// Whether some operation or waiting synchronization shares its correlation id with no API call (after finish()).
  bool has_work_without_api_call() const { return work_without_api_call_; }

 private:
  struct Key {
    std::uint64_t correlation = 0;
    std::uint64_t start = 0;
    std::uint32_t source = 0;
    bool not_api_call = false;
    bool work = false;  // an operation or a synchronization the host may wait on
    CallTimeKind call_time = CallTimeKind::kNone;
  };
  std::vector<Key> keys_;
  std::vector<std::uint32_t> order_;
  std::vector<CallTimeKind> call_time_kinds_;
  bool work_without_api_call_ = false;
};

class ApiOrderReader {
 public:
  /// `order`: source indices in API order (ApiOrderIndex::order); it must outlive the reader.
  ApiOrderReader(EventSource& source, const std::vector<std::uint32_t>& order);
  /// The next event in API order into `event`, with its source index; false after the last. Throws
  /// std::runtime_error when the source no longer holds an event the first pass saw.
  bool next(Event& event, std::size_t& source_index);
  /// Events read ahead of their turn, waiting (for measurements).
  std::size_t waiting() const { return waiting_.size(); }

 private:
  EventSource& source_;
  const std::vector<std::uint32_t>& order_;
  std::unique_ptr<EventCursor> cursor_;
  std::size_t next_rank_ = 0;
  std::size_t read_ = 0;  // source events read so far
  std::unordered_map<std::size_t, Event> waiting_;
};

}  // namespace warpsim::replay
