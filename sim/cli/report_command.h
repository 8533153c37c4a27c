#pragma once
#include <CLI/CLI.hpp>

namespace warpsim::cli {

/// `warpsim report A [B] -o REPORT.html`: one self-contained HTML page of a trace, or of a recording (A) and its
/// simulation (B) side by side: timelines, predicted against measured, the error histogram, the kernel table with
/// what bounded each kernel, link traffic, the platform and overrides.
void add_report_command(CLI::App& app);

}  // namespace warpsim::cli
