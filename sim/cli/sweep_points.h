#pragma once
// Running a sweep's points: each a `warpsim simulate ... --json` child whose stdout becomes the point's result file
// (renamed into place when it succeeds, so a result is whole or absent) and whose stderr its log.
#include <cstddef>

#include "sweep_plan.h"

namespace warpsim::cli {

/// Runs the points without a result yet, `jobs` at a time, with a progress bar on a terminal. Returns how many
/// failed.
std::size_t run_points(const SweepPlan& plan, unsigned jobs);
/// Runs point `index` (what one job of --emit-jobs does). Returns whether it succeeded.
bool run_point(const SweepPlan& plan, std::size_t index);

}  // namespace warpsim::cli
