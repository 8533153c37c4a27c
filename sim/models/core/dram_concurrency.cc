#include "dram_concurrency.h"

#include <algorithm>
#include <cmath>

namespace warpsim::models {
namespace {

// Where x falls among ascending `axis` values, in log2: the lower index and the fraction towards the next (0 at or
// below the first value, the last index at or above the last).
struct Bracket {
  int index = 0;
  double fraction = 0;
};

// `at(i)` is the axis' i-th value, i in [0, size).
template <typename At>
Bracket bracket(int size, const At& at, double x) {
  const int last = size - 1;
  if (x <= at(0)) return {0, 0};
  if (x >= at(last)) return {last, 0};
  int i = 0;
  while (at(i + 1) < x) ++i;
  return {i, std::log2(x / at(i)) / std::log2(at(i + 1) / at(i))};
}

// Little's law at one grid point: its lines in flight per SM x 128 B / its rate (the SM count cancels out when the
// rate is taken back from lines in flight per SM).
double point_latency(const platform::DramConcurrency& grid, const google::protobuf::RepeatedField<double>& rates,
                     int row, int column) {
  return grid.rows(row).warps_per_sm() * grid.loads_per_warp(column) * kDramLineBytes / (rates.Get(column) * 1e9);
}

double latency(const platform::DramConcurrency& grid, bool copy, const Bracket& w, const Bracket& u) {
  const auto at = [&](int row, int column) {
    const platform::DramConcurrencyRow& r = grid.rows(row);
    return point_latency(grid, copy ? r.copy_read_gb_per_s() : r.read_gb_per_s(), row, column);
  };
  const auto along_u = [&](int row) {
    return u.fraction == 0 ? at(row, u.index) : std::lerp(at(row, u.index), at(row, u.index + 1), u.fraction);
  };
  return w.fraction == 0 ? along_u(w.index) : std::lerp(along_u(w.index), along_u(w.index + 1), w.fraction);
}

}  // namespace

double dram_read_bytes_per_s(const platform::DramConcurrency& grid, const DramLoadsInFlight& loads) {
  if (grid.rows().empty() || grid.loads_per_warp().empty()) return 0;
  if (loads.lines_per_warp <= 0 || loads.lines_per_sm <= 0 || loads.write_share >= 1) return 0;
  // Fewer lines a warp than the first column (loads that mostly hit the L2): as many lines in flight from fewer warps
  // that each keep the first column's.
  double per_warp = loads.lines_per_warp;
  double warps = loads.lines_per_sm / per_warp;
  if (per_warp < grid.loads_per_warp(0)) {
    warps *= per_warp / grid.loads_per_warp(0);
    per_warp = grid.loads_per_warp(0);
  }
  if (warps < grid.rows(0).warps_per_sm()) return 0;
  const Bracket w = bracket(
      grid.rows_size(), [&](int i) { return grid.rows(i).warps_per_sm(); }, warps);
  const Bracket u = bracket(
      grid.loads_per_warp_size(), [&](int i) { return grid.loads_per_warp(i); }, per_warp);
  const double read = latency(grid, false, w, u);
  const double copy = latency(grid, true, w, u);
  const double seconds = std::lerp(read, copy, loads.write_share / (1 - loads.write_share));
  return loads.lines_per_sm * kDramLineBytes / seconds;
}

}  // namespace warpsim::models
