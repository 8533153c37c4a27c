#include "record_command.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "atomic_output.h"
#include "child_process.h"
#include "trace_merge.h"

namespace warpsim::cli {
namespace {

struct RecordOptions {
  std::string mode = "timeline";
  std::string metrics = "core";
  std::string output = "warpsim-%p.wstrace";
  std::uint32_t flush_ms = 500;
  std::string capture_range = "none";
  std::string kernels;
  std::optional<std::uint64_t> launch_skip;
  std::optional<std::uint64_t> launch_count;
  std::optional<std::uint64_t> traffic_interval_ns;
  std::string tracer_library;
  bool all = false;
  std::vector<std::string> command;
};

// One pass of `record --all`: the mode, the counters group, and the name its trace gets beside the output.
struct Pass {
  const char* mode;
  const char* metrics;
  const char* suffix;
};
// Timeline first; the counters groups in the order merge takes them (cache last: its one-pass L2 and DRAM counts
// replace the core group's replayed ones, tracer/counters/counter_metrics.h), as scripts/merge-traces.sh does.
constexpr std::array<Pass, 5> kAllPasses = {{{"timeline", "core", "timeline"},
                                             {"counters", "core", "counters"},
                                             {"counters", "links", "links"},
                                             {"counters", "tensor", "tensor"},
                                             {"counters", "cache", "cache"}}};

// The tracer library: --tracer-lib, $WARPSIM_TRACER_LIB, else beside warpsim: in the same folder, in ../lib (an
// installed warpsim) or in ../tracer (the build tree: build/sim/warpsim, build/tracer/libwarpsim_tracer.so).
std::filesystem::path find_tracer_library(const std::string& chosen) {
  std::vector<std::filesystem::path> candidates;
  if (!chosen.empty()) candidates.emplace_back(chosen);
  else if (const char* env = std::getenv("WARPSIM_TRACER_LIB"); env && *env) candidates.emplace_back(env);
  else {
    const auto dir = own_executable().parent_path();
    for (const char* relative : {"libwarpsim_tracer.so", "../lib/libwarpsim_tracer.so", "../tracer/libwarpsim_tracer.so"})
      candidates.push_back(dir / relative);
  }
  for (const auto& path : candidates)
    if (std::filesystem::is_regular_file(path)) return std::filesystem::absolute(path);
  throw std::runtime_error("cannot find libwarpsim_tracer.so (looked at " + candidates.front().string() +
                           " and beside warpsim); was warpsim built with CUDA? Point --tracer-lib at it");
}

void set_env(const char* name, const std::string& value) { setenv(name, value.c_str(), 1); }

// In the child: the tracer's settings (tracer/tracer_config.h), then the application.
[[noreturn]] void exec_traced(const RecordOptions& o, const std::filesystem::path& library) {
  set_env("CUDA_INJECTION64_PATH", library.string());
  set_env("WARPSIM_TRACE_OUTPUT", std::filesystem::absolute(o.output).string());
  set_env("WARPSIM_TRACE_ROOT_PID", std::to_string(getpid()));
  set_env("WARPSIM_TRACE_MODE", o.mode);
  set_env("WARPSIM_TRACE_METRICS", o.metrics);
  set_env("WARPSIM_TRACE_FLUSH_MS", std::to_string(o.flush_ms));
  set_env("WARPSIM_TRACE_CAPTURE_RANGE", o.capture_range);
  if (!o.kernels.empty()) set_env("WARPSIM_TRACE_KERNELS", o.kernels);
  if (o.launch_skip) set_env("WARPSIM_TRACE_LAUNCH_SKIP", std::to_string(*o.launch_skip));
  if (o.launch_count) set_env("WARPSIM_TRACE_LAUNCH_COUNT", std::to_string(*o.launch_count));
  if (o.traffic_interval_ns) set_env("WARPSIM_TRAFFIC_INTERVAL_NS", std::to_string(*o.traffic_interval_ns));
  // Traffic mode attributes each PM sample to the one kernel running then: launches must not overlap.
  if (o.mode == "traffic") set_env("CUDA_LAUNCH_BLOCKING", "1");
  std::vector<char*> argv;
  for (const std::string& arg : o.command) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  std::cerr << "error: cannot run " << o.command.front() << ": " << std::strerror(errno) << '\n';
  _exit(127);
}

// Like a shell: the application's exit status, or 128 + the signal that ended it.
int wait_for_application(pid_t child) {
  // Ctrl-C and Ctrl-\ go to the whole foreground group: let the application decide, and wait for it.
  signal(SIGINT, SIG_IGN);
  signal(SIGQUIT, SIG_IGN);
  return wait_for(child);
}

// A traced application that dies before its tracer closes the trace (a crash, a kill) leaves what the tracer had
// flushed in the trace's temporary file (atomic_output.h): it becomes OUTPUT.partial, a truncated trace that warpsim
// reads, never the trace itself.
// Returns whether there was one.
bool keep_partial_trace(const std::string& output, pid_t child) {
  const std::vector<std::filesystem::path> leftovers = leftover_temporaries(output, child);
  if (leftovers.empty()) return false;
  const std::string partial = output + ".partial";
  std::error_code error;
  std::filesystem::rename(leftovers.back(), partial, error);
  if (error) {
    std::cerr << "warpsim record: the application ended before its trace was closed; what was recorded is in "
              << leftovers.back().string() << '\n';
    return true;
  }
  std::cerr << "warpsim record: the application ended before its trace was closed; what was recorded up to then is in "
            << partial << " (a truncated trace)\n";
  return true;
}

// Traces that other processes of the application wrote for an OUTPUT with %p (children get their own), since `since`.
std::vector<std::filesystem::path> traces_of_children(const std::string& pattern,
                                                      std::filesystem::file_time_type since) {
  std::vector<std::filesystem::path> found;
  const auto at = pattern.find("%p");
  if (at == std::string::npos) return found;
  const std::filesystem::path first(pattern.substr(0, at));
  const std::string prefix = first.filename().string(), suffix = pattern.substr(at + 2);
  std::error_code error;
  const std::filesystem::path dir = first.parent_path().empty() ? "." : first.parent_path();
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    if (name.size() <= prefix.size() + suffix.size() || !name.starts_with(prefix) || !name.ends_with(suffix)) continue;
    const std::string pid = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    if (entry.last_write_time(error) >= since) found.push_back(entry.path());
  }
  return found;
}

// Nothing written at all: the CUDA driver loads the tracer when the application first calls CUDA, so no trace means it
// never did (no GPU or driver here, or a program that does not use CUDA) or the tracer could not start.
int no_trace_written(const std::string& output, int status) {
  std::cerr << "error: warpsim record: no trace was written to " << output
            << ": the application never initialised CUDA with the tracer (no GPU or driver on this machine, CUPTI "
               "missing, or a program that does not use CUDA; the tracer's own messages start with 'warpsim "
               "tracer:')\n";
  return status != 0 ? status : 1;
}

int run_record(const RecordOptions& options) {
  const auto library = find_tracer_library(options.tracer_library);
  std::cout.flush();
  const auto started = std::filesystem::file_time_type::clock::now();
  const pid_t child = fork();
  if (child < 0) throw std::runtime_error(std::string("cannot start the application: ") + std::strerror(errno));
  if (child == 0) exec_traced(options, library);
  const int status = wait_for_application(child);
  std::string output = options.output;
  if (auto at = output.find("%p"); at != std::string::npos) output.replace(at, 2, std::to_string(child));
  if (std::filesystem::exists(output)) {
    std::cerr << "warpsim record: trace in " << output << '\n';
    return status;
  }
  if (keep_partial_trace(output, child)) return status;
  const std::vector<std::filesystem::path> children = traces_of_children(options.output, started);
  for (const auto& trace : children)
    std::cerr << "warpsim record: trace of a child process in " << trace.string() << '\n';
  return children.empty() ? no_trace_written(output, status) : status;
}

// OUT.wstrace -> OUT.SUFFIX.wstrace beside it.
std::string pass_trace(const std::string& output, const char* suffix) {
  const std::filesystem::path path(output);
  const std::string stem = path.extension() == ".wstrace" ? path.stem().string() : path.filename().string();
  return (path.parent_path() / (stem + "." + suffix + ".wstrace")).string();
}

// Every pass the simulator uses, one run of the application each, then their merge into the output: what a user
// would otherwise do with five `record` runs and a `merge`.
int run_record_all(const RecordOptions& options) {
  if (options.output.find("%p") != std::string::npos)
    throw std::runtime_error("record --all: -o must name one file (no %p): the passes are merged into it");
  std::string timeline;
  std::vector<std::filesystem::path> counters;
  for (std::size_t i = 0; i < kAllPasses.size(); ++i) {
    const Pass& pass = kAllPasses[i];
    RecordOptions run = options;
    run.mode = pass.mode;
    run.metrics = pass.metrics;
    run.output = pass_trace(options.output, pass.suffix);
    std::cerr << "warpsim record --all: pass " << i + 1 << " of " << kAllPasses.size() << ": " << pass.mode
              << (run.mode == "counters" ? std::string(" mode, ") + pass.metrics + " group" : std::string(" mode"))
              << " -> " << run.output << '\n';
    const int status = run_record(run);
    if (status != 0 || !std::filesystem::exists(run.output)) {
      std::cerr << "error: warpsim record --all: pass " << i + 1 << " (" << pass.suffix
                << ") failed; the passes before it are kept, nothing was merged\n";
      return status != 0 ? status : 1;
    }
    if (i == 0)
      timeline = run.output;
    else
      counters.emplace_back(run.output);
  }
  const trace::MergeSummary summary = trace::merge_counters(timeline, counters, options.output);
  std::cerr << "warpsim record --all: merged into " << options.output << ": " << summary.kernels << " kernels, "
            << summary.kernels_with_counters << " with counters (the passes' traces stay beside it)\n";
  return 0;
}

}  // namespace

