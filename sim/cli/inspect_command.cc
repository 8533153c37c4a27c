#include "inspect_command.h"

#include <iostream>
#include <memory>
#include <string>

#include "analysis/trace_summary.h"
#include "outputs/printable.h"
#include "outputs/proto_json.h"
#include "outputs/summary_json.h"
#include "outputs/summary_text.h"
#include "trace_reader.h"

namespace warpsim::cli {
namespace {

struct InspectOptions {
  std::string trace;
  bool json = false;
  bool events = false;
  std::size_t top = 10;
};

// One JSON object per line per event, every field of the schema that is set: for scripts and diffing.
void print_events(TraceReader& reader) {
  Event event;
  while (reader.next(event)) std::cout << report::json_text(report::proto_to_json(event)) << '\n';
  if (reader.truncation()) std::cerr << "warning: " << reader.truncation_warning() << '\n';
}

void run_inspect(const InspectOptions& options) {
  TraceReader reader(options.trace);
  if (options.events) {
    print_events(reader);
    return;
  }
  const report::TraceSummary summary = report::summarize(reader, options.top);
  if (options.json)
    std::cout << report::json_text(report::summary_to_json(summary), 2) << '\n';
  else
    std::cout << report::summary_to_text(summary);
  // A truncated trace is summarized (every complete event counts) and reported, but is not a failure.
  if (!summary.truncation_warning.empty()) std::cerr << "warning: " << summary.truncation_warning << '\n';
}

}  // namespace

void add_inspect_command(CLI::App& app) {
  auto options = std::make_shared<InspectOptions>();
  CLI::App* command = app.add_subcommand("inspect", "Summarize a trace: devices, links, kernels, copies");
  command->add_option("trace", options->trace, "Trace file (.wstrace)")->required();
  command->add_flag("--json", options->json, "Print one JSON object (keys documented in README.md)");
  command->add_flag("--events", options->events, "Print every event as one JSON object per line instead");
  command->add_option("--top", options->top, "How many kernels to list by total time")->check(CLI::PositiveNumber);
  command->callback([options] { run_inspect(*options); });
}

}  // namespace warpsim::cli
