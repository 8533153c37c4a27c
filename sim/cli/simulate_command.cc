#include "simulate_command.h"

#include <fmt/format.h>

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/demangle.h"
#include "atomic_output.h"
#include "memoized_model.h"
#include "outputs/kernels_csv.h"
#include "outputs/printable.h"
#include "outputs/progress_line.h"
#include "outputs/timeline_export.h"
#include "platform.h"
#include "registry.h"
#include "simulate_summary.h"
#include "simulate_timeline.h"
#include "simulation.h"
#include "timeline_command.h"
#include "trace_writer.h"

namespace warpsim::cli {
namespace {

struct SimulateOptions {
  std::string trace;
  std::string platform;
  std::string model{models::kDefaultModel};
  std::vector<std::string> overrides;
  bool reuse_kernel_times = false;
  bool allow_estimates = false;
  bool json = false;
  double host_scale = 1;
  std::string output;
  std::string timeline;
  std::string timeline_format = "auto";
  std::string csv;
};

// Before anything is read or written: no output may be an input (the trace, a platform file) or another output.
void refuse_overwriting_inputs(const SimulateOptions& options) {
  std::vector<std::filesystem::path> outputs;
  for (const std::string* output : {&options.output, &options.timeline, &options.csv}) {
    if (!output->empty()) outputs.emplace_back(*output);
  }
  refuse_outputs_over_inputs(outputs, {options.trace, options.platform});
}

double peak_memory_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux reports KiB
}

// What the timeline calls the simulation: the -o trace, or the recording and the platform when the simulated trace is
// only the command's scratch file (its name means nothing to the user).
std::string simulated_label(const SimulateOptions& options) {
  if (!options.output.empty()) return std::filesystem::path(options.output).filename().string();
  return std::filesystem::path(options.trace).filename().string() + " on " +
         std::filesystem::path(options.platform).filename().string();
}

// The timeline puts the recording and its simulation side by side, each starting at 0; the recording's half is written
// during the replay (SimulateTimeline).
std::unique_ptr<SimulateTimeline> start_timeline(const SimulateOptions& options, report::ProgressLine& progress) {
  if (options.timeline.empty()) return nullptr;
  report::TimelineOptions timeline;
  timeline.format = report::timeline_format_of(options.timeline_format, options.timeline);
  const report::TimelineSource recorded{"recorded: " + std::filesystem::path(options.trace).filename().string(),
                                        options.trace};
  return std::make_unique<SimulateTimeline>(options.timeline, timeline, recorded, progress);
}

// The CSV is written on a second thread while the timeline's simulation half is: each reads the simulated trace on
// its own. Each output is whole or absent; a failure of either fails the command.
void write_exports(const SimulateOptions& options, const std::string& simulated, SimulateTimeline* timeline) {
  std::future<void> csv_written;
  if (!options.csv.empty()) {
    csv_written = std::async(std::launch::async, [&options, &simulated] {
      AtomicOutputFile csv(options.csv);  // whole or not at all
      report::write_kernels_csv(simulated, csv.stream());
      csv.commit();
    });
  }
  if (timeline) timeline->finish({"simulated: " + simulated_label(options), simulated});
  if (csv_written.valid()) csv_written.get();  // rethrows the CSV's failure
}

// Where the simulated trace goes: -o, or, when only the timeline or CSV was asked for, a hidden scratch trace beside
// that output (the user's directory, not a shared one such as /tmp), removed when done.
std::string simulated_trace_path(const SimulateOptions& options) {
  if (!options.output.empty()) return options.output;
  const std::string& export_path = options.timeline.empty() ? options.csv : options.timeline;
  if (export_path.empty()) return "";
  const std::filesystem::path beside(export_path);
  return (beside.parent_path() / fmt::format(".{}.simulated-{}.wstrace", beside.filename().string(), ::getpid()))
      .string();
}

// Removes the scratch trace however the command ends.
struct ScratchTrace {
  std::string path;
  ~ScratchTrace() {
    std::error_code ignored;
    if (!path.empty()) std::filesystem::remove(path, ignored);
  }
};

void run_simulate(const SimulateOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  refuse_overwriting_inputs(options);
  const platform::Platform platform = platform::load_platform(options.platform, options.overrides);
  std::unique_ptr<models::KernelModel> model;
  if (!options.reuse_kernel_times) model = std::make_unique<models::MemoizedModel>(models::make_model(options.model));
  replay::TraceFileSource source(options.trace);
  replay::SimulationOptions simulation;
  simulation.reuse_recorded_kernel_times = options.reuse_kernel_times;
  simulation.host_scale = options.host_scale;
  simulation.allow_estimates = options.allow_estimates;
  report::ProgressLine progress(std::cerr, report::stderr_is_a_terminal());
  simulation.progress = [&progress](std::string_view phase, std::string_view what, std::uint64_t done,
                                    std::uint64_t total) { progress.update(phase, what, done, total); };
  const std::string simulated = simulated_trace_path(options);
  const ScratchTrace scratch{simulated != options.output ? simulated : ""};
  const std::unique_ptr<SimulateTimeline> timeline = start_timeline(options, progress);
  // Whole or not at all: the writer writes beside the target and renames on close.
  std::optional<TraceWriter> writer;
  replay::SimulationOutput output;
  if (!simulated.empty()) {
    output.header = [&](const TraceHeader& header) { writer.emplace(simulated, header); };
    output.event = [&](const Event& event) { writer->write(event); };
  }
  const replay::SimulationResult result = replay::simulate(source, platform, model.get(), simulation, output);
  if (writer) writer->close();
  progress.clear();
  SimulateRun run{options.trace, options.host_scale, options.output, options.timeline, options.csv};
  print_warnings(run, result);
  if (!options.json) print_text_summary(run, result);
  write_exports(options, simulated, timeline.get());
  // The whole command: reading, predicting, replaying and writing (scripts/bench-replay.sh reads the "took" line).
  run.took_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  run.peak_memory_mib = peak_memory_mib();
  if (options.json) {
    std::cout << report::json_text(summary_json(run, result), 2) << '\n';
    return;
  }
  for (const std::string* written : {&options.output, &options.csv}) {
    if (!written->empty()) std::cout << "  wrote " << *written << '\n';
  }
  if (!options.timeline.empty()) std::cout << "  wrote " << options.timeline << " (open it in ui.perfetto.dev)\n";
  std::cout << fmt::format("  took {:.3f} s, peak memory {:.1f} MiB\n", run.took_s, run.peak_memory_mib);
}

std::string model_help() {
  std::string help = "SM timing model:";
  for (const auto& info : models::known_models()) help += " " + info.name + " (" + info.description + ");";
  return help;
}

}  // namespace

