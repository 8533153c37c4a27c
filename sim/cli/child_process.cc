#include "child_process.h"

#include <sys/wait.h>

#include <cerrno>

namespace warpsim::cli {

std::filesystem::path own_executable() { return std::filesystem::read_symlink("/proc/self/exe"); }

int shell_status(int wait_status) {
  if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  return 1;
}

int wait_for(pid_t child) {
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  return shell_status(status);
}

}  // namespace warpsim::cli
