#pragma once
// `warpsim simulate` without the CLI: a recorded trace in, the simulated trace out (same schema, same devices,
// streams and correlation ids, new times), on a platform and with an SM timing model.
#include <cstddef>
#include <string>
#include <vector>

#include "host_program.h"
#include "kernel_model.h"
#include "platform.h"
#include "trace.pb.h"

namespace warpsim::replay {

struct SourceTrace {
  std::string path;
  TraceHeader header;
  std::vector<Event> events;
};

/// Reads a whole trace (the replay needs every event to order streams). A truncated trace yields its complete events.
SourceTrace read_source_trace(const std::string& path);

struct SimulationOptions {
  // The topology-study mode: kernels take their recorded durations, only copies and contention are simulated. Not
  // predictive; outputs say so (SimulationInfo.reuses_recorded_kernel_times).
  bool reuse_recorded_kernel_times = false;
  // What if the host CPU were faster (< 1) or slower (> 1): recorded host time is multiplied by this.
  double host_scale = 1;
};

struct SimulationResult {
  TraceHeader header;         // CAPTURE_MODE_SIMULATED, with SimulationInfo
  std::vector<Event> events;  // in API order; markers are host-side and left out
  std::size_t kernels = 0;
  std::size_t kernels_without_counters = 0;  // predicted from the launch configuration only
  std::size_t counters_borrowed = 0;         // took the counters of an identical launch of the same kernel
  double span_s = 0;       // first start to last end of API calls and GPU operations, simulated
  HostSummary host;        // how the host side was replayed
};

/// Simulates `trace` on `platform`. `model` may be null only in the topology-study mode.
/// Throws std::runtime_error when the trace cannot run there (a device the node lacks).
/// The trace's events become the result's (one copy of a large trace in memory, not three): move it in.
SimulationResult simulate(SourceTrace trace, const platform::Platform& platform, const models::KernelModel* model,
                          const SimulationOptions& options);

}  // namespace warpsim::replay
