#include "calibrate_command.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "atomic_output.h"
#include "calibrated_gpu.h"
#include "calibration_suite.h"
#include "child_process.h"
#include "gpu_catalog.h"
#include "gpu_file_text.h"
#include "platform.h"

namespace warpsim::cli {
namespace {

namespace fs = std::filesystem;

struct CalibrateOptions {
  std::string output;      // empty: NAME.textproto here
  std::string name;        // empty: from the device's name
  std::string base;        // empty: the shipped GPU of the same compute capability
  std::string keep;        // record into this folder and keep it
  std::string from;        // measure this folder instead of running anything
  std::string benchmarks;  // where ws_* are; empty: $WARPSIM_BENCHMARKS, else the build tree beside warpsim
  std::string device;      // CUDA_VISIBLE_DEVICES for the benchmarks
  int runs = 2;            // the suite this many times, into FOLDER/run1, run2, ...: each value's spread
};

// "NVIDIA H200" -> "H200", "NVIDIA GeForce RTX 4090" -> "GeForce-RTX-4090".
std::string device_label(std::string name) {
  if (name.rfind("NVIDIA ", 0) == 0) name.erase(0, 7);
  for (char& c : name)
    if (c == ' ' || c == '/') c = '-';
  return name.empty() ? "GPU" : name;
}

// The benchmark executable: in FOLDER/ws_NAME or FOLDER/NAME/ws_NAME (the build tree's workloads/NAME/).
fs::path find_benchmark(const CalibrateOptions& options, const std::string& name) {
  std::vector<fs::path> folders;
  if (!options.benchmarks.empty())
    folders.emplace_back(options.benchmarks);
  else if (const char* env = std::getenv("WARPSIM_BENCHMARKS"); env && *env)
    folders.emplace_back(env);
  else
    folders.push_back(own_executable().parent_path().parent_path() / "workloads");
  for (const fs::path& folder : folders) {
    for (const fs::path& candidate : {folder / ("ws_" + name), folder / name / ("ws_" + name)})
      if (fs::is_regular_file(candidate)) return candidate;
  }
  throw std::runtime_error(
      fmt::format("calibrate: cannot find ws_{} in {} (build the workloads with CUDA, or point --benchmarks at them)",
                  name, folders.front().string()));
}

// `warpsim record --mode timeline -o FOLDER/NAME.wstrace -- ws_NAME ARGS`, its output into FOLDER/NAME.log.
void record(const CalibrateOptions& options, const calibrate::Benchmark& benchmark, const fs::path& folder) {
  const fs::path executable = find_benchmark(options, benchmark.name);
  const fs::path log = folder / (benchmark.name + ".log");
  std::vector<std::string> args = {own_executable().string(),
                                   "record",
                                   "--mode",
                                   "timeline",
                                   "-o",
                                   (folder / (benchmark.name + ".wstrace")).string(),
                                   "--",
                                   executable.string()};
  args.insert(args.end(), benchmark.args.begin(), benchmark.args.end());
  std::cout.flush();
  const pid_t child = spawn_with_output(args, log, log);
  if (const int status = wait_for(child); status != 0)
    throw std::runtime_error(
        fmt::format("calibrate: ws_{} failed (status {}); its output is in {}", benchmark.name, status, log.string()));
}

// Runs the suite `options.runs` times into FOLDER/run1, run2, ..., a line per benchmark.
void run_suite(const CalibrateOptions& options, const fs::path& folder) {
  const auto& suite = calibrate::calibration_suite();
  for (int run = 1; run <= options.runs; ++run) {
    const fs::path run_folder = folder / fmt::format("run{}", run);
    fs::create_directories(run_folder);
    for (std::size_t i = 0; i < suite.size(); ++i) {
      const auto started = std::chrono::steady_clock::now();
      std::cout << fmt::format("[run {}/{}] [{}/{}] ws_{} ", run, options.runs, i + 1, suite.size(), suite[i].name)
                << std::flush;
      try {
        record(options, suite[i], run_folder);
      } catch (...) {
        std::cout << std::endl;  // end the progress line before the error
        throw;
      }
      const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
      std::cout << fmt::format("{:.1f} s", took.count()) << std::endl;
    }
  }
}

// A new folder beside the output for the recordings: removed afterwards unless --keep named it.
class WorkFolder {
 public:
  explicit WorkFolder(const CalibrateOptions& options, const fs::path& output) {
    if (!options.from.empty()) {
      path_ = options.from;
      return;
    }
    if (!options.keep.empty()) {
      path_ = options.keep;
      fs::create_directories(path_);
      return;
    }
    std::string pattern = (fs::absolute(output).parent_path() / ".warpsim-calibrate-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr)
      throw std::runtime_error(fmt::format("calibrate: cannot create {}: {}", pattern, std::strerror(errno)));
    path_ = pattern;
    remove_ = true;
  }
  ~WorkFolder() {
    std::error_code ignored;
    if (remove_) fs::remove_all(path_, ignored);
  }
  WorkFolder(const WorkFolder&) = delete;
  WorkFolder& operator=(const WorkFolder&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
  bool remove_ = false;
};

std::vector<std::string> file_header(const calibrate::FolderMeasurements& measured,
                                     const platform::CatalogEntry& base) {
  const auto today = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
  return {fmt::format("{}: written by `warpsim calibrate` on {:%Y-%m-%d} from the shipped microbenchmarks run on it.",
                      measured.device.name(), today),
          "MEASURED: a benchmark's result; DEVICE PROPERTY: what the driver reports;",
          fmt::format("FROM {}: not measured here, the shipped file's value and its source (same compute capability).",
                      base.spec.name())};
}

// --from's recordings are inputs: the output may not be one of them.
void refuse_output_over_input(const CalibrateOptions& options, const fs::path& output) {
  std::error_code error;
  if (options.from.empty() || !fs::exists(output, error)) return;
  for (const auto& entry : fs::recursive_directory_iterator(options.from, error)) {
    if (fs::equivalent(entry.path(), output, error))
      throw std::runtime_error(
          fmt::format("calibrate: -o {} is one of the recordings it reads; choose another file", output.string()));
  }
}

void run_calibrate(const CalibrateOptions& options) {
  const fs::path provisional = options.output.empty() ? fs::path("calibrated.textproto") : fs::path(options.output);
  const WorkFolder folder(options, provisional);
  // The benchmarks run on this device alone; warpsim itself uses no GPU.
  if (!options.device.empty()) setenv("CUDA_VISIBLE_DEVICES", options.device.c_str(), 1);
  if (options.from.empty()) run_suite(options, folder.path());
  const calibrate::FolderMeasurements measured = calibrate::measure_runs(calibrate::run_folders(folder.path()));
  const platform::GpuCatalog catalog = platform::GpuCatalog::load(platform::default_platforms_root() / "gpus");
  const platform::CatalogEntry& base =
      calibrate::choose_base(catalog, measured.device.name(), measured.device.compute_capability_major(),
                             measured.device.compute_capability_minor(), options.base);
  for (const std::string& missing : measured.missing)
    std::cerr << fmt::format("warning: {} holds no output of ws_{} (an older calibration?): its values are {}'s\n",
                             folder.path().string(), missing, base.spec.name());
  const std::string name = options.name.empty() ? device_label(measured.device.name()) + "-calibrated" : options.name;
  calibrate::CalibratedGpu gpu = calibrate::calibrated_gpu(base, measured.measurements, name, measured.device.name());
  gpu.header = file_header(measured, base);
  const fs::path output = options.output.empty() ? fs::path(name + ".textproto") : fs::path(options.output);
  refuse_output_over_input(options, output);
  AtomicOutputFile file(output);
  const std::string text = calibrate::gpu_file_text(gpu);
  file.write(text.data(), text.size());
  file.commit();
  std::cout << fmt::format("wrote {}: {} values measured or read from the device, the rest from {}\n", output.string(),
                           measured.measurements.size(), base.spec.name());
}

}  // namespace

void add_calibrate_command(CLI::App& app) {
  auto options = std::make_shared<CalibrateOptions>();
  CLI::App* command = app.add_subcommand(
      "calibrate",
      "Run the shipped microbenchmarks on this machine's GPU and write a GPU file of what they measure (latencies, "
      "L1/L2 bandwidth, memset and copy rates, the launch line), the device's properties, and a shipped GPU's values "
      "for the rest");
  command->add_option("-o,--output", options->output, "GPU file to write (default: NAME.textproto here)");
  command->add_option("--name", options->name, "GpuSpec name (default: the device's, e.g. H200-calibrated)");
  command->add_option("--base", options->base,
                      "Shipped GPU whose values fill what is not measured (default: the same compute capability)");
  command->add_option("--device", options->device, "CUDA device to calibrate (CUDA_VISIBLE_DEVICES for the runs)");
  command->add_option("--benchmarks", options->benchmarks,
                      "Folder of the ws_* microbenchmarks (default: $WARPSIM_BENCHMARKS, else the build tree's "
                      "workloads/ beside warpsim)");
  command
      ->add_option("--runs", options->runs,
                   "Run the suite this many times: each value their median, its spread in "
                   "its comment")
      ->check(CLI::Range(1, 10))
      ->capture_default_str();
  auto* keep = command->add_option("--keep", options->keep, "Record into this folder and keep the recordings");
  command
      ->add_option(
          "--from", options->from,
          "Measure a folder recorded before (--keep; its run1, run2, ... if it has them): runs nothing, needs no GPU")
      ->check(CLI::ExistingDirectory)
      ->excludes(keep);
  command->callback([options] { run_calibrate(*options); });
}

}  // namespace warpsim::cli
