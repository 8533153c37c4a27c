#pragma once
/// @brief Puts counters-mode measurements on a timeline trace: a counters run replays kernels and so loses their
/// real times and concurrency, a timeline run has those but no counters. Kernels are matched by launch order on each
/// device (correlation ids grow with launch order in a process) and their names must agree. Pure: no CUDA.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace warpsim::tracer {

struct MergeSummary {
  std::uint64_t kernels = 0;
  std::uint64_t kernels_with_counters = 0;
  std::string truncation_warning;  ///< the timeline trace was cut short: its complete events were merged
};

/// Writes `output`: the header and events of `timeline`, each kernel carrying the counters of the same launch in each
/// of `counter_traces` (several: e.g. the core and links groups), and the first of their SASS summaries where the
/// timeline kernel has none (the timeline's own is kept). Throws TraceError naming the kernel where the
/// traces differ (another program, another launch order). `output` is written under a temporary name and renamed
/// at the end, so a failure leaves any existing file untouched.
MergeSummary merge_counters(const std::filesystem::path& timeline,
                            const std::vector<std::filesystem::path>& counter_traces,
                            const std::filesystem::path& output);

}  // namespace warpsim::tracer
