#pragma once
// Small traces for the report tests: kernels with chosen launch order and durations, written to temp files.
#include <filesystem>
#include <string>
#include <vector>

#include "host_events.h"
#include "sample_trace.h"

namespace warpsim::testing {

/// A kernel whose correlation id (launch order) is `correlation`, independent of its start time.
inline Event launch(std::uint32_t device, std::uint32_t stream, const std::string& name, std::uint64_t correlation,
                    std::uint64_t start_ns, std::uint64_t duration_ns) {
  Event event = kernel_event(device, stream, name, start_ns, duration_ns);
  event.mutable_kernel()->set_correlation_id(correlation);
  return event;
}

/// Thread 4200: cudaMalloc over [0, 1 us), 10 us of host work, then a launch (with the driver's launch nested in it)
/// of a kernel that runs `kernel_ns` from 11.6 us while the thread waits in a synchronize until 0.4 us after it.
/// Span 12 us + kernel_ns: kernels kernel_ns, api 2 us, host 10 us, no copies, no idle.
inline std::vector<Event> host_gap_then_kernel(std::uint64_t kernel_ns) {
  return {api_call_event("cudaMalloc_v3020", 4200, 0, 1'000, 1),
          api_call_event("cudaLaunchKernel_v7000", 4200, 11'000, 11'500, 2),
          api_call_event("cuLaunchKernel", 4200, 11'100, 11'400, 102), launch(0, 7, "_Z1kv", 2, 11'600, kernel_ns),
          api_call_event("cudaDeviceSynchronize_v3020", 4200, 11'500, 11'600 + kernel_ns + 400, 3)};
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
