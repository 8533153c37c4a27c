#pragma once
// What validation finds wrong: a field and why. Callers turn an Issue into a one-line message with a file line
// (TextFile::error_at) or with the --set override that caused it.
#include <string>
#include <vector>

#include "field_path.h"

namespace warpsim::platform {

struct Issue {
  FieldPath field;
  std::string problem;
};

/// Collects issues in the order the checks run, with the common numeric rules spelled once.
class IssueList {
 public:
  void add(FieldPath field, std::string problem);
  /// value > 0, and within the physical range of its kind (issues.cc: by the field's unit suffix, e.g. _gb_per_s).
  void positive(const FieldPath& field, double value);
  /// value >= 0 (0: unmeasured), and where not 0 within the physical range of its kind.
  void non_negative(const FieldPath& field, double value);
  /// low < value <= high.
  void in_half_open_range(const FieldPath& field, double value, double low, double high);

  [[nodiscard]] const std::vector<Issue>& issues() const { return issues_; }

 private:
  void within_physical_range(const FieldPath& field, double value);

  std::vector<Issue> issues_;
};

/// A number as a person would write it: 0, -5, 0.25 (no trailing zeros).
std::string format_number(double value);

}  // namespace warpsim::platform
