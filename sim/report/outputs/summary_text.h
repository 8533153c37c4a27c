#pragma once
/// @brief `warpsim inspect` without --json: the summary as a short report for people.

#include <string>

#include "analysis/trace_summary.h"

namespace warpsim::report {

std::string summary_to_text(const TraceSummary& summary);

}  // namespace warpsim::report
