#include "report_command.h"

#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "outputs/report_html.h"

namespace warpsim::cli {
namespace {

struct ReportOptions {
  std::string a;
  std::string b;
  std::string output;
  report::ReportInputs limits;
};

void run_report(const ReportOptions& options) {
  report::ReportInputs inputs = options.limits;
  inputs.a = options.a;
  if (!options.b.empty()) inputs.b = options.b;
  const report::ReportData data = report::write_report_file(inputs, options.output);
  for (const std::string& warning : data.warnings) std::cerr << "note: " << warning << '\n';
  std::cout << "report       " << options.output << '\n';
}

}  // namespace

void add_report_command(CLI::App& app) {
  auto options = std::make_shared<ReportOptions>();
  CLI::App* command = app.add_subcommand(
      "report", "Write one self-contained HTML page of a trace, or of a recording (A) and its simulation (B)");
  command->add_option("a", options->a, "Trace (the reference: usually the recording)")->required();
  command->add_option("b", options->b, "Trace to compare with it (usually its simulation: warpsim simulate -o)");
  command->add_option("-o,--output", options->output, "HTML page to write")->required();
  command->add_option("--max-kernels", options->limits.max_kernels,
                      "Kernel table rows and scatter points (the longest kernels by A time)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  command->add_option("--max-slices", options->limits.max_slices, "Timeline operations per trace (the first ones)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  command->callback([options] { run_report(*options); });
}

}  // namespace warpsim::cli
