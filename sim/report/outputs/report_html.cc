#include "outputs/report_html.h"

#include <stdexcept>
#include <string_view>
#include <vector>

#include "atomic_output.h"
#include "outputs/report_page.h"

namespace warpsim::report {
namespace {

void replace_once(std::string& text, std::string_view placeholder, std::string_view by) {
  const std::size_t at = text.find(placeholder);
  if (at == std::string::npos) throw std::logic_error("report page lacks " + std::string(placeholder));
  text.replace(at, placeholder.size(), by);
}

// JSON inside a <script> element: "</" would end the element early (a kernel named "</script>"), so it is written
// "<\/", which JSON reads back the same.
std::string script_safe_json(const nlohmann::json& data) {
  std::string text = data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string safe;
  safe.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    safe += text[i];
    if (text[i] == '<' && i + 1 < text.size() && text[i + 1] == '/') safe += '\\';
  }
  return safe;
}

}  // namespace

std::string fill_page(const char* kind, const char* main, const char* script, const nlohmann::json& data) {
  std::string page = kPagePageHtml;
  // The data goes in last: it may hold the other placeholders' words.
  for (int i = 0; i < 3; ++i) replace_once(page, "@WARPSIM_KIND@", kind);  // comment, title, heading
  replace_once(page, "/*@WARPSIM_ERROR_TRAP@*/", kPageErrorsJs);
  replace_once(page, "/*@WARPSIM_STYLE@*/", kPageReportCss);
  replace_once(page, "<!--@WARPSIM_MAIN@-->", main);
  replace_once(page, "/*@WARPSIM_SCRIPT@*/", std::string(kPageCommonJs) + "\n" + script);
  replace_once(page, "@WARPSIM_DATA@", script_safe_json(data));
  return page;
}

std::string report_html(const nlohmann::json& data) {
  return fill_page("report", kPageReportMainHtml, kPageReportJs, data);
}

ReportData write_report_file(const ReportInputs& inputs, const std::filesystem::path& path) {
  std::vector<std::filesystem::path> sources{inputs.a};
  if (inputs.b) sources.push_back(*inputs.b);
  refuse_outputs_over_inputs({path}, sources);
  ReportData data = report_data(inputs);
  const std::string page = report_html(data.page);
  AtomicOutputFile file(path);
  file.write(page.data(), page.size());
  file.commit();
  return data;
}

}  // namespace warpsim::report
