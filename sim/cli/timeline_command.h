#pragma once
#include <CLI/CLI.hpp>

#include <string>

namespace warpsim::cli {

/// `warpsim timeline TRACE... -o OUT [--common-clock] [--timeline-format F]`: one or more traces as one timeline,
/// Chrome/Perfetto trace-event JSON or Perfetto protobuf.
void add_timeline_command(CLI::App& app);

/// `--timeline-format auto|json|perfetto` into `format`, for every command that writes a timeline.
void add_timeline_format_option(CLI::App& command, std::string& format);

}  // namespace warpsim::cli
