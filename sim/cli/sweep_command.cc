#include "sweep_command.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "atomic_output.h"
#include "child_process.h"
#include "outputs/printable.h"
#include "outputs/progress_line.h"
#include "registry.h"
#include "sweep_plan.h"

extern char** environ;

namespace warpsim::cli {
namespace {

struct SweepOptions {
  std::string trace;
  std::string platform;
  std::string model{models::kDefaultModel};
  std::vector<std::string> sets;
  std::string output;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  std::string emit_jobs;
  std::string merge;
  std::string spec;
  std::optional<std::size_t> run_point;
};

// 'text' for a POSIX shell, whatever it holds.
std::string shell_quoted(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// A node name stays a name; a node file becomes absolute, so points run from any directory.
std::string platform_argument(const std::string& platform) {
  return std::filesystem::exists(platform) ? std::filesystem::absolute(platform).string() : platform;
}

SweepPlan plan_from(const SweepOptions& options) {
  SweepPlan plan;
  plan.trace = std::filesystem::absolute(options.trace).string();
  plan.platform = platform_argument(options.platform);
  plan.model = options.model;
  for (const std::string& set : options.sets) plan.axes.push_back(parse_axis(set));
  plan.directory = std::filesystem::absolute(options.output);
  return plan;
}

SweepPlan load_plan(const std::filesystem::path& spec) {
  std::ifstream in(spec);
  if (!in) throw std::runtime_error(spec.string() + ": cannot read the sweep's plan");
  const nlohmann::json json = nlohmann::json::parse(in, nullptr, false);
  if (json.is_discarded()) throw std::runtime_error(spec.string() + ": not a sweep plan (invalid JSON)");
  try {
    return SweepPlan::from_json(json);
  } catch (const nlohmann::json::exception& error) {
    throw std::runtime_error(spec.string() + ": not a sweep plan: " + error.what());
  }
}

// DIR/sweep.json and DIR/points/. A DIR that holds another sweep's plan is refused: its results are not this one's.
void prepare_directory(const SweepPlan& plan) {
  std::filesystem::create_directories(plan.directory / "points");
  if (std::filesystem::exists(plan.spec_file())) {
    if (load_plan(plan.spec_file()).to_json() != plan.to_json())
      throw std::runtime_error(plan.spec_file().string() + ": holds another sweep; choose another -o directory");
    return;
  }
  AtomicOutputFile spec(plan.spec_file());
  spec.stream() << plan.to_json().dump(2) << '\n';
  spec.commit();
}

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
  std::vector<std::string> args = simulate_arguments(plan, index);
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, partial_result(plan, index).c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&files, STDERR_FILENO, plan.log_file(index).c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  pid_t pid = 0;
  const int error = posix_spawn(&pid, argv[0], &files, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  if (error != 0) throw std::runtime_error(std::string("cannot start warpsim simulate: ") + std::strerror(error));
  return pid;
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

// Runs the points without a result yet, `jobs` at a time. Returns how many failed.
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

// The last "error: ..." line a failed point's simulate printed.
std::string point_error(const SweepPlan& plan, std::size_t index) {
  std::ifstream log(plan.log_file(index));
  if (!log) return "not run";
  std::string line, error = "failed";
  while (std::getline(log, line))
    if (line.starts_with("error: ")) error = line.substr(7);
  return error;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// DIR/sweep.csv: one row per point, its values and what `simulate --json` said (or why it has no result).
// Returns how many points have no result.
std::size_t write_csv(const SweepPlan& plan, const std::filesystem::path& path) {
  AtomicOutputFile csv(path);
  std::ostream& out = csv.stream();
  out << "point";
  for (const SweepAxis& axis : plan.axes) out << ',' << csv_field(axis.key);
  out << ",kernels,kernels_without_counters,kernel_time_s,span_s,error\n";
  std::size_t missing = 0;
  for (std::size_t i = 0; i < plan.point_count(); ++i) {
    out << i;
    for (const auto& [key, value] : plan.point(i)) out << ',' << csv_field(value);
    std::ifstream result(plan.result_file(i));
    const nlohmann::json json = result ? nlohmann::json::parse(result, nullptr, false) : nlohmann::json();
    if (json.is_object() && json.contains("kernel_time_s")) {
      out << fmt::format(",{},{},{:.9g},{:.9g},\n", json["kernels"].get<std::uint64_t>(),
                         json["kernels_without_counters"].get<std::uint64_t>(),
                         json["kernel_time_s"]["simulated"].get<double>(), json["span_s"].get<double>());
    } else {
      ++missing;
      out << ",,,,," << csv_field(report::printable(point_error(plan, i))) << '\n';
    }
  }
  csv.commit();
  return missing;
}

void emit_jobs(const SweepPlan& plan, const std::string& jobs_path) {
  AtomicOutputFile jobs(jobs_path);
  for (std::size_t i = 0; i < plan.point_count(); ++i) {
    jobs.stream() << shell_quoted(own_executable().string()) << " sweep --spec " << shell_quoted(plan.spec_file())
                  << " --run-point " << i << '\n';
  }
  jobs.commit();
  std::cout << fmt::format(
      "{}: {} jobs, one point each (run them with bash, GNU parallel or a Slurm array); then "
      "warpsim sweep --merge {} -o DIR\n",
      jobs_path, plan.point_count(), jobs_path);
}

// The plan named by the first job of a JOBS.txt that --emit-jobs wrote.
SweepPlan plan_of_jobs(const std::string& jobs_path) {
  std::ifstream jobs(jobs_path);
  if (!jobs) throw std::runtime_error(jobs_path + ": cannot read");
  std::string line;
  std::getline(jobs, line);
  std::smatch match;
  if (!std::regex_search(line, match, std::regex(R"( --spec '((?:[^']|'\\'')*)')")))
    throw std::runtime_error(jobs_path + ":1: not a job line of warpsim sweep --emit-jobs");
  return load_plan(std::regex_replace(match[1].str(), std::regex(R"('\\'')"), "'"));
}

int finish(const SweepPlan& plan, const std::filesystem::path& csv, std::size_t failed_to_report) {
  const std::size_t missing = write_csv(plan, csv);
  std::cout << fmt::format("{}: {} points, {} with results\n", csv.string(), plan.point_count(),
                           plan.point_count() - missing);
  if (missing > 0 || failed_to_report > 0) {
    std::cerr << fmt::format("error: sweep: {} points have no result (their error is in the CSV; logs in {})\n",
                             missing, (plan.directory / "points").string());
    return 1;
  }
  return 0;
}

int run_sweep(const SweepOptions& options) {
  if (options.run_point) {
    if (options.spec.empty()) throw std::runtime_error("sweep: --run-point needs --spec");
    const SweepPlan plan = load_plan(options.spec);
    if (*options.run_point >= plan.point_count())
      throw std::runtime_error(
          fmt::format("sweep: --run-point {}: the plan has {} points", *options.run_point, plan.point_count()));
    return finish_point(plan, *options.run_point, wait_for(start_point(plan, *options.run_point))) ? 0 : 1;
  }
  if (options.output.empty()) throw std::runtime_error("sweep: -o DIR is required");
  if (!options.merge.empty()) {
    const SweepPlan plan = plan_of_jobs(options.merge);
    std::filesystem::create_directories(options.output);
    return finish(plan, std::filesystem::path(options.output) / "sweep.csv", 0);
  }
  if (options.trace.empty() || options.platform.empty() || options.sets.empty())
    throw std::runtime_error("sweep: TRACE, --platform and at least one --set KEY=V1,V2,... are required");
  const SweepPlan plan = plan_from(options);
  prepare_directory(plan);
  if (!options.emit_jobs.empty()) {
    emit_jobs(plan, options.emit_jobs);
    return 0;
  }
  const std::size_t failed = run_points(plan, options.jobs);
  return finish(plan, plan.directory / "sweep.csv", failed);
}

}  // namespace

void add_sweep_command(CLI::App& app, int& exit_status) {
  auto options = std::make_shared<SweepOptions>();
  CLI::App* command = app.add_subcommand(
      "sweep", "Simulate a trace at every point of a grid of platform values, each point its own process");
  command->add_option("trace", options->trace, "Recorded trace (.wstrace)")->check(CLI::ExistingFile);
  command->add_option("-p,--platform", options->platform, "Node: a file, or a name from platforms/nodes/");
  command->add_option("-m,--model", options->model, "SM timing model (warpsim models)")->capture_default_str();
  command->add_option("--set", options->sets,
                      "An axis: a platform field and its values, e.g. gpu.memory.dram_bandwidth_gb_per_s=2000,3352");
  command->add_option("-o,--output", options->output,
                      "Directory: sweep.json (the plan), points/ (each point's result and log), sweep.csv");
  command->add_option("-j,--jobs", options->jobs, "Points run at once")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command->add_option("--emit-jobs", options->emit_jobs,
                      "Write one shell command per point here instead of running them (bash, GNU parallel, Slurm)");
  command->add_option("--merge", options->merge, "Gather the results of the jobs in this file into -o DIR/sweep.csv");
  command->add_option("--spec", options->spec, "The plan of one point's job (written by --emit-jobs)");
  command->add_option("--run-point", options->run_point, "Run this point of --spec (what each job does)");
  command->callback([options, &exit_status] { exit_status = run_sweep(*options); });
}

}  // namespace warpsim::cli
