#pragma once
/// @brief `warpsim inspect --json`: one object per trace. Keys documented in docs/trace-format.md ("warpsim inspect");
/// keep them stable, add new ones rather than renaming.

#include <nlohmann/json.hpp>

#include "analysis/trace_summary.h"

namespace warpsim::report {

nlohmann::json summary_to_json(const TraceSummary& summary);

}  // namespace warpsim::report
