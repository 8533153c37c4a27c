#pragma once
// A sweep's results: a row per point, its values and what its `simulate --json` said, or why it has no result (the
// last error its log holds); written as DIR/sweep.csv and as the page DIR/sweep.html (report/outputs/sweep_html.h).
#include <cstddef>
#include <filesystem>

#include "outputs/sweep_html.h"
#include "sweep_plan.h"

namespace warpsim::cli {

/// Reads every point's result file (or log, for a point without result).
report::SweepSummary sweep_results(const SweepPlan& plan);

/// Writes the CSV whole or not at all.
void write_sweep_csv(const report::SweepSummary& results, const std::filesystem::path& path);

/// Points without a result.
std::size_t missing_points(const report::SweepSummary& results);

}  // namespace warpsim::cli
