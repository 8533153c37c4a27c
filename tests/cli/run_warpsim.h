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

inline CommandResult run_warpsim(const std::string& arguments) {
  const auto dir = fresh_temp_dir();
  const std::string command =
      std::string(WARPSIM_BINARY) + " " + arguments + " >" + (dir / "out").string() + " 2>" + (dir / "err").string();
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

}  // namespace warpsim::testing
