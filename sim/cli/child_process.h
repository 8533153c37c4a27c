#pragma once
// What the commands that run other programs (record: the application; sweep: one simulate per point) share: where
// warpsim itself is, and a child's end as a shell reports it.
#include <sys/types.h>

#include <filesystem>

namespace warpsim::cli {

/// The running warpsim binary (/proc/self/exe).
std::filesystem::path own_executable();

/// A wait status as a shell reports it: the exit status, or 128 + the signal that ended the process.
int shell_status(int wait_status);

/// Waits for `child` (through interruptions) and returns its shell_status.
int wait_for(pid_t child);

}  // namespace warpsim::cli
