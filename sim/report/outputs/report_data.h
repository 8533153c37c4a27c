#pragma once
/// @brief Everything `warpsim report` shows, as one JSON object the page's script draws from: the traces and the
/// platform, the comparison's numbers, one row per kernel (shape, measured, predicted, error, what bounded it), each
/// trace's GPU operations on their stream tracks, and each trace's link traffic over time. Keys are read by
/// report_page/report.js; keep the two in step.
///
/// With one trace the kernels have its times alone (no comparison, no error). Large traces are capped (kernels: the
/// longest by A's time; timeline: the first operations) and the page says how many are shown.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace warpsim::report {

struct ReportInputs {
  std::filesystem::path a;                ///< the reference, usually the recording
  std::optional<std::filesystem::path> b;  ///< usually its simulation (warpsim simulate -o)
  std::size_t max_kernels = 20'000;       ///< table rows and scatter points
  std::size_t max_slices = 100'000;       ///< timeline operations per trace
  std::size_t link_bins = 240;            ///< time bins of the link traffic plots
};

struct ReportData {
  nlohmann::json page;                ///< what the page draws
  std::vector<std::string> warnings;  ///< truncated traces, capped parts: said on the page and by the command
};

/// Reads the traces (each a few times, streaming) and assembles the page's data. Throws TraceError on bad input,
/// KernelMismatch when A and B launched different kernels, std::runtime_error when a trace has no kernel times.
ReportData report_data(const ReportInputs& inputs);

}  // namespace warpsim::report
