// hotspot: transient thermal simulation of a chip, the compact RC model of HotSpot (Huang et al., "HotSpot: A
// Compact Thermal Modeling Methodology for Early-Stage VLSI Design", IEEE TVLSI 2006) as Rodinia's hotspot runs it:
// a 2-D grid of cell temperatures and per-cell dissipated power; each explicit time step sets
//   T' = T + (step / Cap) * (P + (T_N + T_S - 2T) / Ry + (T_E + T_W - 2T) / Rx + (T_amb - T) / Rz)
// with insulated chip edges (a missing neighbour counts as the cell itself). Like Rodinia, each launch advances a
// "pyramid" of several time steps at once: a 16x16 block loads a 16x16 tile (temperature and power) into shared
// memory, runs `pyramid` steps on it while the region it can compute correctly shrinks by one cell per side per step,
// and writes back only the inner (16 - 2 * pyramid)^2 cells, so neighbouring blocks' input tiles overlap by
// 2 * pyramid cells (ghost zones): redundant loads and compute traded for fewer global round trips.
//
// Size: 4096 x 4096 cells (64 MiB per grid), 20 time steps in 10 launches of pyramid height 2 (12x12 output cells per
// 16x16 block, 342 x 342 blocks). The cell size is fixed (as on Rodinia's 512 x 512, 16 mm chip) so that the explicit
// step stays stable at any grid size.
//
// GPU behaviour exercised: a bandwidth-bound 2-D stencil with shared-memory tiling and __syncthreads between the
// in-tile steps; each warp reads two 64-byte row segments that are not sector-aligned (tile origins step by 12
// columns), overlapping tiles re-read ~1.8x the grid (mostly L2 hits), and only 144 of 256 threads store.
// Measured on an H100 (event timing): ~185-200 us per launch.
//
// Usage: ws_hotspot [--n N (grid side)] [--steps S] [--pyramid P]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "hotspot";
constexpr int kTile = 16;        // Rodinia's BLOCK_SIZE: 16x16 threads, one cell each
constexpr long kMaxN = 8192;

// Physical constants of the HotSpot model (silicon), as in Rodinia's hotspot.
constexpr double kMaxPowerDensity = 3.0e6;
constexpr double kPrecision = 0.001;
constexpr double kSpecHeatSi = 1.75e6;
constexpr double kConductSi = 100.0;
constexpr double kFactorChip = 0.5;
constexpr double kChipThickness = 0.0005;
constexpr double kCellSize = 0.016 / 512.0;   // metres per cell (fixed; see the header comment)
constexpr float kAmbient = 80.0f;

using ws::DeviceBuffer;

/// The model's coefficients for square cells of side kCellSize.
struct Coefficients {
  float step_div_cap;  // step / Cap
  float rx_inv;        // 1 / Rx
  float ry_inv;        // 1 / Ry
  float rz_inv;        // 1 / Rz
};

Coefficients make_coefficients() {
  const double w = kCellSize;
  const double h = kCellSize;
  const double cap = kFactorChip * kSpecHeatSi * kChipThickness * w * h;
  const double rx = w / (2.0 * kConductSi * kChipThickness * h);
  const double ry = h / (2.0 * kConductSi * kChipThickness * w);
  const double rz = kChipThickness / (kConductSi * h * w);
  const double max_slope = kMaxPowerDensity / (kFactorChip * kChipThickness * kSpecHeatSi);
  const double step = kPrecision / max_slope;
  return Coefficients{static_cast<float>(step / cap), static_cast<float>(1.0 / rx), static_cast<float>(1.0 / ry),
                      static_cast<float>(1.0 / rz)};
}

// ---------------------------------------------------------------------------------------------------------------
// Kernel. Row-major n x n grids; threadIdx.x walks columns.

