#include "outputs/sweep_html.h"

#include <nlohmann/json.hpp>

#include "atomic_output.h"
#include "outputs/report_html.h"
#include "outputs/report_page.h"

namespace warpsim::report {
namespace {

nlohmann::json optional_number(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json sweep_json(const SweepSummary& sweep) {
  nlohmann::json points = nlohmann::json::array();
  for (const SweepPoint& p : sweep.points) {
    points.push_back({{"values", p.values},
                      {"kernel_time_s", optional_number(p.kernel_time_s)},
                      {"span_s", optional_number(p.span_s)},
                      {"kernels", p.kernels},
                      {"kernels_without_counters", p.kernels_without_counters},
                      {"error", p.error}});
  }
  return {{"trace", sweep.trace}, {"platform", sweep.platform}, {"model", sweep.model}, {"axes", sweep.axes},
          {"points", points}};
}

}  // namespace

std::string sweep_html(const SweepSummary& sweep) {
  return fill_page("sweep", kPageSweepMainHtml, kPageSweepJs, sweep_json(sweep));
}

void write_sweep_html(const SweepSummary& sweep, const std::filesystem::path& path) {
  const std::string page = sweep_html(sweep);
  AtomicOutputFile file(path);
  file.write(page.data(), page.size());
  file.commit();
}

}  // namespace warpsim::report
