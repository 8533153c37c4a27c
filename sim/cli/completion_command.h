#pragma once
#include <CLI/CLI.hpp>

namespace warpsim::cli {

/// `warpsim completion bash`: prints a bash completion script for every subcommand and option registered on `app`
/// so far (add it last), with the shipped node names after --platform and the model names after --model. Installed
/// as share/bash-completion/completions/warpsim; by hand: `source <(warpsim completion bash)`.
void add_completion_command(CLI::App& app);

}  // namespace warpsim::cli
