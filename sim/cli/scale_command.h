#pragma once
#include <CLI/CLI.hpp>

namespace warpsim::cli {

/// `warpsim scale TRACE --gpus N -o OUT`: the what-if N-GPU trace of a two-GPU recording, N/2 copies of the recorded
/// pair (trace/spmd_scale.h), to simulate on an N-GPU node.
void add_scale_command(CLI::App& app);

}  // namespace warpsim::cli
