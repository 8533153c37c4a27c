#pragma once
/// @brief `warpsim report`: one self-contained HTML page (style, script and data inside; nothing fetched) that draws
/// report_data's object: the traces and platform, the summary, both timelines per GPU stream, predicted against
/// measured per kernel (log-log, y = x), the error histogram, a sortable kernel table and link traffic over time.

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "outputs/report_data.h"

namespace warpsim::report {

/// The page with `data` in it.
std::string report_html(const nlohmann::json& data);

/// A page of report_page/: the shell (page.html) named `kind` ("report", "sweep"), with the error trap, the shared
/// style, the page's `main` sections, common.js and its `script`, and `data` put in its placeholders.
std::string fill_page(const char* kind, const char* main, const char* script, const nlohmann::json& data);

/// Assembles the data of `inputs` and writes the page to `path`, whole or not at all, never over an input. Throws
/// as report_data does, and OutputError when the page cannot be written.
ReportData write_report_file(const ReportInputs& inputs, const std::filesystem::path& path);

}  // namespace warpsim::report
