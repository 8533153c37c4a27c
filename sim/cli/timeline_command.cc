#include "timeline_command.h"

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "outputs/progress_line.h"
#include "outputs/timeline_export.h"

namespace warpsim::cli {
namespace {

struct TimelineCommandOptions {
  std::vector<std::string> traces;
  std::string output;
  bool common_clock = false;
  std::string format = "auto";
};

void run_timeline(const TimelineCommandOptions& options) {
  std::vector<report::TimelineSource> sources;
  for (const std::string& trace : options.traces) {
    const std::filesystem::path path(trace);
    sources.push_back({path.filename().string(), path});
  }
  report::ProgressLine progress(std::cerr, report::stderr_is_a_terminal());
  report::TimelineOptions timeline;
  timeline.common_clock = options.common_clock;
  timeline.format = report::timeline_format_of(options.format, options.output);
  timeline.progress = [&progress](std::uint64_t slices) { progress.update("timeline", "slices", slices, 0); };
  const report::TimelineResult result = report::write_timeline_file(sources, options.output, timeline);
  progress.clear();
  for (const std::string& warning : result.warnings) std::cerr << "warning: " << warning << '\n';
  std::cout << options.output << ": " << result.events << " events";
  if (result.flows > 0) std::cout << " and " << result.flows << " flow arrows";
  std::cout << " from " << sources.size() << " trace" << (sources.size() == 1 ? "" : "s")
            << " (open in ui.perfetto.dev or chrome://tracing)\n";
}

}  // namespace

void add_timeline_format_option(CLI::App& command, std::string& format) {
  const std::vector<std::string> names(std::begin(report::kTimelineFormatNames),
                                       std::end(report::kTimelineFormatNames));
  command.add_option("--timeline-format", format, report::kTimelineFormatHelp)->check(CLI::IsMember(names));
}

void add_timeline_command(CLI::App& app) {
  auto options = std::make_shared<TimelineCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "timeline", "Export traces as one timeline, side by side (trace-event JSON or Perfetto protobuf)");
  command->add_option("traces", options->traces, "Trace files (.wstrace)")->required();
  command->add_option("-o,--output", options->output, "Timeline to write (.json, or .pftrace for Perfetto's format)")
      ->required();
  add_timeline_format_option(*command, options->format);
  command->add_flag("--common-clock", options->common_clock,
                    "Keep the traces' own clocks relative to their earliest start (default: each starts at 0)");
  command->callback([options] { run_timeline(*options); });
}

}  // namespace warpsim::cli