void add_simulate_command(CLI::App& app) {
  auto options = std::make_shared<SimulateOptions>();
  CLI::App* command = app.add_subcommand("simulate", "Replay a trace on a platform (a node file or a shipped node name)");
  command->add_option("trace", options->trace, "Recorded trace (.wstrace)")->required()->check(CLI::ExistingFile);
  command->add_option("-p,--platform", options->platform, "Node: a file, or a name from platforms/nodes/ (e.g. h100-pcie)")
      ->required();
  command->add_option("-m,--model", options->model, model_help())->capture_default_str();
  command->add_option("--set", options->overrides, "Override a platform field, e.g. gpu.memory.dram_bandwidth_gb_per_s=8000");
  command->add_flag("--reuse-kernel-times", options->reuse_kernel_times,
                    "Topology study: kernels keep their recorded durations; only copies and contention are simulated");
  command->add_flag("--allow-estimates", options->allow_estimates,
                    "Simulate a trace whose kernels all lack counters (a timeline-only recording): kernel times are "
                    "then guesses from the launch configuration");
  command->add_option("--host-scale", options->host_scale,
                      "What if the CPU were faster (< 1) or slower (> 1): recorded host time is multiplied by this")
      ->check(CLI::PositiveNumber)->capture_default_str();
  command->add_flag("--json", options->json,
                    "Print one JSON object instead of the text summary (keys: docs/schemas/simulate.schema.json)");
  command->add_option("-o,--output", options->output, "Write the simulated trace (same schema) here");
  command->add_option("--timeline", options->timeline,
                      "Write a timeline, recording and simulation side by side (.json; .pftrace: Perfetto protobuf)");
  add_timeline_format_option(*command, options->timeline_format);
  command->add_option("--csv", options->csv, "Write one CSV row per simulated kernel");
  command->callback([options] { run_simulate(*options); });
}

}  // namespace warpsim::cli
