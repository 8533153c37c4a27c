#include "inspect_command.h"

#include <iostream>
#include <memory>
#include <string>

#include "analysis/trace_summary.h"
#include "outputs/printable.h"
#include "outputs/proto_json.h"
#include "outputs/summary_json.h"
#include "outputs/summary_text.h"
#include "trace_error.h"
#include "trace_reader.h"

namespace warpsim::cli {
namespace {

struct InspectOptions {
  std::string trace;
  bool json = false;
  bool events = false;
  bool verify = false;
  std::size_t top = 10;
};

// One JSON object per line per event, every field of the schema that is set: for scripts and diffing.
void print_events(TraceReader& reader) {
  Event event;
  while (reader.next(event)) std::cout << report::json_text(report::proto_to_json(event)) << '\n';
  if (reader.truncation()) std::cerr << "warning: " << reader.truncation_warning() << '\n';
}

// Reads every record: the reader checks each one's checksum, framing and contents, and the trailer's event count.
// Only a trace written whole passes: a truncated one is an error here, not a warning.
void verify(TraceReader& reader) {
  Event event;
  while (reader.next(event)) {
  }
  if (const auto& truncation = reader.truncation())
    throw TraceError(reader.name(), truncation->offset,
                     "truncated trace: " + truncation->reason + "; " + std::to_string(reader.events_read()) +
                         " complete events before it");
  std::cout << report::printable(reader.name()) << ": verified: header and " << reader.events_read()
            << " events well-formed, closed by its trailer"
            << (reader.has_checksums() ? ", every record's checksum matches" : "") << '\n';
  if (!reader.has_checksums())
    std::cerr << "note: " << report::printable(reader.name()) << ": format " << reader.format_version()
              << " carries no record checksums, so a byte changed inside a record cannot be detected\n";
}

void run_inspect(const InspectOptions& options) {
  TraceReader reader(options.trace);
  if (options.verify) {
    verify(reader);
    return;
  }
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
  command->add_flag("--json", options->json, "Print one JSON object (keys documented in docs/trace-format.md)");
  auto* events =
      command->add_flag("--events", options->events, "Print every event as one JSON object per line instead");
  command
      ->add_flag("--verify", options->verify,
                 "Check the whole trace instead (every record's checksum, framing and contents, the trailer): one "
                 "line and exit 0 only if it is whole")
      ->excludes(events);
  command->add_option("--top", options->top, "How many kernels to list by total time")->check(CLI::PositiveNumber);
  command->callback([options] { run_inspect(*options); });
}

}  // namespace warpsim::cli
