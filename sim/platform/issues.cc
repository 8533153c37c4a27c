#include "issues.h"

#include <cmath>
#include <sstream>
#include <utility>

namespace warpsim::platform {

void IssueList::add(FieldPath field, std::string problem) { issues_.push_back({std::move(field), std::move(problem)}); }

void IssueList::positive(const FieldPath& field, double value) {
  if (!(std::isfinite(value) && value > 0)) add(field, "must be > 0, is " + format_number(value));
}

void IssueList::non_negative(const FieldPath& field, double value) {
  if (!(std::isfinite(value) && value >= 0)) add(field, "must be >= 0, is " + format_number(value));
}

void IssueList::in_half_open_range(const FieldPath& field, double value, double low, double high) {
  if (!(value > low && value <= high)) {
    add(field, "must be in (" + format_number(low) + ", " + format_number(high) + "], is " + format_number(value));
  }
}

std::string format_number(double value) {
  std::ostringstream text;
  text.precision(12);
  text << value;
  return text.str();
}

}  // namespace warpsim::platform
