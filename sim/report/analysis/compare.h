#pragma once
/// @brief The numbers of `warpsim compare A B`: per-kernel, per-name and whole-trace errors of B against A.
///
/// A is the reference (usually the recording), B the other (usually a simulation of it). Errors are B relative to
/// A: a kernel's error is (B - A) / A * 100, positive when B is slower. Kernels whose A duration is 0 have no
/// relative error; they are counted as skipped, not averaged in.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "analysis/kernel_match.h"
#include "statistics.h"
#include "analysis/span_attribution.h"

namespace warpsim::report {

/// Where a trace came from, as compare reports it.
struct TraceOrigin {
  std::string path;
  std::string mode;                     ///< capture_mode_label: "timeline", "simulated", ...
  std::optional<std::string> platform;  ///< header.simulation, on simulated traces only
  std::optional<std::string> model;
  std::vector<std::string> devices;  ///< device names, in header order
};

struct KernelError {
  StreamKey stream;
  std::size_t index = 0;  ///< position in the stream's launch order
  std::string name;       ///< mangled
  std::uint64_t a_ns = 0;
  std::uint64_t b_ns = 0;
  std::optional<double> error_pct;  ///< (b - a) / a * 100; unset when a_ns is 0
};

/// The launches of one kernel name.
struct NameError {
  std::string name;  ///< mangled
  std::uint64_t launches = 0;
  std::uint64_t a_ns = 0;  ///< sum over launches
  std::uint64_t b_ns = 0;
  std::optional<double> sum_error_pct;  ///< (b_ns - a_ns) / a_ns * 100
  std::optional<double> mape_pct;       ///< mean |error| over launches with a non-zero A duration
};

/// A pair of numbers, one per trace.
struct PerTrace {
  std::uint64_t a = 0;
  std::uint64_t b = 0;
};

struct Comparison {
  TraceOrigin a;
  TraceOrigin b;
  std::vector<KernelError> kernels;  ///< streams in (device, stream) order, each in launch order
  std::vector<NameError> by_name;    ///< longest A time first
  std::size_t matched = 0;
  std::size_t skipped = 0;                ///< matched kernels with A duration 0: in no percentage
  double mape_pct = 0;                    ///< mean over the non-skipped kernels of |error_pct|
  double median_ape_pct = 0;              ///< median of the same
  PerTrace kernel_time_ns;                ///< sums of kernel durations
  PerTrace span_ns;                       ///< last end - first start of kernels, copies, memsets and API calls
  std::optional<double> span_error_pct;   ///< (span B - span A) / span A * 100; unset when span A is 0
  std::vector<CategoryDiff> attribution;  ///< the spans split by what ran; the diffs add up to B - A of the spans
  PerTrace api_calls;                     ///< 0 in both: no host side to attribute (api and host are 0)
  std::vector<std::string> warnings;      ///< truncated traces: compared, but said so
};

/// Reads both traces and compares their kernels. Throws KernelMismatch when they launched different kernels,
/// std::runtime_error when either has no kernel times (a counters-mode trace) or no kernels, TraceError on bad input.
Comparison compare_traces(const std::filesystem::path& a, const std::filesystem::path& b);

/// The comparison of two traces already read (compare_traces without the files).
Comparison compare_kernels(const TraceKernels& a, const TraceKernels& b);

using warpsim::median;  // sim/common/statistics.h

}  // namespace warpsim::report
