#pragma once
// What the replay executes, derived from a trace without SimGrid: the GPU operations per stream, the dependencies
// between streams, and what the host does at each trace event (issue an operation, wait for some). The host
// threads' programs (host_program.h) are built from these actions.
//
// The order is the API call order, i.e. correlation ids (CUPTI numbers API calls in the order the process made
// them, across threads; event records carry no timestamps). Dependencies come from CUDA's semantics:
// - operations of one stream run in order;
// - the legacy default (NULL) stream: an operation on it waits for everything issued before on the device's
//   blocking streams, and their next operations wait for it (streams created non-blocking are exempt);
// - cudaStreamWaitEvent(s, e): the next operation of s waits for the operation e recorded (the last one enqueued on
//   the recording stream before cudaEventRecord);
// - cudaEventSynchronize, cudaStreamSynchronize, cudaDeviceSynchronize: the host waits, so nothing issued after
//   starts before the awaited work ends;
// - copies return to the host only when done if they were synchronous (not issued by an ...Async call), involve
//   pageable host memory, or are host to host; traces from before the tracer recorded the flag take pinned copies
//   as asynchronous.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "trace.pb.h"

namespace warpsim::replay {

inline constexpr std::size_t kNoOp = static_cast<std::size_t>(-1);

struct ReplayOp {
  std::size_t event = 0;   // index into the events the program was built from
  std::size_t stream = 0;  // index into ReplayProgram::streams
  std::vector<std::size_t> waits_for;  // operations of other streams that must end first
};

struct ReplayStream {
  std::uint32_t device_id = 0;
  std::uint32_t stream_id = 0;
  std::vector<std::size_t> ops;  // in order
};

/// What the host does when it reaches one trace event: issue its operation, then wait for some.
struct EventActions {
  std::size_t issues = kNoOp;
  std::vector<std::size_t> waits;
  std::vector<std::uint64_t> waits_recorded_end_ns;  // per wait: when the awaited operation ended in the recording
};

/// One step of a host thread. kCallStart/kCallEnd cost nothing: they mark when an API call begins and returns.
struct HostStep {
  enum class Kind { kCompute, kIssue, kWait, kCallStart, kCallEnd };
  Kind kind = Kind::kIssue;
  std::size_t op = kNoOp;     // kIssue, kWait
  std::size_t event = kNoOp;  // the trace event behind the step (the API call, launch or synchronization)
  double seconds = 0;         // kCompute: host time
  std::size_t stream = 0;     // kIssue: the stream of `op`
};

struct HostThreadProgram {
  std::uint32_t process_id = 0;
  std::uint64_t thread_id = 0;
  std::vector<HostStep> steps;
};

struct ReplayProgram {
  std::vector<ReplayOp> ops;
  std::vector<ReplayStream> streams;
  std::vector<EventActions> actions;         // per event
  std::vector<HostThreadProgram> threads;    // what each host thread does (HostStepsBuilder, host_program.h)
};

/// The correlation id, start and end of an event of any kind (0 where the kind has none).
std::uint64_t correlation_of(const Event& event);
std::uint64_t start_of(const Event& event);
std::uint64_t end_of(const Event& event);

using StreamKey = std::pair<std::uint32_t, std::uint32_t>;  // (device, stream)

/// The streams the trace's `Stream` events say were created non-blocking or are the legacy default stream; any
/// other is blocking.
using StreamKinds = std::map<StreamKey, Stream::Kind>;
StreamKinds stream_kinds(const std::vector<Event>& events);

/// An operation (a GPU event) and what the host side needs of its stream's history.
struct AddedOp {
  ReplayOp op;
  std::uint64_t previous_recorded_end_ns = 0;  // when its stream's previous operation ended in the recording
  bool has_previous = false;
};

/// Builds the program one event at a time, in API call order, keeping only what CUDA keeps: the last operation per
/// stream, what each event recorded, the waits a stream owes its next operation. Operations are numbered in the
/// order they are added; the caller keeps them (all of them, or only those still to run).
class ProgramBuilder {
 public:
  explicit ProgramBuilder(StreamKinds kinds) : kinds_(std::move(kinds)) {}
  /// Makes `key` the next stream (streams are numbered in the order they are first named).
  std::size_t stream_index(StreamKey key);
  /// The next event in API order: its actions, and its operation if it is one.
  EventActions add(const Event& event, std::size_t event_index, std::optional<AddedOp>& added);
  const std::vector<ReplayStream>& streams() const { return streams_; }  // without their operations
  /// The last operation of each stream of `device` so far (in stream order), with its recorded end.
  std::vector<std::pair<std::size_t, std::uint64_t>> last_ops_on(std::uint32_t device) const;

 private:
  struct LastOp {
    std::size_t op = kNoOp;
    std::uint64_t recorded_end_ns = 0;
  };
  Stream::Kind kind_of(std::size_t stream) const;
  void add_legacy_default_waits(std::size_t stream, std::vector<std::size_t>& waits);
  AddedOp add_operation(const Event& event, std::size_t event_index, std::size_t stream, EventActions& actions);
  void add_synchronization(const Synchronization& sync, EventActions& actions);
  static void host_waits_for(const LastOp& last, EventActions& actions);

  const StreamKinds kinds_;
  std::vector<ReplayStream> streams_;
  std::map<StreamKey, std::size_t> stream_index_;
  std::map<std::uint32_t, std::size_t> last_legacy_op_;  // device -> last operation on its legacy default stream
  std::vector<LastOp> last_op_;
  std::vector<std::vector<std::size_t>> pending_waits_;
  std::unordered_map<std::uint64_t, LastOp> recorded_;  // event id -> operation it marks
  std::size_t ops_ = 0;
};

/// Builds the GPU side and the per-event host actions from events already in API call order.
ReplayProgram build_replay_program(const std::vector<Event>& events);

}  // namespace warpsim::replay
