#pragma once
/// @brief `warpsim compare` without --json: a per-kernel-name table and the totals, for people.
///
/// Traces hold thousands of launches; the text groups them by kernel name (the JSON has every kernel).

#include <cstddef>
#include <string>

#include "analysis/compare.h"

namespace warpsim::report {

/// The report, listing the `top` kernel names with the longest A time.
std::string comparison_to_text(const Comparison& comparison, std::size_t top = 15);

}  // namespace warpsim::report
