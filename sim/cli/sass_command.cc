#include "sass_command.h"

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "sass_annotation.h"

namespace warpsim::cli {
namespace {

struct SassOptions {
  std::string trace;
  std::vector<std::string> cubins;
  std::vector<std::string> ptx;
  std::vector<std::string> counts;
  std::string output;
};

void run_sass(const SassOptions& options) {
  const std::vector<std::filesystem::path> cubins(options.cubins.begin(), options.cubins.end());
  const std::vector<std::filesystem::path> ptx(options.ptx.begin(), options.ptx.end());
  trace::ExecutionsByFunction executions;
  for (const std::string& path : options.counts) trace::add_instruction_counts(path, executions);
  const trace::SassAnnotation result =
      trace::annotate_sass(options.trace, cubins, options.output, ptx, options.counts.empty() ? nullptr : &executions);
  std::cout << options.output << ": " << result.annotated << " of " << result.kernels
            << " kernels given the cubins' SASS summary";
  if (result.disagreed > 0) std::cout << "; " << result.disagreed << " kept their own (other code than the cubin's)";
  if (!result.unknown_functions.empty())
    std::cout << "; " << result.unknown_functions.size() << " kernels in no cubin (first: "
              << result.unknown_functions.front() << ")";
  if (!ptx.empty()) std::cout << "; " << result.shared_loads_annotated << " given their PTX's load sharing";
  if (!options.counts.empty()) std::cout << "; " << result.executions_annotated << " given their executed instructions";
  if (!result.counts_outside_code.empty())
    std::cout << "; " << result.counts_outside_code.size()
              << " counted functions not used, their counts outside their code (first: "
              << result.counts_outside_code.front() << ")";
  std::cout << '\n';
}

}  // namespace

void add_sass_command(CLI::App& app) {
  auto options = std::make_shared<SassOptions>();
  CLI::App* command = app.add_subcommand(
      "sass", "Give a trace's kernels the SASS summary of the program's cubins (nvcc -cubin, the program's flags)");
  command->add_option("trace", options->trace, "Trace to annotate (not changed)")->required();
  command->add_option("--cubin", options->cubins, "Cubins of the program, fatbins, or programs and libraries embedding them (libcublasLt.so); several allowed")->required();
  command
      ->add_option("--ptx", options->ptx,
                   "PTX of the program (nvcc -ptx, the program's flags): each kernel's load sharing; several allowed")
      ->check(CLI::ExistingFile);
  command->add_option("--counts", options->counts,
                      "Instruction counts of the program's kernels (`count <function> <pc> <warp executions>` lines, "
                      "workloads/probe_sass_metrics' count_inject), a file or a directory of them: each counted "
                      "kernel's executed issue spacing; several allowed");
  command->add_option("-o,--output", options->output, "Annotated trace")->required();
  command->callback([options] { run_sass(*options); });
}

}  // namespace warpsim::cli
