#pragma once
#include <CLI/CLI.hpp>

namespace warpsim::cli {

/// `warpsim merge TIMELINE COUNTERS... -o OUT`: a timeline trace whose kernels carry the counters recorded by
/// counters-mode runs of the same program.
void add_merge_command(CLI::App& app);

}  // namespace warpsim::cli
