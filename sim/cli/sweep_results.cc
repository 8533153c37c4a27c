#include "sweep_results.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

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

}  // namespace

// DIR/sweep.csv: one row per point, its values and what `simulate --json` said (or why it has no result).
// Returns how many points have no result.
std::size_t write_sweep_csv(const SweepPlan& plan, const std::filesystem::path& path) {
  AtomicOutputFile csv(path);
  std::ostream& out = csv.stream();
  out << "point";
  for (const SweepAxis& axis : plan.axes) out << ',' << csv_field(axis.key);
  out << ",kernels,kernels_without_counters,kernel_time_s,span_s,error\n";
  std::size_t missing = 0;
  for (std::size_t i = 0; i < plan.point_count(); ++i) {
    out << i;
    for (const auto& [key, value] : plan.point(i)) out << ',' << csv_field(value);
    std::ifstream result(plan.result_file(i));
    const nlohmann::json json = result ? nlohmann::json::parse(result, nullptr, false) : nlohmann::json();
    if (json.is_object() && json.contains("kernel_time_s")) {
      out << fmt::format(",{},{},{:.9g},{:.9g},\n", json["kernels"].get<std::uint64_t>(),
                         json["kernels_without_counters"].get<std::uint64_t>(),
                         json["kernel_time_s"]["simulated"].get<double>(), json["span_s"].get<double>());
    } else {
      ++missing;
      out << ",,,,," << csv_field(report::printable(point_error(plan, i))) << '\n';
    }
  }
  csv.commit();
  return missing;
}

}  // namespace warpsim::cli
