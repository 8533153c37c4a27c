#include "petri_command.h"

#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/demangle.h"
#include "atomic_output.h"
#include "petri/first_wave.h"
#include "petri/pnml.h"
#include "petri/variant.h"
#include "platform.h"
#include "trace_reader.h"

namespace warpsim::cli {
namespace {

namespace petri = models::petri;

struct PetriExportOptions {
  std::string trace;
  std::string selector;
  std::string format = "pnml";
  std::string output;  // empty: stdout
  std::string platform = "h100-pcie";
  std::string model = "petri-paper";
  std::vector<std::string> overrides;
};

// "NAME#N": launches whose name (mangled or demangled) contains NAME, the N-th of them counting from 0; no "#N": the
// first. Identifiers appear verbatim in mangled names, so a plain kernel name works either way.
struct Selector {
  std::string name;
  size_t index = 0;
};

Selector parse_selector(const std::string& text) {
  const size_t hash = text.rfind('#');
  if (hash == std::string::npos) return {text, 0};
  const std::string digits = text.substr(hash + 1);
  if (digits.empty() || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    throw std::invalid_argument("kernel selector '" + text + "': expected NAME or NAME#N with N a launch index");
  }
  return {text.substr(0, hash), std::stoul(digits)};
}

bool matches(const KernelLaunch& kernel, const std::string& name) {
  return kernel.name().find(name) != std::string::npos ||
         report::demangle(kernel.name()).find(name) != std::string::npos;
}

KernelLaunch find_kernel(const std::string& trace, const Selector& selector) {
  TraceReader reader(trace);
  Event event;
  size_t seen = 0;
  while (reader.next(event)) {
    if (!event.has_kernel() || !matches(event.kernel(), selector.name)) continue;
    if (seen++ == selector.index) return event.kernel();
  }
  throw std::invalid_argument(trace + ": no kernel launch '" + selector.name + "#" + std::to_string(selector.index) +
                              "' (" + std::to_string(seen) + " launches match '" + selector.name + "')");
}

petri::Variant variant(const std::string& model) {
  if (const std::optional<petri::Variant> v = petri::variant_named(model)) return *v;
  throw std::invalid_argument("--model must be petri or petri-paper, not '" + model + "'");
}

void require_counters(const KernelLaunch& kernel) {
  if (kernel.has_counters()) return;
  throw std::invalid_argument("kernel " + kernel.name() +
                              " has no counters: record a counters run and merge it (warpsim merge)");
}

void run_export(const PetriExportOptions& options) {
  const Selector selector = parse_selector(options.selector);
  const petri::Variant v = variant(options.model);
  if (!options.output.empty()) refuse_outputs_over_inputs({options.output}, {options.trace, options.platform});
  const KernelLaunch kernel = find_kernel(options.trace, selector);
  const platform::Platform node = platform::load_platform(options.platform, options.overrides);
  if (kernel.device_id() >= node.gpus.size()) {
    throw std::invalid_argument("kernel runs on device " + std::to_string(kernel.device_id()) + " but platform " +
                                options.platform + " has " + std::to_string(node.gpus.size()) + " GPU(s)");
  }
  const platform::GpuSpec& gpu = node.gpus[kernel.device_id()];
  require_counters(kernel);
  const petri::FirstWaveNet first = petri::first_wave_net(kernel, gpu, v);
  const petri::Net& net = first.net;
  const uint32_t warps = first.warps;
  const std::string title = report::demangle(kernel.name()) + " #" + std::to_string(selector.index) +
                            ": one SM of the first wave (" + std::to_string(warps) + " warps), " + options.model +
                            " on " + gpu.name();
  if (options.output.empty()) {
    petri::write_pnml(std::cout, net, title);
    return;
  }
  AtomicOutputFile out(options.output);  // whole or not at all
  petri::write_pnml(out.stream(), net, title);
  out.commit();
  std::cerr << options.output << ": " << net.place_count() << " places, " << net.transition_count() << " transitions, "
            << warps << " warps (" << title << ")\n";
}

}  // namespace

void add_petri_command(CLI::App& app) {
  CLI::App* petri_command = app.add_subcommand("petri", "The Petri-net SM model (paper 000): export its nets");
  petri_command->require_subcommand(1);
  auto options = std::make_shared<PetriExportOptions>();
  CLI::App* command = petri_command->add_subcommand(
      "export", "Write the net of one SM in a kernel's first wave, as the model builds it, for Petri-net tools");
  command->add_option("trace", options->trace, "Trace with counters (.wstrace, a counters or merged run)")
      ->required()
      ->check(CLI::ExistingFile);
  command
      ->add_option("kernel", options->selector,
                   "Kernel NAME or NAME#N: launches whose (mangled or demangled) name contains NAME, the N-th "
                   "counting from 0 (default 0)")
      ->required();
  command->add_option("--format", options->format, "Output format")
      ->check(CLI::IsMember({"pnml"}))
      ->capture_default_str();
  command->add_option("-o,--output", options->output, "File to write (default: standard output)");
  command->add_option("-p,--platform", options->platform, "Node: a file, or a name from platforms/nodes/")
      ->capture_default_str();
  command->add_option("-m,--model", options->model, "petri or petri-paper")->capture_default_str();
  command->add_option("--set", options->overrides, "Override a platform field, e.g. gpu.sm.schedulers=2");
  command->callback([options] { run_export(*options); });
}

}  // namespace warpsim::cli
