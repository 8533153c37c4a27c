#pragma once
#include <CLI/CLI.hpp>

namespace warpsim::cli {

/// `warpsim petri export TRACE KERNEL[#N] --format pnml [-o OUT.pnml] [--platform NODE] [--model petri|petri-paper]`:
/// the Petri net the model runs for one SM in the kernel's first wave, as PNML for Petri-net tools.
void add_petri_command(CLI::App& app);

}  // namespace warpsim::cli
