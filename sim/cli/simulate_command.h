#pragma once
#include <CLI/CLI.hpp>

namespace warpsim::cli {

/// `warpsim simulate TRACE --platform NODE [--model NAME] [--set K=V]... [-o OUT] [--timeline OUT.json] [--csv OUT.csv]`
void add_simulate_command(CLI::App& app);

}  // namespace warpsim::cli
