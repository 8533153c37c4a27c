#pragma once
/// @brief `warpsim sweep`'s page, DIR/sweep.html beside DIR/sweep.csv: the simulated span and kernel time at every
/// point, as lines over one axis, a heat map over two (each further axis a panel per value combination), and a
/// sortable table. Self-contained like the report page (report_page/sweep.js, style shared with report.css).

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace warpsim::report {

struct SweepPoint {
  std::vector<std::string> values;  ///< one per axis, as given to --set
  std::optional<double> kernel_time_s;
  std::optional<double> span_s;
  std::uint64_t kernels = 0;
  std::uint64_t kernels_without_counters = 0;
  std::string error;  ///< why the point has no result; empty when it has one
};

struct SweepSummary {
  std::string trace;
  std::string platform;
  std::string model;
  std::vector<std::string> axes;  ///< the --set keys, the last varying fastest over the points
  std::vector<SweepPoint> points;
};

/// The page with `sweep` in it.
std::string sweep_html(const SweepSummary& sweep);

/// Writes the page whole or not at all; throws OutputError when it cannot.
void write_sweep_html(const SweepSummary& sweep, const std::filesystem::path& path);

}  // namespace warpsim::report
