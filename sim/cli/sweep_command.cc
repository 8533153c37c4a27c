#include "sweep_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "atomic_output.h"
#include "child_process.h"
#include "registry.h"
#include "sweep_plan.h"
#include "sweep_points.h"
#include "sweep_results.h"

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

// Writes DIR/sweep.csv and its page DIR/sweep.html beside it.
int finish(const SweepPlan& plan, const std::filesystem::path& csv, std::size_t failed_to_report) {
  const report::SweepSummary results = sweep_results(plan);
  write_sweep_csv(results, csv);
  std::filesystem::path page = csv;
  write_sweep_html(results, page.replace_extension(".html"));
  const std::size_t missing = missing_points(results);
  std::cout << fmt::format("{}: {} points, {} with results (page: {})\n", csv.string(), plan.point_count(),
                           plan.point_count() - missing, page.string());
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
    return run_point(plan, *options.run_point) ? 0 : 1;
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
  command->add_option(
      "-o,--output", options->output,
      "Directory: sweep.json (the plan), points/ (each point's result and log), sweep.csv and sweep.html");
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
