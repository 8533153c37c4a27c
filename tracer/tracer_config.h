#pragma once
/// @brief The tracer's settings. `warpsim record` passes them to the injected library through environment
/// variables (the only channel into an unmodified application); users of CUDA_INJECTION64_PATH can set them too.
///
///   WARPSIM_TRACE_OUTPUT         output path; %p is replaced by the process id (default warpsim-%p.wstrace)
///   WARPSIM_TRACE_ROOT_PID       set by `warpsim record`: the process whose output is the path as given; any other
///                                process (a child) writes PATH with ".<pid>" before the extension unless %p is used
///   WARPSIM_TRACE_MODE           timeline (default) | counters | traffic (activity records and PM sampling of the
///                                traffic counters; `warpsim record` serializes the kernels: CUDA_LAUNCH_BLOCKING=1)
///   WARPSIM_TRACE_FLUSH_MS       timeline and traffic modes: how often CUPTI hands buffers over (and traffic mode
///                                decodes its samples), so a killed app loses at most this (default 500); counters mode
///                                flushes after each profiled kernel instead
///   WARPSIM_TRACE_CAPTURE_RANGE  none (default) | cudaProfilerApi: record only between cudaProfilerStart and Stop
///   WARPSIM_TRACE_METRICS        counters mode: core (default: instructions, memory traffic) | links (NVLink, PCIe)
///   WARPSIM_TRACE_KERNELS        counters mode: profile only kernels whose name matches this regex
///   WARPSIM_TRACE_LAUNCH_SKIP    counters mode: skip this many matching launches first
///   WARPSIM_TRACE_LAUNCH_COUNT   counters mode: then profile at most this many
///   WARPSIM_TRAFFIC_INTERVAL_NS  traffic mode: PM sampling interval in nanoseconds (default 5000)
///   WARPSIM_TRACE_VERBOSE        set: report how long the tracer's own steps take (start, first context, exit)
///   WARPSIM_TRACE_BACKTRACE      set: print a backtrace on stderr if the process dies of a fatal signal

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "counters/counter_metrics.h"
#include "trace.pb.h"

namespace warpsim::tracer {

enum class TraceMode { kTimeline, kCounters, kTraffic };
enum class CaptureRange { kWhole, kProfilerApi };

struct TracerConfig {
  std::string output_path;  // resolved for this process
  TraceMode mode = TraceMode::kTimeline;
  MetricGroup metrics = MetricGroup::kCore;
  std::uint32_t flush_period_ms = 500;
  CaptureRange capture_range = CaptureRange::kWhole;
  std::string kernel_regex;
  std::uint64_t launch_skip = 0;
  std::optional<std::uint64_t> launch_count;
  std::uint64_t traffic_interval_ns = 5000;
};

/// Reads the settings through `getenv` (a function so that tests need not touch the environment) for process `pid`.
/// Throws std::invalid_argument naming the variable and value on a bad setting.
TracerConfig read_tracer_config(const std::function<const char*(const char*)>& getenv, std::uint32_t pid);

/// The trace header's mode for a tracer mode.
CaptureMode capture_mode(TraceMode mode);

/// The output path for process `pid`: %p replaced; for a process other than `root_pid`, ".<pid>" inserted before
/// the extension when the pattern has no %p (a traced app's children must not overwrite its trace).
std::string resolve_output_path(const std::string& pattern, std::uint32_t pid, std::optional<std::uint32_t> root_pid);

}  // namespace warpsim::tracer
