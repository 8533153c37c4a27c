#include "launch_values.h"

#include <fmt/format.h>

#include <stdexcept>

#include "occupancy.h"
#include "statistics.h"
#include "trace_reader.h"

namespace warpsim::calibrate {
namespace {

constexpr std::uint64_t kWarpSize = 32;
constexpr const char* kEmptyKernel = "empty_kernel";

std::vector<models::wave::LaunchSample> empty_kernel_launches(const BenchmarkRun& run) {
  std::vector<models::wave::LaunchSample> found = launch_samples(run.trace.string(), kEmptyKernel);
  if (found.empty())
    throw std::runtime_error(fmt::format("{}: no {} launch in the trace", run.trace.string(), kEmptyKernel));
  return found;
}

Measurement launch_overhead(const std::vector<models::wave::LaunchSample>& launches, const BenchmarkRun& run) {
  std::vector<double> one_warp_one_block;
  for (const auto& launch : launches)
    if (launch.block_warps == 1 && launch.grid_blocks == 1) one_warp_one_block.push_back(launch.duration_ns);
  if (one_warp_one_block.empty())
    throw std::runtime_error(fmt::format("{}: no {}<<<1, 32>>> launch in the trace", run.trace.string(), kEmptyKernel));
  return {"kernel_launch_overhead_us", fmt::format("{:.3f}", median(one_warp_one_block) / 1000),
          fmt::format("MEASURED {}: median CUPTI duration of {} {}<<<1, 32>>> launches", run.provenance(),
                      one_warp_one_block.size(), kEmptyKernel)};
}

}  // namespace

std::vector<models::wave::LaunchSample> launch_samples(const std::string& trace, const std::string& kernel) {
  TraceReader reader(trace);
  std::vector<models::wave::LaunchSample> found;
  Event event;
  while (reader.next(event)) {
    if (!event.has_kernel()) continue;
    const KernelLaunch& k = event.kernel();
    if (k.name().find(kernel) == std::string::npos || k.end_ns() <= k.start_ns()) continue;
    const std::uint64_t warps = (models::threads_per_block(k) + kWarpSize - 1) / kWarpSize;
    found.push_back(
        {static_cast<std::uint32_t>(warps), models::grid_blocks(k), static_cast<double>(k.end_ns() - k.start_ns())});
  }
  return found;
}

Measurements launch_values(const BenchmarkRun& run) {
  const std::vector<models::wave::LaunchSample> launches = empty_kernel_launches(run);
  Measurements found{launch_overhead(launches, run)};
  for (const platform::LaunchFit& fit : models::wave::fit_launches(launches)) {
    found.push_back(
        {"launch_fits[]",
         fmt::format("block_warps: {} x0_ns: {:.1f} x1_ns_per_block: {:.5f}", fit.block_warps(), fit.x0_ns(),
                     fit.x1_ns_per_block()),
         fmt::format("MEASURED {}: least squares over the grid sizes of {} launches", run.provenance(), kEmptyKernel)});
  }
  return found;
}

}  // namespace warpsim::calibrate
