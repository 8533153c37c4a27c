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
  std::string output;
};

void run_sass(const SassOptions& options) {
  const std::vector<std::filesystem::path> cubins(options.cubins.begin(), options.cubins.end());
  const std::vector<std::filesystem::path> ptx(options.ptx.begin(), options.ptx.end());
  const trace::SassAnnotation result = trace::annotate_sass(options.trace, cubins, options.output, ptx);
  std::cout << options.output << ": " << result.annotated << " of " << result.kernels
            << " kernels given the cubins' SASS summary";
  if (result.disagreed > 0) std::cout << "; " << result.disagreed << " kept their own (other code than the cubin's)";
  if (!result.unknown_functions.empty())
    std::cout << "; " << result.unknown_functions.size() << " kernels in no cubin (first: "
              << result.unknown_functions.front() << ")";
  if (!ptx.empty()) std::cout << "; " << result.shared_loads_annotated << " given their PTX's load sharing";
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
  command->add_option("-o,--output", options->output, "Annotated trace")->required();
  command->callback([options] { run_sass(*options); });
}

}  // namespace warpsim::cli
