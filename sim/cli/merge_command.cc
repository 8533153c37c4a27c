#include "merge_command.h"

#include <algorithm>
#include <iostream>
#include <memory>
#include <ostream>
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

// "N in WHERE (first: NAME at device D #I, ...)": a few names, since mangled template names run long.
void print_unmatched(std::ostream& out, std::uint64_t count, const char* where,
                     const std::vector<trace::UnmatchedKernel>& examples) {
  constexpr std::size_t kShown = 3;
  out << count << " in " << where;
  for (std::size_t i = 0; i < examples.size() && i < kShown; ++i)
    out << (i == 0 ? " (first: " : ", ") << examples[i].name << " at device " << examples[i].device << " #"
        << examples[i].position;
  if (!examples.empty()) out << (count > kShown ? ", ...)" : ")");
}

// One line per counters trace whose launches did not all find a partner (another kernel chosen by a library, a loop
// that ran once more): the kernels that kept no counters from it.
void print_match(std::ostream& out, const trace::CountersMatch& match) {
  if (match.unmatched_in_timeline == 0 && match.unmatched_here == 0) return;
  out << match.trace.string() << ": matched " << match.matched << " of " << match.timeline_kernels
      << " timeline kernels; unmatched: ";
  print_unmatched(out, match.unmatched_in_timeline, "the timeline", match.timeline_examples);
  out << ", ";
  print_unmatched(out, match.unmatched_here, "this trace", match.here_examples);
  out << '\n';
}

void run_merge(const MergeOptions& options) {
  const std::vector<std::filesystem::path> counters(options.counters.begin(), options.counters.end());
  const trace::MergeSummary summary = trace::merge_counters(options.timeline, counters, options.output);
  if (!summary.truncation_warning.empty()) std::cerr << "warning: " << summary.truncation_warning << '\n';
  std::cout << options.output << ": " << summary.kernels << " kernels, " << summary.kernels_with_counters
            << " with counters";
  const bool traffic = std::any_of(summary.counters.begin(), summary.counters.end(),
                                   [](const trace::CountersMatch& match) { return match.traffic; });
  if (traffic) std::cout << ", " << summary.kernels_with_traffic_profile << " with a traffic profile";
  std::cout << '\n';
  for (const trace::CountersMatch& match : summary.counters) print_match(std::cout, match);
}

}  // namespace

void add_merge_command(CLI::App& app) {
  auto options = std::make_shared<MergeOptions>();
  CLI::App* command =
      app.add_subcommand("merge",
                         "Give a timeline trace's kernels the counters of counters-mode runs of the same program, and "
                         "the traffic profiles of a traffic-mode run");
  command->add_option("timeline", options->timeline, "Timeline-mode trace (real times)")->required();
  command
      ->add_option("counters", options->counters,
                   "Counters-mode traces (e.g. --metrics core and links) and traffic-mode traces")
      ->required();
  command->add_option("-o,--output", options->output, "Merged trace")->required();
  command->callback([options] { run_merge(*options); });
}

}  // namespace warpsim::cli
