#include "outputs/compare_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <utility>

#include "analysis/kernel_name.h"
#include "outputs/printable.h"
#include "outputs/readable_units.h"

namespace warpsim::report {
namespace {

constexpr std::size_t kNameWidth = 48;

template <typename... Args>
void append(std::string& out, fmt::format_string<Args...> format, Args&&... args) {
  fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

std::string percent(const std::optional<double>& value, bool sign) {
  if (!value) return "-";
  return sign ? fmt::format("{:+.1f}%", *value) : fmt::format("{:.1f}%", *value);
}

// Long template names would push the numbers off screen; the JSON keeps them whole.
std::string fit(std::string name) {
  if (name.size() > kNameWidth) name = name.substr(0, kNameWidth - 3) + "...";
  return name;
}

double ratio(const PerTrace& values) {
  return values.a == 0 ? 0.0 : static_cast<double>(values.b) / static_cast<double>(values.a);
}

// "+2.0 us", "-350 ns", "0 ns": a difference at a readable scale, with its sign.
std::string signed_duration(std::int64_t ns) {
  if (ns == 0) return "0 ns";
  const std::uint64_t magnitude = ns < 0 ? 0 - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
  return (ns < 0 ? "-" : "+") + format_duration(magnitude);
}

// The headline: how far B's whole run is from A's, before any detail.
void append_span(std::string& out, const Comparison& c) {
  append(out, "span         A {}  B {}  B/A {:.3f}  error {}\n", format_duration(c.span_ns.a),
         format_duration(c.span_ns.b), ratio(c.span_ns), percent(c.span_error_pct, true));
}

// Where the difference of the spans comes from: the rows' B - A add up to it.
void append_attribution(std::string& out, const Comparison& c) {
  append(out, "\n{:<16}  {:>12}  {:>12}  {:>12}\n", "span by activity", "A", "B", "B - A");
  auto row = [&out](const std::string& name, std::uint64_t a_ns, std::uint64_t b_ns) {
    const std::int64_t diff = static_cast<std::int64_t>(b_ns) - static_cast<std::int64_t>(a_ns);
    append(out, "  {:<14}  {:>12}  {:>12}  {:>12}\n", name, format_duration(a_ns), format_duration(b_ns),
           signed_duration(diff));
  };
  for (const CategoryDiff& category : c.attribution) row(category.category, category.a_ns, category.b_ns);
  row("= span", c.span_ns.a, c.span_ns.b);
  if (c.api_calls.a == 0 && c.api_calls.b == 0)
    out += "(no API calls in either trace: api and host are 0, time between GPU operations counts as idle)\n";
  else if (c.api_calls.a == 0 || c.api_calls.b == 0)
    append(out, "({} has no API calls: its api and host are 0, time between its GPU operations counts as idle)\n",
           c.api_calls.a == 0 ? "A" : "B");
  out += '\n';
}

void append_origin(std::string& out, const char* which, const TraceOrigin& origin) {
  append(out, "{}  {}  ({} trace", which, printable(origin.path), origin.mode);
  if (origin.platform) append(out, ", platform {}", *origin.platform);
  if (origin.model) append(out, ", model {}", *origin.model);
  if (!origin.devices.empty()) append(out, "; {}", fmt::join(origin.devices, ", "));
  out += ")\n";
}

void append_names(std::string& out, const Comparison& c, std::size_t top) {
  append(out, "\n{:<{}}  {:>8}  {:>12}  {:>12}  {:>8}  {:>8}\n", "kernel", kNameWidth, "launches", "A total", "B total",
         "sum err", "MAPE");
  const std::size_t shown = std::min(top, c.by_name.size());
  for (std::size_t i = 0; i < shown; ++i) {
    const NameError& n = c.by_name[i];
    append(out, "{:<{}}  {:>8}  {:>12}  {:>12}  {:>8}  {:>8}\n", fit(printable(short_kernel_name(n.name))), kNameWidth,
           n.launches, format_duration(n.a_ns), format_duration(n.b_ns), percent(n.sum_error_pct, true),
           percent(n.mape_pct, false));
  }
  if (shown < c.by_name.size())
    append(out, "({} more kernel names; --top N or --json for all)\n", c.by_name.size() - shown);
}

void append_totals(std::string& out, const Comparison& c) {
  append(out, "\nmatched      {} kernels", c.matched);
  if (c.skipped > 0) append(out, " ({} skipped: 0 ns in A)", c.skipped);
  append(out, "\nMAPE         {:.2f}%  (median {:.2f}%)\n", c.mape_pct, c.median_ape_pct);
  append(out, "kernel time  A {}  B {}  B/A {:.3f}\n", format_duration(c.kernel_time_ns.a),
         format_duration(c.kernel_time_ns.b), ratio(c.kernel_time_ns));
}

}  // namespace

std::string comparison_to_text(const Comparison& comparison, std::size_t top) {
  std::string out;
  append_span(out, comparison);
  append_attribution(out, comparison);
  append_origin(out, "A", comparison.a);
  append_origin(out, "B", comparison.b);
  append_names(out, comparison, top);
  append_totals(out, comparison);
  return out;
}

}  // namespace warpsim::report
