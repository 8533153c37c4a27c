#include "simulate_summary.h"

#include <fmt/format.h>

#include <iostream>
#include <vector>

#include "analysis/demangle.h"
#include "outputs/printable.h"

namespace warpsim::cli {
namespace {

// The kernels predicted without counters, as users wrote them: "matmul_naive(float const*, ...); ...".
std::string estimated_names(const replay::SimulationResult& result) {
  std::vector<std::string> names;
  for (const std::string& name : result.estimated_kernel_names) names.push_back(report::demangle(name));
  return report::printable(fmt::format("{}", fmt::join(names, "; ")));
}

nlohmann::json host_json(const SimulateRun& run, const replay::HostSummary& host) {
  return {{"from_api_calls", host.from_api_calls},
          {"threads", host.threads},
          {"api_calls", host.api_calls},
          {"blocking_calls", host.blocking_calls},
          {"unattributed_events", host.unattributed_events},
          {"host_scale", run.host_scale}};
}

// An output path, or null where that output was not asked for.
nlohmann::json path_or_null(const std::string& path) { return path.empty() ? nlohmann::json() : nlohmann::json(path); }

}  // namespace

void print_warnings(const SimulateRun& run, const replay::SimulationResult& result) {
  if (result.source_mode == CAPTURE_MODE_COUNTERS) {
    std::cerr << fmt::format(
        "warning: {} is a counters-mode recording: its kernels ran one at a time under replay and "
        "its host side was not recorded, so the simulated timeline (concurrency, host time) "
        "has no recording to follow; merge it into a timeline recording (warpsim merge) or use "
        "warpsim record --all\n",
        run.trace);
  }
  if (!result.host.from_api_calls) {
    std::cerr << fmt::format(
        "warning: {} has no API calls: host time is unknown, each operation is issued after the "
        "platform's api_call_overhead_us (record a timeline trace with this warpsim to get the "
        "host side)\n",
        run.trace);
  }
  if (result.host.unattributed_events > 0) {
    std::cerr << fmt::format(
        "warning: {} operations or waits have no recorded API call; they are issued at once, in "
        "API order\n",
        result.host.unattributed_events);
  }
  if (result.kernels_without_counters > 0) {
    std::cerr << fmt::format(
        "warning: {} of {} kernels have no counters (e.g. {}): predicted from their launch "
        "configuration only (sim/models/README.md); record a counters run and `warpsim merge` it\n",
        result.kernels_without_counters, result.kernels, estimated_names(result));
  }
}

void print_text_summary(const SimulateRun& run, const replay::SimulationResult& result) {
  const SimulationInfo& info = result.header.simulation();
  std::cout << fmt::format(
      "simulated {} on {} with {}{}\n", run.trace, info.platform(), info.model(),
      info.reuses_recorded_kernel_times() ? " (recorded kernel times reused: NOT predictive)" : "");
  std::cout << fmt::format("  kernels {}, counters borrowed {}, without counters {}\n", result.kernels,
                           result.counters_borrowed, result.kernels_without_counters);
  std::cout << fmt::format("  kernel time: simulated {:.3f} ms, recorded {:.3f} ms\n", result.simulated_kernel_s * 1e3,
                           result.recorded_kernel_s * 1e3);
  std::cout << fmt::format("  span (first start to last end), simulated: {:.3f} ms\n", result.span_s * 1e3);
  const replay::HostSummary& host = result.host;
  if (!host.from_api_calls) return;
  std::cout << fmt::format(
      "  host: {} thread(s), {} API calls ({} blocking); host work between and inside calls "
      "taken from the recording{}\n",
      host.threads, host.api_calls, host.blocking_calls,
      run.host_scale == 1 ? " (unchanged by the GPU)" : fmt::format(", times {}", run.host_scale));
}

nlohmann::json summary_json(const SimulateRun& run, const replay::SimulationResult& result) {
  const SimulationInfo& info = result.header.simulation();
  return {
      {"trace", run.trace},
      {"platform", info.platform()},
      {"model", info.model()},
      {"predictive", !info.reuses_recorded_kernel_times()},
      {"kernels", result.kernels},
      {"counters_borrowed", result.counters_borrowed},
      {"kernels_without_counters", result.kernels_without_counters},
      {"kernel_time_s", {{"simulated", result.simulated_kernel_s}, {"recorded", result.recorded_kernel_s}}},
      {"span_s", result.span_s},
      {"host", host_json(run, result.host)},
      {"outputs",
       {{"trace", path_or_null(run.output)}, {"timeline", path_or_null(run.timeline)}, {"csv", path_or_null(run.csv)}}},
      {"took_s", run.took_s},
      {"peak_memory_mib", run.peak_memory_mib},
  };
}

}  // namespace warpsim::cli
