#pragma once
// Statistics more than one layer needs (the models' launch fit, the report's error summaries), written once. Header
// only, and it includes nothing of ours: any part of the simulator may use it.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace warpsim {

/// The median of `values` (the mean of the middle two for an even count); 0 when there are none.
inline double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  const std::size_t middle = values.size() / 2;
  const auto upper_at = values.begin() + static_cast<std::ptrdiff_t>(middle);
  std::nth_element(values.begin(), upper_at, values.end());
  const double upper = *upper_at;
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), upper_at);
  return (lower + upper) / 2.0;
}

}  // namespace warpsim
