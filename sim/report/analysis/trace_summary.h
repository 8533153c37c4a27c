#pragma once
/// @brief What `warpsim inspect` reports about a trace, computed in one streaming pass.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trace.pb.h"
#include "trace_reader.h"

namespace warpsim::report {

/// Launches and time of all kernels sharing one (mangled) name.
struct KernelTotals {
  std::string name;
  std::uint64_t launches = 0;
  std::uint64_t total_ns = 0;
};

/// Count and bytes of the copies of one Memcpy::Kind.
struct CopyTotals {
  std::uint64_t count = 0;
  std::uint64_t bytes = 0;
};

struct TraceSummary {
  std::string file;
  std::uint32_t format_version = 0;
  bool record_checksums = false;  ///< format 2 on: each record carries one
  TraceHeader header;
  std::uint64_t events = 0;
  std::uint64_t kernels = 0;
  std::uint64_t kernels_with_counters = 0;
  std::uint64_t kernel_time_ns = 0;    ///< sum of kernel durations (overlapping kernels count twice)
  std::uint64_t kernel_streams = 0;    ///< distinct (device, stream) pairs that ran kernels
  std::array<CopyTotals, 6> copies{};  ///< indexed by Memcpy::Kind
  std::uint64_t memsets = 0;
  std::uint64_t synchronizations = 0;
  std::uint64_t markers = 0;
  std::uint64_t api_calls = 0;            ///< CUDA runtime and driver calls (nested driver calls count too)
  std::uint64_t host_threads = 0;         ///< HostThread events: the threads that made API calls
  std::uint64_t streams = 0;              ///< Stream events: the streams CUDA created
  std::optional<std::uint64_t> first_ns;  ///< earliest start of a kernel, copy, memset or API call
  std::optional<std::uint64_t> last_ns;   ///< latest end
  std::vector<KernelTotals> top_kernels;  ///< by total time, longest first
  std::string truncation_warning;         ///< empty unless the trace was cut short
};

/// Reads every remaining event of `reader` and summarizes them, keeping the `top_count` longest kernels by name.
/// Memory grows with the number of distinct kernel names and streams, not with the number of events.
TraceSummary summarize(TraceReader& reader, std::size_t top_count = 10);

}  // namespace warpsim::report
