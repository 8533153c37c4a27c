#pragma once
/// @brief Pairs the kernels of two traces of the same program: per (device, stream), in launch order.
///
/// A simulated trace keeps the device, stream and correlation ids of its source, so the k-th kernel launched on a
/// stream in one trace is the k-th in the other. Matching by order rather than by time is what lets a simulation that
/// runs faster or slower than the recording still pair up. Any difference in the kernels launched is an error: a
/// comparison of different programs would print numbers that mean nothing.

#include <array>
#include <compare>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/span_attribution.h"
#include "trace.pb.h"

namespace warpsim::report {

struct StreamKey {
  std::uint32_t device = 0;
  std::uint32_t stream = 0;
  auto operator<=>(const StreamKey&) const = default;
};

/// What matching and reports need of one kernel launch.
struct KernelRecord {
  std::string name;  ///< mangled
  std::uint64_t correlation_id = 0;
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
  std::array<std::uint32_t, 3> grid{};
  std::array<std::uint32_t, 3> block{};
  SimulatedBound bound;  ///< simulated traces: what bounded the kernel; unset elsewhere
  std::uint64_t duration_ns() const { return end_ns - start_ns; }
};

/// The kernels of one trace, per stream, in launch order, with what compare reports about the trace as a whole.
struct TraceKernels {
  std::string path;
  TraceHeader header;
  std::map<StreamKey, std::vector<KernelRecord>> streams;
  std::uint64_t kernels = 0;
  std::uint64_t kernel_time_ns = 0;
  std::optional<std::uint64_t> first_ns;  ///< earliest start of a kernel, copy, memset or API call (as inspect's span)
  std::optional<std::uint64_t> last_ns;   ///< latest end
  SpanAttribution attribution;            ///< the span from first_ns to last_ns split by what ran
  std::string truncation_warning;         ///< empty unless the trace was cut short
};

/// Reads every kernel of the trace at `path` and sorts each stream by launch order: correlation id (the order of
/// the host API calls), then start time (kernels of one graph launch share a correlation id; traces without
/// correlation ids fall back to time order). Throws TraceError on bad input.
TraceKernels read_trace_kernels(const std::filesystem::path& path);

/// One kernel of A paired with its counterpart in B.
struct KernelPair {
  StreamKey stream;
  std::size_t index = 0;  ///< position in the stream's launch order, from 0
  const KernelRecord* a = nullptr;
  const KernelRecord* b = nullptr;
};

/// The traces launched different kernels; what() names the first difference in one line.
class KernelMismatch : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Pairs every kernel of `a` with the one of `b` at the same stream and position, streams in (device, stream) order.
/// Throws KernelMismatch at the first stream missing from either trace, the first position whose names differ, or
/// the first stream whose kernel counts differ. The pairs point into `a` and `b`.
std::vector<KernelPair> match_kernels(const TraceKernels& a, const TraceKernels& b);

}  // namespace warpsim::report
