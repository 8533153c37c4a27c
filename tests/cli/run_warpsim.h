#pragma once
// Runs the warpsim binary as users do (a shell command), capturing its exit status, stdout and stderr.
// WARPSIM_BINARY and WARPSIM_TEST_DATA are compile definitions of the cli_tests target.
#include <sys/wait.h>

#include <cstdlib>
#include <string>

#include "sample_trace.h"

namespace warpsim::testing {

struct CommandResult {
  int exit_status = -1;  // -1: killed by a signal
  std::string out;
  std::string err;
};

/// `shell_setup` runs first in the same shell, e.g. "ulimit -f 1;" for a disk that fills after 512 bytes.
inline CommandResult run_warpsim(const std::string& arguments, const std::string& shell_setup = "") {
  const auto dir = fresh_temp_dir();
  const std::string command = shell_setup + std::string(WARPSIM_BINARY) + " " + arguments + " >" +
                              (dir / "out").string() + " 2>" + (dir / "err").string();
  const int status = std::system(command.c_str());
  CommandResult result;
  result.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = read_file(dir / "out");
  result.err = read_file(dir / "err");
  return result;
}

/// A file of tests/data/.
inline std::string data(const std::string& name) { return std::string(WARPSIM_TEST_DATA) + "/" + name; }

/// A trace shipped in workloads/traces/.
inline std::string shipped_trace(const std::string& name) {
  return std::string(WARPSIM_TEST_DATA) + "/../../workloads/traces/" + name;
}

/// A shell whose files cannot grow beyond 512 bytes, as on a full disk (writes fail with EFBIG; SIGXFSZ ignored, so
/// the program sees the failure instead of dying of the signal).
inline const std::string kFullDisk = "trap '' XFSZ; ulimit -f 1; ";

}  // namespace warpsim::testing
