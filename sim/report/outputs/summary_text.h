#pragma once
/// @brief `warpsim inspect` without --json: the summary as a short report for people.

#include <string>

#include "analysis/trace_summary.h"

namespace warpsim::report {

std::string summary_to_text(const TraceSummary& summary);

/// "1.234 ms", "56.7 us", "890 ns": a duration at a readable scale.
std::string format_duration(std::uint64_t ns);
/// "16.0 MiB", "512 B": a size at a readable scale.
std::string format_bytes(std::uint64_t bytes);

}  // namespace warpsim::report
