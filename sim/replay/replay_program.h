#pragma once
// What the replay executes, derived from a trace without SimGrid: the GPU operations per stream, the dependencies
// between streams, and the host thread's program (issue an operation, or wait for one).
//
// The host's order is the API call order, i.e. correlation ids (CUPTI numbers API calls in the order the process
// made them; event records carry no timestamps). Dependencies come from CUDA's semantics:
// - operations of one stream run in order;
// - cudaStreamWaitEvent(s, e): the next operation of s waits for the operation e recorded (the last one enqueued on
//   the recording stream before cudaEventRecord);
// - cudaEventSynchronize, cudaStreamSynchronize, cudaDeviceSynchronize: the host waits, so nothing issued after
//   starts before the awaited work ends;
// - copies from or to pageable host memory return to the host only when done (the trace does not say which pinned
//   copies were synchronous: they are taken as asynchronous).
#include <cstddef>
#include <cstdint>
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

struct HostStep {
  enum class Kind { kIssue, kWait };
  Kind kind = Kind::kIssue;
  std::size_t op = 0;
  std::size_t event = 0;  // the trace event behind the step (the launch, or the synchronization)
};

struct ReplayProgram {
  std::vector<ReplayOp> ops;
  std::vector<ReplayStream> streams;
  std::vector<HostStep> host_steps;
};

/// Puts events in API call order: by correlation id, then start time (a graph launch's kernels share one id).
void sort_by_api_order(std::vector<Event>& events);

/// Builds the program from events already in API call order.
ReplayProgram build_replay_program(const std::vector<Event>& events);

}  // namespace warpsim::replay
