#pragma once
// The host-side checks the PolyBench matrix-vector programs (atax, bicg, gemver, gesummv, mvt) share: a double-
// precision reference of M v and M^T v with the magnitude sums their tolerance needs, and the checker that keeps the
// first failure and the worst error. Host code only: the kernels the traces recorded stay in each program.

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace ws::polybench {

/// Compares GPU values with double-precision references. Tolerance: relative 1e-3 of the value plus 1e-5 of the
/// sum of the magnitudes of the terms (cancellation can bring a value near zero while float rounding still scales
/// with that sum; the rounding error of an 8192-term float sum of random-signed terms stays near 1e-6 of it, while a
/// wrong or missing term is ~1e-4 of it). Keeps the first failure and the worst error relative to the magnitude,
/// printed in the check line so that the tolerance's margin is visible.
class Checker {
 public:
  void add(const char* array, long index, float got, double want, double magnitude) {
    ++count_;
    const double error = std::fabs(static_cast<double>(got) - want);
    if (magnitude > 0.0 && error / magnitude > worst_) worst_ = error / magnitude;
    const double tolerance = 1e-3 * std::fabs(want) + 1e-5 * magnitude;
    if (!(error <= tolerance) && failure_.empty()) {  // negated so that NaN fails
      char text[200];
      std::snprintf(text, sizeof text, "%s[%ld]=%.7g want %.7g (tolerance %.3g)", array, index,
                    static_cast<double>(got), want, tolerance);
      failure_ = text;
    }
  }
  bool ok() const { return failure_.empty(); }
  std::string summary() const {
    char text[120];
    std::snprintf(text, sizeof text, "checked=%ld worst_error/magnitude=%.3g ", count_, worst_);
    return text + (ok() ? std::string("all within tolerance") : failure_);
  }

 private:
  long count_ = 0;
  double worst_ = 0.0;
  std::string failure_;
};

/// Reference out = scale * (M v) + base for row-major n x n M (row walk), in double with the magnitude sums (base
/// may be null: zero); checks all n elements of `got`.
inline void check_rows(Checker& checker, const char* name, const std::vector<float>& m, const std::vector<float>& v,
                       const std::vector<float>& got, int n, double scale = 1.0,
                       const std::vector<float>* base = nullptr) {
  for (int i = 0; i < n; ++i) {
    const float* row = m.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(n);
    double sum = 0.0;
    double magnitude = 0.0;
    for (int j = 0; j < n; ++j) {
      const double term = static_cast<double>(row[j]) * static_cast<double>(v[j]);
      sum += term;
      magnitude += std::fabs(term);
    }
    const double b = base != nullptr ? static_cast<double>((*base)[i]) : 0.0;
    checker.add(name, i, got[i], scale * sum + b, std::fabs(scale) * magnitude + std::fabs(b));
  }
}

/// Reference out = scale * (M^T v) + base for row-major n x n M, in double (rows outer, so that the CPU streams M;
/// base may be null: zero); checks all n elements of `got`.
inline void check_columns(Checker& checker, const char* name, const std::vector<float>& m, const std::vector<float>& v,
                          const std::vector<float>& got, int n, double scale = 1.0,
                          const std::vector<float>* base = nullptr) {
  std::vector<double> sum(static_cast<std::size_t>(n), 0.0);
  std::vector<double> magnitude(static_cast<std::size_t>(n), 0.0);
  for (int i = 0; i < n; ++i) {
    const float* row = m.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(n);
    const double vi = static_cast<double>(v[i]);
    for (int j = 0; j < n; ++j) {
      const double term = static_cast<double>(row[j]) * vi;
      sum[j] += term;
      magnitude[j] += std::fabs(term);
    }
  }
  for (int j = 0; j < n; ++j) {
    const double b = base != nullptr ? static_cast<double>((*base)[j]) : 0.0;
    checker.add(name, j, got[j], scale * sum[j] + b, std::fabs(scale) * magnitude[j] + std::fabs(b));
  }
}

}  // namespace ws::polybench
