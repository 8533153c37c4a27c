#pragma once
// Small traces for the report tests: kernels with chosen launch order and durations, written to temp files.
#include <filesystem>
#include <string>
#include <vector>

#include "sample_trace.h"

namespace warpsim::testing {

/// A kernel whose correlation id (launch order) is `correlation`, independent of its start time.
inline Event launch(std::uint32_t device, std::uint32_t stream, const std::string& name, std::uint64_t correlation,
                    std::uint64_t start_ns, std::uint64_t duration_ns) {
  Event event = kernel_event(device, stream, name, start_ns, duration_ns);
  event.mutable_kernel()->set_correlation_id(correlation);
  return event;
}

/// Writes `events` under a two-GPU header with `mode` to a fresh file named `name`.
inline std::filesystem::path trace_file(const std::string& name, const std::vector<Event>& events,
                                        CaptureMode mode = CAPTURE_MODE_SYNTHETIC) {
  TraceHeader header = two_gpu_header();
  header.set_mode(mode);
  const auto path = fresh_temp_dir() / name;
  write_trace(path, header, events);
  return path;
}

}  // namespace warpsim::testing
