#pragma once
/// @brief Puts counters-mode measurements on a timeline trace: a counters run replays kernels and so loses their
/// real times and concurrency, a timeline run has those but no counters. On each device the two runs' launches, in
/// launch order (correlation ids grow with launch order in a process), are aligned like a diff (kernel_alignment.h):
/// a timeline kernel takes the counters of the launch it is paired with, one with the same name, grid and block. Runs
/// of programs built on vendor libraries differ (cuFFT picks another kernel for the same plan): kernels without a
/// partner keep no counters. A traffic-mode run (header mode CAPTURE_MODE_TRAFFIC) among the counters traces is paired
/// the same way, and gives each paired kernel the traffic profile of its partner, attributed from the run's PM samples
/// (traffic_profile.h). Pure: no CUDA.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace warpsim::trace {

/// A kernel of one run that the alignment paired with none of the other.
struct UnmatchedKernel {
  std::uint32_t device = 0;
  std::uint64_t position = 0;  ///< in the device's launch order, from 0
  std::string name;
};

/// How the kernels of one counters (or traffic) trace met the timeline's.
struct CountersMatch {
  static constexpr std::size_t kListed = 10;  ///< unmatched kernels named per side

  std::filesystem::path trace;
  bool traffic = false;  ///< a traffic-mode run: its kernels give traffic profiles
  std::uint64_t timeline_kernels = 0;
  std::uint64_t matched = 0;  ///< timeline kernels paired with a launch of this trace (they take its counters)
  std::uint64_t unmatched_in_timeline = 0;
  std::uint64_t unmatched_here = 0;                ///< launches of this trace paired with no timeline kernel
  std::vector<UnmatchedKernel> timeline_examples;  ///< the first kListed unmatched timeline kernels, by device
  std::vector<UnmatchedKernel> here_examples;      ///< the first kListed of this trace's
};

struct MergeSummary {
  std::uint64_t kernels = 0;
  std::uint64_t kernels_with_counters = 0;
  std::uint64_t kernels_with_traffic_profile = 0;
  std::string truncation_warning;       ///< the timeline trace was cut short: its complete events were merged
  std::vector<CountersMatch> counters;  ///< one per counters trace, in the order given
};

/// Writes `output`: the header and events of `timeline`, each kernel carrying the counters of its partner in each of
/// `counter_traces` (several: e.g. the core and links groups), the traffic profile of its partner in a traffic-mode
/// trace among them, and the first of their SASS summaries where the timeline kernel has none (the timeline's own is
/// kept); no TrafficSamples event is copied. Throws TraceError when a counters trace is not a run of the same program:
/// a device launched kernels in one trace and none in the other, or fewer than half of a device's timeline kernels
/// found a partner; and when `timeline` is a traffic-mode trace. `output` is written under a temporary name and
/// renamed at the end, so a failure leaves any existing file untouched.
MergeSummary merge_counters(const std::filesystem::path& timeline,
                            const std::vector<std::filesystem::path>& counter_traces,
                            const std::filesystem::path& output);

}  // namespace warpsim::trace
