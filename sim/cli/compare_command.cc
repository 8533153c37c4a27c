#include "compare_command.h"

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "analysis/compare.h"
#include "outputs/compare_json.h"
#include "outputs/compare_text.h"
#include "outputs/printable.h"
#include "outputs/timeline_export.h"
#include "timeline_command.h"

namespace warpsim::cli {
namespace {

struct CompareOptions {
  std::string a;
  std::string b;
  bool json = false;
  std::size_t top = 15;
  std::string timeline;
  std::string timeline_format = "auto";
};

void write_side_by_side(const CompareOptions& options) {
  const std::filesystem::path a(options.a);
  const std::filesystem::path b(options.b);
  // Both traces keep their own start at 0: a simulation need not share the recording's clock.
  report::TimelineOptions timeline;
  timeline.format = report::timeline_format_of(options.timeline_format, options.timeline);
  report::write_timeline_file({{"A: " + a.filename().string(), a}, {"B: " + b.filename().string(), b}},
                              options.timeline, timeline);
}

void run_compare(const CompareOptions& options) {
  const report::Comparison comparison = report::compare_traces(options.a, options.b);
  if (!options.timeline.empty()) write_side_by_side(options);
  if (options.json) {
    std::cout << report::json_text(report::comparison_to_json(comparison), 2) << '\n';
  } else {
    std::cout << report::comparison_to_text(comparison, options.top);
    if (!options.timeline.empty()) std::cout << "timeline     " << options.timeline << '\n';
  }
  for (const std::string& warning : comparison.warnings) std::cerr << "warning: " << warning << '\n';
}

}  // namespace

void add_compare_command(CLI::App& app) {
  auto options = std::make_shared<CompareOptions>();
  CLI::App* command = app.add_subcommand(
      "compare", "Compare the kernel times of two traces of one program (A: reference, B: e.g. a simulation)");
  command->add_option("a", options->a, "Reference trace (usually the recording)")->required();
  command->add_option("b", options->b, "Trace to compare with it (usually the simulation)")->required();
  command->add_flag("--json", options->json, "Print one JSON object (keys: docs/schemas/compare.schema.json)");
  command->add_option("--top", options->top, "How many kernel names to list by A time")->check(CLI::PositiveNumber);
  command->add_option("--timeline", options->timeline,
                      "Also write both traces as one timeline (.json; .pftrace: Perfetto protobuf)");
  add_timeline_format_option(*command, options->timeline_format);
  command->callback([options] { run_compare(*options); });
}

}  // namespace warpsim::cli
