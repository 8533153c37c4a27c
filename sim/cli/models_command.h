#pragma once
#include <CLI/CLI.hpp>

namespace warpsim::cli {

/// `warpsim models`: the SM timing models `simulate --model` accepts, one per line: name, a tab, its description.
void add_models_command(CLI::App& app);

}  // namespace warpsim::cli
