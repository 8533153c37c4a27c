#include "sweep_results.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <string>

#include "atomic_output.h"
#include "outputs/printable.h"

namespace warpsim::cli {
namespace {

// The last "error: ..." line a failed point's simulate printed.
std::string point_error(const SweepPlan& plan, std::size_t index) {
  std::ifstream log(plan.log_file(index));
  if (!log) return "not run";
  std::string line, error = "failed";
  while (std::getline(log, line))
    if (line.starts_with("error: ")) error = line.substr(7);
  return error;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

report::SweepPoint point_result(const SweepPlan& plan, std::size_t index) {
  report::SweepPoint point;
  for (const auto& [key, value] : plan.point(index)) point.values.push_back(value);
  std::ifstream result(plan.result_file(index));
  const nlohmann::json json = result ? nlohmann::json::parse(result, nullptr, false) : nlohmann::json();
  if (json.is_object() && json.contains("kernel_time_s")) {
    point.kernels = json["kernels"].get<std::uint64_t>();
    point.kernels_without_counters = json["kernels_without_counters"].get<std::uint64_t>();
    point.kernel_time_s = json["kernel_time_s"]["simulated"].get<double>();
    point.span_s = json["span_s"].get<double>();
  } else {
    point.error = report::printable(point_error(plan, index));
  }
  return point;
}

}  // namespace

report::SweepSummary sweep_results(const SweepPlan& plan) {
  report::SweepSummary results{plan.trace, plan.platform, plan.model, {}, {}};
  for (const SweepAxis& axis : plan.axes) results.axes.push_back(axis.key);
  for (std::size_t i = 0; i < plan.point_count(); ++i) results.points.push_back(point_result(plan, i));
  return results;
}

void write_sweep_csv(const report::SweepSummary& results, const std::filesystem::path& path) {
  AtomicOutputFile csv(path);
  std::ostream& out = csv.stream();
  out << "point";
  for (const std::string& axis : results.axes) out << ',' << csv_field(axis);
  out << ",kernels,kernels_without_counters,kernel_time_s,span_s,error\n";
  for (std::size_t i = 0; i < results.points.size(); ++i) {
    const report::SweepPoint& point = results.points[i];
    out << i;
    for (const std::string& value : point.values) out << ',' << csv_field(value);
    if (point.span_s && point.kernel_time_s) {
      out << fmt::format(",{},{},{:.9g},{:.9g},\n", point.kernels, point.kernels_without_counters, *point.kernel_time_s,
                         *point.span_s);
    } else {
      out << ",,,,," << csv_field(point.error) << '\n';
    }
  }
  csv.commit();
}

std::size_t missing_points(const report::SweepSummary& results) {
  return static_cast<std::size_t>(std::count_if(results.points.begin(), results.points.end(),
                                                [](const report::SweepPoint& p) { return !p.span_s.has_value(); }));
}

}  // namespace warpsim::cli
