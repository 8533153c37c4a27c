#include "sweep_points.h"

#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "child_process.h"
#include "outputs/progress_line.h"

namespace warpsim::cli {
namespace {

std::vector<std::string> simulate_arguments(const SweepPlan& plan, std::size_t index) {
  std::vector<std::string> args = {
      own_executable().string(), "simulate", plan.trace, "--platform", plan.platform, "--model", plan.model};
  for (const auto& [key, value] : plan.point(index)) {
    args.push_back("--set");
    args.push_back(key + "=" + value);
  }
  args.push_back("--json");
  return args;
}

std::filesystem::path partial_result(const SweepPlan& plan, std::size_t index) {
  return plan.result_file(index).string() + fmt::format(".partial-{}", ::getpid());
}

// Starts `warpsim simulate ... --json` for one point: stdout to a partial result, stderr to the point's log.
pid_t start_point(const SweepPlan& plan, std::size_t index) {
  return spawn_with_output(simulate_arguments(plan, index), partial_result(plan, index), plan.log_file(index));
}

// A point's result appears whole (renamed) or not at all; a failed point keeps only its log. `status`: shell_status.
bool finish_point(const SweepPlan& plan, std::size_t index, int status) {
  const bool succeeded = status == 0;
  std::error_code ignored;
  if (succeeded)
    std::filesystem::rename(partial_result(plan, index), plan.result_file(index));
  else
    std::filesystem::remove(partial_result(plan, index), ignored);
  return succeeded;
}

}  // namespace

std::size_t run_points(const SweepPlan& plan, unsigned jobs) {
  std::vector<std::size_t> pending;
  for (std::size_t i = 0; i < plan.point_count(); ++i)
    if (!std::filesystem::exists(plan.result_file(i))) pending.push_back(i);
  const std::size_t already = plan.point_count() - pending.size();
  if (already > 0)
    std::cerr << fmt::format("sweep: {} of {} points already done, not run again\n", already, plan.point_count());
  report::ProgressLine progress(std::cerr, report::stderr_is_a_terminal(), std::chrono::milliseconds(100));
  const auto started = std::chrono::steady_clock::now();
  std::map<pid_t, std::size_t> running;
  std::size_t next = 0, done = 0, failed = 0;
  while (next < pending.size() || !running.empty()) {
    while (next < pending.size() && running.size() < jobs) {
      running[start_point(plan, pending[next])] = pending[next];
      ++next;
    }
    int status = 0;
    const pid_t pid = ::wait(&status);
    if (pid < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("sweep: waiting for a point: ") + std::strerror(errno));
    }
    const auto found = running.find(pid);
    if (found == running.end()) continue;
    if (!finish_point(plan, found->second, shell_status(status))) ++failed;
    running.erase(found);
    ++done;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const double left = elapsed / static_cast<double>(done) * static_cast<double>(pending.size() - done);
    progress.update("sweep", fmt::format("points, about {:.0f} s left", left), already + done, plan.point_count());
  }
  return failed;
}

bool run_point(const SweepPlan& plan, std::size_t index) {
  return finish_point(plan, index, wait_for(start_point(plan, index)));
}

}  // namespace warpsim::cli
