#pragma once
/// @brief `warpsim compare --json`: one object. Keys documented in docs/compare.md and docs/schemas/compare.schema.json; keep them
/// stable, add new ones rather than renaming.

#include <nlohmann/json.hpp>

#include "analysis/compare.h"

namespace warpsim::report {

nlohmann::json comparison_to_json(const Comparison& comparison);

}  // namespace warpsim::report
