#pragma once
// Host reference for square row-major GEMMs C = A * B: sampled elements of C computed in double precision, for the
// workloads' checks (the full product on the CPU would take minutes at the sizes they run).
#include <cmath>
#include <cstddef>
#include <vector>

namespace ws {

/// Row-major index of element (row, col) of an n x n matrix, in size_t so that large n cannot overflow on the host.
inline std::size_t at(int row, int col, int n) {
  return static_cast<std::size_t>(row) * static_cast<std::size_t>(n) + static_cast<std::size_t>(col);
}

/// A sampled C element and the CPU's value for it.
struct GemmSample {
  int row;
  int col;
  double want;       // sum_k A[row][k] * B[k][col], in double
  double magnitude;  // sum_k |A[row][k] * B[k][col]|: the scale rounding errors grow with
};

/// Picks `count` (row, col) pairs with an integer LCG (the four corners first, to catch edge handling) and computes
/// each reference inner product in double precision.
inline std::vector<GemmSample> gemm_reference_samples(const std::vector<float>& a, const std::vector<float>& b, int n,
                                                      int count) {
  std::vector<GemmSample> samples;
  samples.reserve(static_cast<std::size_t>(count));
  const int corners[4][2] = {{0, 0}, {0, n - 1}, {n - 1, 0}, {n - 1, n - 1}};
  unsigned state = 12345u;
  for (int s = 0; s < count; ++s) {
    int row = 0;
    int col = 0;
    if (s < 4) {
      row = corners[s][0];
      col = corners[s][1];
    } else {
      state = state * 1664525u + 1013904223u;
      row = static_cast<int>((state >> 8) % static_cast<unsigned>(n));
      state = state * 1664525u + 1013904223u;
      col = static_cast<int>((state >> 8) % static_cast<unsigned>(n));
    }
    double want = 0.0;
    double magnitude = 0.0;
    for (int k = 0; k < n; ++k) {
      const double term = static_cast<double>(a[at(row, k, n)]) * static_cast<double>(b[at(k, col, n)]);
      want += term;
      magnitude += std::fabs(term);
    }
    samples.push_back({row, col, want, magnitude});
  }
  return samples;
}

}  // namespace ws
