#pragma once
#include <CLI/CLI.hpp>

namespace warpsim::cli {

/// `warpsim inspect TRACE [--json] [--top N]`: devices, links, event counts, top kernels.
void add_inspect_command(CLI::App& app);

}  // namespace warpsim::cli
