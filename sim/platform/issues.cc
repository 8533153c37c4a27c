#include "issues.h"

#include <cmath>
#include <sstream>
#include <string_view>
#include <utility>

namespace warpsim::platform {

void IssueList::add(FieldPath field, std::string problem) { issues_.push_back({std::move(field), std::move(problem)}); }

namespace {

struct Range {
  double low;
  double high;
};

bool ends_with(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// What a value of its kind can physically be, well inside what the models' arithmetic and SimGrid represent (a link of
// 1e308 GB/s or 5e-324 GB/s, a latency of 1e-300 ns, 2^31 SMs abort SimGrid; a DRAM latency of 1e30 cycles overflows a
// kernel's nanoseconds): by the field's name, its unit suffix or, for the latency table, its message.
Range physical_range(const FieldPath& field) {
  if (field.steps.empty()) return {1e-9, 1e12};
  const std::string& name = field.steps.back().field;
  const bool in_latency_table =
      field.steps.size() >= 2 && field.steps[field.steps.size() - 2].field == "latency_cycles";
  if (in_latency_table) return {1e-3, 1e7};                                   // cycles: a thousandth to 5 ms at 2 GHz
  if (ends_with(name, "_gb_per_s")) return {1e-6, 1e7};                       // 1 KB/s to 10 PB/s
  if (ends_with(name, "_ns") || ends_with(name, "_us")) return {1e-6, 1e10};  // up to 10 s (or 10^4 s in us)
  if (ends_with(name, "_bytes")) return {1, 1e15};                            // up to a petabyte
  if (ends_with(name, "_mhz")) return {1, 1e5};                               // up to 100 GHz
  if (name == "sm_count") return {1, 1e5};
  return {1e-9, 1e12};
}

}  // namespace

void IssueList::positive(const FieldPath& field, double value) {
  if (!(std::isfinite(value) && value > 0)) {
    add(field, "must be > 0, is " + format_number(value));
    return;
  }
  within_physical_range(field, value);
}

void IssueList::non_negative(const FieldPath& field, double value) {
  if (!(std::isfinite(value) && value >= 0)) {
    add(field, "must be >= 0, is " + format_number(value));
    return;
  }
  if (value > 0) within_physical_range(field, value);
}

void IssueList::within_physical_range(const FieldPath& field, double value) {
  const Range range = physical_range(field);
  if (value < range.low || value > range.high) {
    add(field, "must be between " + format_number(range.low) + " and " + format_number(range.high) + ", is " +
                   format_number(value));
  }
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
