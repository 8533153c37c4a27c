#include "launch_time.h"

#include <algorithm>

#include "gpu_rates.h"

namespace warpsim::models {
namespace {

struct LaunchLine {
  double x0_ns = 0;
  double x1_ns = 0;
};

LaunchLine line_of(const platform::LaunchFit& fit) { return {fit.x0_ns(), fit.x1_ns_per_block()}; }

// Validation keeps launch_fits sorted by block_warps, each once (sim/platform/gpu_validation.cc).
LaunchLine line_for(const google::protobuf::RepeatedPtrField<platform::LaunchFit>& fits, uint32_t warps) {
  const auto above = std::find_if(fits.begin(), fits.end(),
                                  [warps](const platform::LaunchFit& f) { return f.block_warps() >= warps; });
  if (above == fits.begin()) return line_of(*above);
  if (above == fits.end()) return line_of(*std::prev(above));
  const platform::LaunchFit& lo = *std::prev(above);
  const platform::LaunchFit& hi = *above;
  const double w =
      static_cast<double>(warps - lo.block_warps()) / static_cast<double>(hi.block_warps() - lo.block_warps());
  return {lo.x0_ns() + w * (hi.x0_ns() - lo.x0_ns()),
          lo.x1_ns_per_block() + w * (hi.x1_ns_per_block() - lo.x1_ns_per_block())};
}

}  // namespace

LaunchTime launch_time(const platform::GpuSpec& gpu, uint32_t block_warps, uint64_t grid_blocks) {
  if (gpu.launch_fits().empty()) return {GpuRates::of(gpu).launch_overhead_s, false};
  const LaunchLine line = line_for(gpu.launch_fits(), block_warps);
  const double ns = line.x0_ns + static_cast<double>(grid_blocks) * line.x1_ns;
  return {std::max(0.0, ns) * 1e-9, true};
}

}  // namespace warpsim::models
