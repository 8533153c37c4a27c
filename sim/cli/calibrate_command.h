#pragma once
#include <CLI/CLI.hpp>

namespace warpsim::cli {

/// `warpsim calibrate [-o FILE] [--device N] [--base GPU] [--name NAME] [--keep DIR | --from DIR]`: runs the shipped
/// microbenchmarks under the tracer on this machine's GPU and writes a GPU file of what they measured, the device's
/// properties, and a shipped GPU's values for the rest (each line says which).
void add_calibrate_command(CLI::App& app);

}  // namespace warpsim::cli
