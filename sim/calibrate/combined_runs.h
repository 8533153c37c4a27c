#pragma once
// Several runs of the calibration suite as one set of values: what a value is when the runs disagree, and how much
// they did (the spread each comment carries).
#include <vector>

#include "measurement.h"

namespace warpsim::calibrate {

/// One measurement per field: the median of the runs' values (a repeated message's elements field by field), with
/// run 1's comment followed by every run's value and their spread where the runs differ. Throws std::runtime_error
/// when the runs do not hold the same fields in the same order.
Measurements combine_runs(const std::vector<Measurements>& runs);

}  // namespace warpsim::calibrate
