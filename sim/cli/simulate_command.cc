#include "simulate_command.h"

#include <fmt/format.h>

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
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
#include "outputs/timeline_json.h"
#include "platform.h"
#include "registry.h"
#include "simulation.h"
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
  double host_scale = 1;
  std::string output;
  std::string timeline;
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

// The kernels predicted without counters, as users wrote them: "matmul_naive(float const*, ...), ...".
std::string estimated_names(const replay::SimulationResult& result) {
  std::vector<std::string> names;
  for (const std::string& name : result.estimated_kernel_names) names.push_back(report::demangle(name));
  return report::printable(fmt::format("{}", fmt::join(names, "; ")));
}

// Where the host's time comes from is part of every answer: say it.
void print_host_summary(const SimulateOptions& options, const replay::HostSummary& host) {
  if (!host.from_api_calls) {
    std::cerr << fmt::format("warning: {} has no API calls: host time is unknown, each operation is issued after the "
                             "platform's api_call_overhead_us (record a timeline trace with this warpsim to get the "
                             "host side)\n", options.trace);
    return;
  }
  std::cout << fmt::format("  host: {} thread(s), {} API calls ({} blocking); host work between and inside calls "
                           "taken from the recording{}\n", host.threads, host.api_calls, host.blocking_calls,
                           options.host_scale == 1 ? " (unchanged by the GPU)" : fmt::format(", times {}", options.host_scale));
  if (host.unattributed_events > 0) {
    std::cerr << fmt::format("warning: {} operations or waits have no recorded API call; they are issued at once, in "
                             "API order\n", host.unattributed_events);
  }
}

void print_summary(const SimulateOptions& options, const replay::SimulationResult& result) {
  const SimulationInfo& info = result.header.simulation();
  std::cout << fmt::format("simulated {} on {} with {}{}\n", options.trace, info.platform(), info.model(),
                           info.reuses_recorded_kernel_times() ? " (recorded kernel times reused: NOT predictive)" : "");
  std::cout << fmt::format("  kernels {}, counters borrowed {}, without counters {}\n", result.kernels,
                           result.counters_borrowed, result.kernels_without_counters);
  std::cout << fmt::format("  kernel time: simulated {:.3f} ms, recorded {:.3f} ms\n", result.simulated_kernel_s * 1e3,
                           result.recorded_kernel_s * 1e3);
  std::cout << fmt::format("  span (first start to last end), simulated: {:.3f} ms\n", result.span_s * 1e3);
  print_host_summary(options, result.host);
  if (result.kernels_without_counters > 0) {
    std::cerr << fmt::format(
        "warning: {} of {} kernels have no counters (e.g. {}): predicted from their launch "
        "configuration only (sim/models/README.md); record a counters run and `warpsim merge` it\n",
        result.kernels_without_counters, result.kernels, estimated_names(result));
  }
}

// The timeline puts the source trace and its simulation side by side, each starting at 0.
void write_exports(const SimulateOptions& options, const std::string& simulated, report::ProgressLine& progress) {
  if (!options.timeline.empty()) {
    const std::vector<report::TimelineSource> sources{
        {"recorded: " + std::filesystem::path(options.trace).filename().string(), options.trace},
        {"simulated: " + std::filesystem::path(simulated).filename().string(), simulated}};
    report::TimelineOptions timeline;
    timeline.progress = [&progress](std::uint64_t slices) { progress.update("timeline", "slices", slices, 0); };
    report::write_timeline_file(sources, options.timeline, timeline);
    progress.clear();
    std::cout << "  wrote " << options.timeline << " (open it in ui.perfetto.dev)\n";
  }
  if (!options.csv.empty()) {
    AtomicOutputFile csv(options.csv);  // whole or not at all
    report::write_kernels_csv(simulated, csv.stream());
    csv.commit();
    std::cout << "  wrote " << options.csv << '\n';
  }
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
  print_summary(options, result);
  if (!options.output.empty()) std::cout << "  wrote " << options.output << '\n';
  write_exports(options, simulated, progress);
  // The whole command: reading, predicting, replaying and writing (scripts/bench-replay.sh reads this line).
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cout << fmt::format("  took {:.3f} s, peak memory {:.1f} MiB\n", wall_s, peak_memory_mib());
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
  command->add_option("-o,--output", options->output, "Write the simulated trace (same schema) here");
  command->add_option("--timeline", options->timeline, "Write a Perfetto/Chrome JSON timeline: recording and simulation side by side");
  command->add_option("--csv", options->csv, "Write one CSV row per simulated kernel");
  command->callback([options] { run_simulate(*options); });
}

}  // namespace warpsim::cli
