#pragma once
#include <CLI/CLI.hpp>

namespace warpsim::cli {

/// `warpsim record [--mode timeline|counters|traffic] [-o OUT] [...] -- APP [ARGS...]`: runs APP with the CUPTI tracer
/// injected; sets `exit_status` to APP's (128 + signal if a signal ended it, 127 if it could not be started).
void add_record_command(CLI::App& app, int& exit_status);

}  // namespace warpsim::cli
