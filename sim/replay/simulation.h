#pragma once
// `warpsim simulate` without the CLI: a recorded trace in, the simulated trace out (same schema, same devices,
// streams and correlation ids, new times), on a platform and with an SM timing model.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "event_source.h"
#include "host_program.h"
#include "kernel_model.h"
#include "platform.h"
#include "trace.pb.h"

namespace warpsim::replay {

/// A trace held in memory (tests and tools; `warpsim simulate` streams the file instead: TraceFileSource).
struct SourceTrace {
  std::string path;
  TraceHeader header;
  std::vector<Event> events;
};

/// Reads a whole trace into memory. A truncated trace yields its complete events.
SourceTrace read_source_trace(const std::string& path);

struct SimulationOptions {
  // The topology-study mode: kernels take their recorded durations, only copies and contention are simulated. Not
  // predictive; outputs say so (SimulationInfo.reuses_recorded_kernel_times).
  bool reuse_recorded_kernel_times = false;
  // What if the host CPU were faster (< 1) or slower (> 1): recorded host time is multiplied by this.
  double host_scale = 1;
  // Predict even when no kernel has counters (a timeline-only recording): every kernel time is then a guess from the
  // launch configuration. Without it such a trace is refused.
  bool allow_estimates = false;
  // Told, now and then, how far the simulation is: phase ("reading", "replaying", "writing"), what it counts, how
  // many are done, out of how many (0: not known yet). For a progress line on a terminal.
  std::function<void(std::string_view phase, std::string_view what, std::uint64_t done, std::uint64_t total)> progress;
};

struct SimulationResult {
  TraceHeader header;         // CAPTURE_MODE_SIMULATED, with SimulationInfo
  std::vector<Event> events;  // simulate(SourceTrace) only: in the source's order; markers are host-side and left out
  CaptureMode source_mode = CAPTURE_MODE_UNSPECIFIED;  // how the source was recorded
  double recorded_kernel_s = 0;   // sum of the source's kernel durations
  double simulated_kernel_s = 0;  // the same, simulated
  std::size_t kernels = 0;
  std::size_t kernels_without_counters = 0;  // predicted from the launch configuration only
  std::vector<std::string> estimated_kernel_names;  // the first few distinct names of those, for messages
  std::size_t counters_borrowed = 0;         // took the counters of an identical launch of the same kernel
  double span_s = 0;       // first start to last end of API calls and GPU operations, simulated
  HostSummary host;        // how the host side was replayed
};

/// Where the simulated trace goes: `header` once, then `event` for each event of the source but its markers, in the
/// source's order, with simulated times. Either may be empty (no second pass without `event`).
struct SimulationOutput {
  std::function<void(const TraceHeader&)> header;
  std::function<void(const Event&)> event;
};

/// Simulates `source` on `platform`, reading it three times: once to index it (API order, threads, streams, the
/// routes its operations may use), once to replay it in API order, predicting each operation as it is read, and once
/// to give `output` its events with their new times. Memory holds what has been read and not yet run, and a few
/// bytes per event (its place in API order, its new times), not the trace.
/// `model` may be null only in the topology-study mode. Throws std::runtime_error when the trace cannot run there (a
/// device the node lacks) or, unless options.allow_estimates, when no kernel of it has counters.
SimulationResult simulate(EventSource& source, const platform::Platform& platform, const models::KernelModel* model,
                          const SimulationOptions& options, const SimulationOutput& output);
/// The same on a trace in memory; the result holds the simulated events.
SimulationResult simulate(const SourceTrace& trace, const platform::Platform& platform,
                          const models::KernelModel* model, const SimulationOptions& options);

}  // namespace warpsim::replay
