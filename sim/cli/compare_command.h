#pragma once
#include <CLI/CLI.hpp>

namespace warpsim::cli {

/// `warpsim compare A B [--json] [--top N] [--timeline OUT.json]`: kernel-by-kernel errors of B against A (the
/// reference), per kernel name and in total. Fails naming the first difference when the traces launched different
/// kernels.
void add_compare_command(CLI::App& app);

}  // namespace warpsim::cli
