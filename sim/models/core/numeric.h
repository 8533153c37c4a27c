#pragma once
// Small numeric helpers the models share, each written once.
#include <cstdint>

#include "statistics.h"  // median, shared with the report

namespace warpsim::models {

/// A counter as a double. Counters are uint64 and the models' arithmetic is in doubles; sums of counters are added
/// as integers first, then converted once.
inline double as_double(uint64_t v) { return static_cast<double>(v); }

/// a / b, or 0 where b is not positive: a spec without a rate (0) bounds nothing rather than dividing by zero.
inline double ratio_or_zero(double a, double b) { return b <= 0 ? 0 : a / b; }

using warpsim::median;

}  // namespace warpsim::models
