#pragma once
#include <CLI/CLI.hpp>

namespace warpsim::cli {

/// `warpsim sass TRACE --cubin FILE... -o OUT`: the trace with its kernels' SASS summaries taken from the program's
/// cubins (for traces recorded before a summary field existed).
void add_sass_command(CLI::App& app);

}  // namespace warpsim::cli
