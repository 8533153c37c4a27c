#pragma once
// What the commands that run other programs (record: the application; sweep: one simulate per point) share: where
// warpsim itself is, and a child's end as a shell reports it.
#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace warpsim::cli {

/// The running warpsim binary (/proc/self/exe).
std::filesystem::path own_executable();

/// A wait status as a shell reports it: the exit status, or 128 + the signal that ended the process.
int shell_status(int wait_status);

/// Starts `args` (args[0] a path) with its standard output into `out` and its standard error into `err` (created or
/// truncated; the same path for both: one file, in order). Throws std::runtime_error when it cannot start.
pid_t spawn_with_output(std::vector<std::string> args, const std::filesystem::path& out,
                        const std::filesystem::path& err);

/// Waits for `child` (through interruptions) and returns its shell_status.
int wait_for(pid_t child);

}  // namespace warpsim::cli
