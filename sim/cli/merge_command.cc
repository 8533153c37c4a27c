#include "merge_command.h"

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "trace_merge.h"

namespace warpsim::cli {
namespace {

struct MergeOptions {
  std::string timeline;
  std::vector<std::string> counters;
  std::string output;
};

void run_merge(const MergeOptions& options) {
  const std::vector<std::filesystem::path> counters(options.counters.begin(), options.counters.end());
  const tracer::MergeSummary summary = tracer::merge_counters(options.timeline, counters, options.output);
  if (!summary.truncation_warning.empty()) std::cerr << "warning: " << summary.truncation_warning << '\n';
  std::cout << options.output << ": " << summary.kernels << " kernels, " << summary.kernels_with_counters
            << " with counters\n";
}

}  // namespace

void add_merge_command(CLI::App& app) {
  auto options = std::make_shared<MergeOptions>();
  CLI::App* command =
      app.add_subcommand("merge", "Give a timeline trace's kernels the counters of counters-mode runs of the same program");
  command->add_option("timeline", options->timeline, "Timeline-mode trace (real times)")->required();
  command->add_option("counters", options->counters, "Counters-mode traces (e.g. --metrics core and links)")->required();
  command->add_option("-o,--output", options->output, "Merged trace")->required();
  command->callback([options] { run_merge(*options); });
}

}  // namespace warpsim::cli
