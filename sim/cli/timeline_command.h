#pragma once
#include <CLI/CLI.hpp>

namespace warpsim::cli {

/// `warpsim timeline TRACE... -o OUT.json [--common-clock]`: one or more traces as a Perfetto/Chrome timeline.
void add_timeline_command(CLI::App& app);

}  // namespace warpsim::cli