void add_record_command(CLI::App& app, int& exit_status) {
  auto o = std::make_shared<RecordOptions>();
  CLI::App* command = app.add_subcommand("record", "Run a CUDA application and record its trace (needs a GPU)");
  CLI::Option* mode = command
                          ->add_option("--mode", o->mode,
                                       "timeline: kernels, copies, syncs with real times; counters: per-kernel "
                                       "hardware counters (kernels replayed); traffic: when in each kernel its "
                                       "PCIe/NVLink and DRAM bytes moved (PM sampling, kernels serialized)")
                          ->check(CLI::IsMember({"timeline", "counters", "traffic"}));
  command->add_option("-o,--output", o->output, "Trace file; %p becomes the process id (children get their own)")
      ->capture_default_str();
  command->add_option("--flush-ms", o->flush_ms, "Hand records to the file at least this often (ms)")
      ->check(CLI::Range(1, 60000))->capture_default_str();
  command->add_option("--capture-range", o->capture_range, "Record only between cudaProfilerStart and Stop")
      ->check(CLI::IsMember({"none", "cudaProfilerApi"}));
  CLI::Option* metrics =
      command
          ->add_option("--metrics", o->metrics,
                       "counters mode: core (instructions, L1/L2/DRAM), links (NVLink, PCIe bytes), tensor "
                       "(tensor-core operations by type) or cache (DRAM bytes, L2 misses in one pass); one group "
                       "per run, merged by warpsim merge")
          ->check(CLI::IsMember({"core", "links", "tensor", "cache"}));
  command->add_option("--kernels", o->kernels, "counters mode: profile kernels whose name matches this regex");
  command->add_option("--launch-skip", o->launch_skip, "counters mode: skip this many matching launches");
  command->add_option("--launch-count", o->launch_count, "counters mode: profile at most this many launches");
  command
      ->add_option("--traffic-interval-ns", o->traffic_interval_ns,
                   "traffic mode: PM sampling interval in ns (default 5000)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1'000'000'000}));
  command->add_option("--tracer-lib", o->tracer_library, "Path to libwarpsim_tracer.so");
  command
      ->add_flag("--all", o->all,
                 "Run the application once per pass the simulator uses (timeline; counters: core, links, tensor, "
                 "cache) and merge them into -o; each pass's trace stays beside it (OUT.timeline.wstrace, ...)")
      ->excludes(mode)
      ->excludes(metrics);
  command->add_option("command", o->command, "The application and its arguments, after --")->required();
  command->callback([o, &exit_status] { exit_status = o->all ? run_record_all(*o) : run_record(*o); });
}

}  // namespace warpsim::cli
