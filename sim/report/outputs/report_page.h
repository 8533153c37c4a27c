#pragma once
/// @brief The report pages' parts, compiled in from report_page/ (cmake/embed_report_page.cmake): the HTML with its
/// placeholders, the style they share and the scripts, for `warpsim report` and for `warpsim sweep`'s page.

namespace warpsim::report {

extern const char kPagePageHtml[];   ///< every page's shell: holds the placeholders fill_page (report_html.h) fills
extern const char kPageReportCss[];  ///< the style of every page
extern const char kPageErrorsJs[];   ///< first in every page's head: keeps script and console errors on the page
extern const char kPageCommonJs[];   ///< helpers, before each page's own script
extern const char kPageReportMainHtml[];  ///< `warpsim report`'s sections
extern const char kPageReportJs[];
extern const char kPageSweepMainHtml[];  ///< `warpsim sweep`'s sections
extern const char kPageSweepJs[];

}  // namespace warpsim::report
