#pragma once
// A sweep's results as one CSV: a row per point, its values and what its `simulate --json` said, or why it has no
// result (the last error its log holds).
#include <cstddef>
#include <filesystem>

#include "sweep_plan.h"

namespace warpsim::cli {

/// Writes the CSV whole or not at all. Returns how many points have no result.
std::size_t write_sweep_csv(const SweepPlan& plan, const std::filesystem::path& path);

}  // namespace warpsim::cli
