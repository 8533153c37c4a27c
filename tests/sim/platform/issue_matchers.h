#pragma once
// Test helpers: whether a list of validation issues names a field.
#include <algorithm>
#include <string>
#include <vector>

#include "issues.h"

namespace warpsim::platform::testing {

/// True when some issue is about `field` ("sm.max_warps", "gpus[1].attach").
inline bool names_field(const std::vector<Issue>& issues, const std::string& field) {
  return std::any_of(issues.begin(), issues.end(),
                     [&](const Issue& issue) { return issue.field.to_string() == field; });
}

}  // namespace warpsim::platform::testing
