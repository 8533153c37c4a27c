#pragma once
#include <CLI/CLI.hpp>

namespace warpsim::cli {

/// `warpsim sweep TRACE --platform NODE [--model M] --set KEY=V1,V2... [--set ...] -o DIR [--jobs N]`, and its
/// cluster forms: `--emit-jobs JOBS.txt` (one shell command per point), `--merge JOBS.txt -o DIR2`.
void add_sweep_command(CLI::App& app, int& exit_status);

}  // namespace warpsim::cli
