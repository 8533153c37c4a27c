#pragma once
/// @brief The report page's parts, compiled in from report_page/ (cmake/embed_report_page.cmake): the HTML with its
/// placeholders, the style and the script.

namespace warpsim::report {

extern const char kReportPageHTML[];  ///< holds /*@WARPSIM_STYLE@*/, @WARPSIM_DATA@ and /*@WARPSIM_SCRIPT@*/
extern const char kReportPageCSS[];
extern const char kReportPageJS[];

}  // namespace warpsim::report
