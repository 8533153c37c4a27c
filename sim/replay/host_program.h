#pragma once
// The host threads' programs: what each thread of the recorded process does, in its order, as compute steps, API
// calls, issues and waits (no SimGrid).
//
// With API calls in the trace (timeline traces recorded since the tracer records them), one program per host thread:
// - between two of its top-level API calls the thread computes for the recorded gap; before its first call, for the
//   time from the start of the recording (host work is taken as unchanged by the GPU: `host_scale` asks what if
//   the CPU were faster or slower);
// - a call that does not block costs its recorded duration (the driver's CPU work), then issues its GPU work;
// - a call that blocks (synchronizations, synchronous and pageable copies, cudaFree and the other implicitly
//   synchronizing calls) costs its recorded setup (from its start, or from when the work it queued behind ended,
//   to its work's recorded start: a synchronous copy pins or stages host memory first), issues its work, waits for
//   what it waits for in the simulation, then costs the part of its recorded duration after the awaited work's
//   recorded end (the wake-up and the call's own work after it);
// - driver calls made inside a runtime call (same thread, within it) belong to the runtime call.
// Without API calls (older traces), one host thread issues every operation in API order, each after the platform's
// `api_call_overhead_us`, and waits where CUDA blocks: the host's own time is unknown.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "replay_program.h"
#include "trace.pb.h"

namespace warpsim::replay {

struct HostOptions {
  double api_call_overhead_s = 0;  // traces without API calls: the cost of issuing one operation
  double host_scale = 1;           // recorded host time (gaps, calls' own time) is multiplied by this
};

struct HostSummary {
  bool from_api_calls = false;  // false: the trace has no API calls, host time is unknown
  std::size_t threads = 0;
  std::size_t api_calls = 0;  // top-level calls replayed
  std::size_t blocking_calls = 0;
  std::size_t unattributed_events = 0;  // GPU work or waits no recorded API call issued (issued at once, in order)
};

/// Fills `program.threads` for `events` (in API order, the events `program` was built from).
HostSummary build_host_threads(const std::vector<Event>& events, ReplayProgram& program, const HostOptions& options);

/// Simulated time 0: the first start of an API call, kernel, copy or memset in the recording.
std::uint64_t recording_start_ns(const std::vector<Event>& events);

/// The name of an API call without CUPTI's version suffix: "cudaLaunchKernel_v7000" -> "cudaLaunchKernel".
std::string api_base_name(const std::string& name);

}  // namespace warpsim::replay
