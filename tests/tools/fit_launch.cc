// Fits paper 001's launch regression on a launch microbenchmark trace and prints the GpuSpec lines:
//   fit_launch TRACE [KERNEL]   (KERNEL: a substring of the mangled name, default "empty_kernel")
// Every launch of KERNEL is a sample (block size in warps, grid blocks, CUPTI duration end - start); each
// configuration contributes the median of its launches, then one least-squares line per block size
// (sim/models/wave/launch_fit.h; the samples read as `warpsim calibrate` reads them, sim/calibrate/launch_values.h).
// scripts/fit-launch.sh runs it on the shipped traces.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "launch_values.h"
#include "wave/launch_fit.h"

namespace {

namespace wave = warpsim::models::wave;

// Root mean square of the fit's residuals over every launch of that block size: how straight the line is.
double rms_residual(const warpsim::platform::LaunchFit& fit, const std::vector<wave::LaunchSample>& all) {
  double sum = 0;
  int n = 0;
  for (const wave::LaunchSample& s : all) {
    if (s.block_warps != fit.block_warps()) continue;
    const double r = s.duration_ns - (fit.x0_ns() + static_cast<double>(s.grid_blocks) * fit.x1_ns_per_block());
    sum += r * r;
    ++n;
  }
  return n == 0 ? 0 : std::sqrt(sum / n);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: fit_launch TRACE [KERNEL]\n");
    return 2;
  }
  try {
    const std::vector<wave::LaunchSample> all =
        warpsim::calibrate::launch_samples(argv[1], argc == 3 ? argv[2] : "empty_kernel");
    const std::vector<warpsim::platform::LaunchFit> fits = wave::fit_launches(all);
    if (fits.empty()) throw std::runtime_error("no block size with launches of two grid sizes or more");
    for (const warpsim::platform::LaunchFit& fit : fits) {
      std::printf("launch_fits { block_warps: %u x0_ns: %.1f x1_ns_per_block: %.5f }  # rms residual %.0f ns\n",
                  fit.block_warps(), fit.x0_ns(), fit.x1_ns_per_block(), rms_residual(fit, all));
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fit_launch: %s\n", e.what());
    return 1;
  }
  return EXIT_SUCCESS;
}
