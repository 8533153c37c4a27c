#include "wave/launch_fit.h"

#include <map>
#include <stdexcept>

#include "numeric.h"

namespace warpsim::models::wave {
namespace {

double mean(std::span<const double> v) {
  double sum = 0;
  for (double x : v) sum += x;
  return sum / static_cast<double>(v.size());
}

}  // namespace

Line least_squares(std::span<const double> x, std::span<const double> y) {
  if (x.size() != y.size()) throw std::invalid_argument("least_squares: x and y differ in length");
  if (x.size() < 2) throw std::invalid_argument("least_squares: needs at least two points");
  const double mx = mean(x);
  const double my = mean(y);
  double sxx = 0;
  double sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
  }
  if (sxx <= 0) throw std::invalid_argument("least_squares: needs at least two distinct x");
  const double slope = sxy / sxx;
  return Line{my - slope * mx, slope};
}

std::vector<platform::LaunchFit> fit_launches(std::span<const LaunchSample> samples) {
  std::map<uint32_t, std::map<uint64_t, std::vector<double>>> by_block;  // warps -> grid -> durations
  for (const LaunchSample& s : samples) by_block[s.block_warps][s.grid_blocks].push_back(s.duration_ns);
  std::vector<platform::LaunchFit> fits;
  for (const auto& [warps, by_grid] : by_block) {
    if (by_grid.size() < 2) continue;
    std::vector<double> grids;
    std::vector<double> times;
    for (const auto& [grid, durations] : by_grid) {
      grids.push_back(static_cast<double>(grid));
      times.push_back(median(durations));
    }
    const Line line = least_squares(grids, times);
    platform::LaunchFit& fit = fits.emplace_back();
    fit.set_block_warps(warps);
    fit.set_x0_ns(line.x0);
    fit.set_x1_ns_per_block(line.x1);
  }
  return fits;
}

}  // namespace warpsim::models::wave
