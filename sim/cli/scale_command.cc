#include "scale_command.h"

#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <system_error>

#include "spmd_scale.h"
#include "trace_error.h"

namespace warpsim::cli {
namespace {

struct ScaleCommandOptions {
  std::string input;
  std::string output;
  std::uint32_t gpus = 4;
  trace::HostThreads host = trace::HostThreads::kAuto;
};

const char* host_name(trace::HostThreads host) {
  switch (host) {
    case trace::HostThreads::kShared: return "shared: every pair's calls in turn";
    case trace::HostThreads::kOwn: return "own threads per pair";
    case trace::HostThreads::kAuto: break;
  }
  return "auto: a thread that drove one GPU per pair, others shared";
}

/// The output must not be the input: scaling reads the whole input first, but a rename over it would still lose it.
void refuse_overwriting_input(const ScaleCommandOptions& options) {
  std::error_code error;
  if (std::filesystem::equivalent(options.input, options.output, error))
    throw TraceError(options.output, std::nullopt, "the output is the input trace; name another file with -o");
}

void run_scale(const ScaleCommandOptions& options) {
  refuse_overwriting_input(options);
  const trace::ScaleSummary summary = trace::scale_pairs(options.input, {options.gpus, options.host}, options.output);
  std::cout << options.output << ": " << options.gpus << " GPUs, " << summary.pairs << " copies of the recorded pair, "
            << summary.events_written << " events (" << summary.events_read
            << " recorded); host: " << host_name(options.host) << '\n';
}

}  // namespace

void add_scale_command(CLI::App& app) {
  auto options = std::make_shared<ScaleCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "scale", "What-if trace for more GPUs: a two-GPU recording as N/2 copies of its pair (weak scaling)");
  command->add_option("trace", options->input, "Two-GPU recording")->required();
  command->add_option("--gpus", options->gpus, "GPUs of the scaled trace (even)")->required();
  const std::map<std::string, trace::HostThreads> hosts{
      {"auto", trace::HostThreads::kAuto}, {"shared", trace::HostThreads::kShared}, {"own", trace::HostThreads::kOwn}};
  command
      ->add_option(
          "--host", options->host,
          "Host threads: auto (a thread that drove one GPU gets a copy per pair, the others issue every "
          "pair's calls in turn), shared (all issue every pair's calls), own (a copy of every thread per pair)")
      ->transform(CLI::CheckedTransformer(hosts, CLI::ignore_case))
      ->default_str("auto");
  command->add_option("-o,--output", options->output, "Scaled trace")->required();
  command->callback([options] { run_scale(*options); });
}

}  // namespace warpsim::cli