/// Advances `steps` (<= pyramid) time steps. Block (bx, by) loads the 16x16 tile whose top-left cell is
/// (by * small - pyramid, bx * small - pyramid), small = 16 - 2 * pyramid, and writes the cells of tile coordinates
/// [pyramid, 15 - pyramid]^2. In step i the threads at tile coordinates [i + 1, 14 - i] compute (their neighbours
/// were valid after step i - 1); neighbour indices are clamped to the part of the tile inside the grid, which is
/// exactly the insulated-edge rule at the grid's edges and never binds elsewhere for a computing thread.
__global__ void hotspot_pyramid(const float* __restrict__ power, const float* __restrict__ temp_in,
                                float* __restrict__ temp_out, int n, int steps, int pyramid, Coefficients k,
                                float ambient) {
  __shared__ float t_tile[kTile][kTile];
  __shared__ float p_tile[kTile][kTile];
  __shared__ float next[kTile][kTile];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int small = kTile - 2 * pyramid;
  const int y0 = blockIdx.y * small - pyramid;  // tile origin in the grid (may be negative)
  const int x0 = blockIdx.x * small - pyramid;
  const int gy = y0 + ty;
  const int gx = x0 + tx;
  const bool inside = gy >= 0 && gy < n && gx >= 0 && gx < n;
  if (inside) {
    const int index = gy * n + gx;
    t_tile[ty][tx] = temp_in[index];
    p_tile[ty][tx] = power[index];
  }
  __syncthreads();

  // Range of tile coordinates inside the grid.
  const int y_lo = y0 < 0 ? -y0 : 0;
  const int y_hi = y0 + kTile - 1 > n - 1 ? n - 1 - y0 : kTile - 1;
  const int x_lo = x0 < 0 ? -x0 : 0;
  const int x_hi = x0 + kTile - 1 > n - 1 ? n - 1 - x0 : kTile - 1;
  const int north = ty - 1 < y_lo ? y_lo : ty - 1;
  const int south = ty + 1 > y_hi ? y_hi : ty + 1;
  const int west = tx - 1 < x_lo ? x_lo : tx - 1;
  const int east = tx + 1 > x_hi ? x_hi : tx + 1;

  bool computed = false;
  for (int i = 0; i < steps; ++i) {
    computed = false;
    if (inside && ty >= i + 1 && ty <= kTile - 2 - i && tx >= i + 1 && tx <= kTile - 2 - i) {
      const float t = t_tile[ty][tx];
      next[ty][tx] = t + k.step_div_cap * (p_tile[ty][tx] +
                                           (t_tile[south][tx] + t_tile[north][tx] - 2.0f * t) * k.ry_inv +
                                           (t_tile[ty][east] + t_tile[ty][west] - 2.0f * t) * k.rx_inv +
                                           (ambient - t) * k.rz_inv);
      computed = true;
    }
    __syncthreads();  // every thread has read the old tile
    if (i == steps - 1) break;
    if (computed) t_tile[ty][tx] = next[ty][tx];
    __syncthreads();  // the new tile is complete before the next step reads it
  }
  // With steps == pyramid the computing range is exactly the output range; with fewer steps (a last, partial
  // launch) it is wider, and the overlapping blocks write identical values.
  if (computed) temp_out[gy * n + gx] = next[ty][tx];
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

/// One reference time step in double, with the same update rule (interior columns in a separate, vectorisable loop).
void cpu_step(const std::vector<double>& power, const std::vector<double>& in, std::vector<double>& out, int n,
              const Coefficients& k) {
  const double sdc = k.step_div_cap;
  const double rx = k.rx_inv;
  const double ry = k.ry_inv;
  const double rz = k.rz_inv;
  const double amb = kAmbient;
  const auto cell = [=](double t, double p, double north, double south, double west, double east) {
    return t + sdc * (p + (south + north - 2.0 * t) * ry + (east + west - 2.0 * t) * rx + (amb - t) * rz);
  };
  for (int y = 0; y < n; ++y) {
    const double* row = in.data() + static_cast<std::size_t>(y) * n;
    const double* up = in.data() + static_cast<std::size_t>(y > 0 ? y - 1 : 0) * n;
    const double* down = in.data() + static_cast<std::size_t>(y < n - 1 ? y + 1 : n - 1) * n;
    const double* p = power.data() + static_cast<std::size_t>(y) * n;
    double* o = out.data() + static_cast<std::size_t>(y) * n;
    o[0] = cell(row[0], p[0], up[0], down[0], row[0], row[1]);
    for (int x = 1; x < n - 1; ++x) o[x] = cell(row[x], p[x], up[x], down[x], row[x - 1], row[x + 1]);
    o[n - 1] = cell(row[n - 1], p[n - 1], up[n - 1], down[n - 1], row[n - 2], row[n - 1]);
  }
}

int usage(const char* message) {
  std::fprintf(stderr,
               "ws_hotspot: %s\nusage: ws_hotspot [--n N (16..%ld)] [--steps S (1..200)] [--pyramid P (1..7)]\n",
               message, kMaxN);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long n_arg = ws::arg_long(argc, argv, "n", 4096);
  const long steps_arg = ws::arg_long(argc, argv, "steps", 20);
  const long pyramid_arg = ws::arg_long(argc, argv, "pyramid", 2);
  if (n_arg < 16 || n_arg > kMaxN) return usage("--n out of range");
  if (steps_arg < 1 || steps_arg > 200) return usage("--steps out of range");
  if (pyramid_arg < 1 || pyramid_arg > 7) return usage("--pyramid out of range");  // 16 - 2P >= 2
  const int n = static_cast<int>(n_arg);
  const int steps = static_cast<int>(steps_arg);
  const int pyramid = static_cast<int>(pyramid_arg);
  const Coefficients k = make_coefficients();

  // Temperatures 320..340 K with a smooth hot region plus noise; power 0..0.5 (units of the model) with hot spots.
  const std::size_t cells = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  std::vector<float> host_temp(cells);
  std::vector<float> host_power(cells);
  ws::fill_random(host_temp, 11u);
  ws::fill_random(host_power, 12u);
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      const std::size_t i = static_cast<std::size_t>(y) * n + x;
      const bool hot = ((x / 256) + (y / 256)) % 3 == 0;
      host_temp[i] = 330.0f + 10.0f * host_temp[i];
      host_power[i] = (hot ? 0.3f : 0.1f) + 0.2f * host_power[i] * (hot ? 1.0f : 0.5f);
    }
  }

  DeviceBuffer<float> power(cells);
  DeviceBuffer<float> temp_a(cells);
  DeviceBuffer<float> temp_b(cells);
  power.upload(host_power);
  temp_a.upload(host_temp);
  WS_CHECK(cudaMemset(temp_b.get(), 0xFF, temp_b.bytes()));  // NaN: a cell that is never written fails

  const int small = kTile - 2 * pyramid;
  const dim3 block(kTile, kTile);
  const dim3 grid(static_cast<unsigned>((n + small - 1) / small), static_cast<unsigned>((n + small - 1) / small));
  ws::KernelTimer timer(kWorkload);
  float* src = temp_a.get();
  float* dst = temp_b.get();
  for (int done = 0; done < steps; done += pyramid) {
    const int now = std::min(pyramid, steps - done);
    timer.start();
    hotspot_pyramid<<<grid, block>>>(power.get(), src, dst, n, now, pyramid, k, kAmbient);
    timer.stop("hotspot_pyramid");
    std::swap(src, dst);
  }
  std::vector<float> got(cells);
  WS_CHECK(cudaMemcpy(got.data(), src, cells * sizeof(float), cudaMemcpyDeviceToHost));

  // Reference in double. Tolerance: 2e-3 K absolute (float rounding of a ~330 K value is ~3e-5 K per step) plus
  // 1e-3 of the cell's total change; the changes are ~0.1-3 K, and a wrong neighbour or a skipped step is off by
  // ~0.03 K or more per step.
  std::vector<double> p(host_power.begin(), host_power.end());
  std::vector<double> cur(host_temp.begin(), host_temp.end());
  std::vector<double> nxt(cells);
  for (int s = 0; s < steps; ++s) {
    cpu_step(p, cur, nxt, n, k);
    cur.swap(nxt);
  }
  long first_bad = -1;
  double worst = 0.0;
  double mean_change = 0.0;
  for (std::size_t i = 0; i < cells; ++i) {
    const double change = std::fabs(cur[i] - static_cast<double>(host_temp[i]));
    const double error = std::fabs(static_cast<double>(got[i]) - cur[i]);
    mean_change += change;
    if (error > worst) worst = error;
    if (!(error <= 2e-3 + 1e-3 * change) && first_bad < 0) first_bad = static_cast<long>(i);
  }
  mean_change /= static_cast<double>(cells);
  char detail[256];
  if (first_bad < 0) {
    std::snprintf(detail, sizeof detail, "n=%d steps=%d pyramid=%d mean_change=%.3gK worst_error=%.3gK all within "
                  "tolerance", n, steps, pyramid, mean_change, worst);
  } else {
    std::snprintf(detail, sizeof detail, "n=%d steps=%d pyramid=%d T[%ld][%ld]=%.6f want %.6f", n, steps, pyramid,
                  first_bad / n, first_bad % n, static_cast<double>(got[static_cast<std::size_t>(first_bad)]),
                  cur[static_cast<std::size_t>(first_bad)]);
  }
  return ws::report_check(kWorkload, first_bad < 0, detail);
}
