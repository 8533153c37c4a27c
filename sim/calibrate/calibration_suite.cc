#include "calibration_suite.h"

#include <fmt/format.h>

#include <stdexcept>

#include "cache_values.h"
#include "chain_values.h"
#include "combined_runs.h"
#include "copy_values.h"
#include "device_values.h"
#include "dram_concurrency_values.h"
#include "latency_values.h"
#include "launch_values.h"

namespace warpsim::calibrate {

const std::vector<Benchmark>& calibration_suite() {
  static const std::vector<Benchmark> suite = {
      {"microbench_l1", {}, cache_values},
      {"microbench_launch", {}, launch_values},
      {"microbench_copy", {"--step", "2", "--repeat", "5"}, copy_values},
      {"microbench_latency", {}, latency_values},
      {"microbench_chain", {}, chain_values},
      {"microbench_dram_inflight", {}, dram_concurrency_values},
  };
  return suite;
}

FolderMeasurements measure_folder(const std::filesystem::path& folder) {
  FolderMeasurements found;
  bool have_device = false;
  for (const Benchmark& benchmark : calibration_suite()) {
    if (!std::filesystem::exists(folder / (benchmark.name + ".log"))) {
      found.missing.push_back(benchmark.name);
      continue;
    }
    const BenchmarkRun run = read_benchmark_run(folder, benchmark.name);
    // Every trace names the same device; a header may lack the driver's fields (traces of tracers before
    // 2026-11-28 lost them at times): the union of the headers' fields.
    if (run.header.devices_size() > 0) {
      found.device.MergeFrom(run.header.devices(0));
      have_device = true;
    }
    Measurements values = benchmark.measure(run);
    found.measurements.insert(found.measurements.end(), values.begin(), values.end());
  }
  if (found.missing.size() == calibration_suite().size())
    throw std::runtime_error(
        fmt::format("{}: no output of any calibration benchmark (NAME.log, NAME.wstrace)", folder.string()));
  if (!have_device) throw std::runtime_error(fmt::format("{}: no benchmark trace names a device", folder.string()));
  Measurements device = device_values(found.device);
  found.measurements.insert(found.measurements.begin(), device.begin(), device.end());
  return found;
}

std::vector<std::filesystem::path> run_folders(const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> runs;
  for (int run = 1; std::filesystem::is_directory(folder / fmt::format("run{}", run)); ++run)
    runs.push_back(folder / fmt::format("run{}", run));
  if (runs.empty()) runs.push_back(folder);
  return runs;
}

FolderMeasurements measure_runs(const std::vector<std::filesystem::path>& folders) {
  std::vector<Measurements> runs;
  FolderMeasurements first;
  for (const std::filesystem::path& folder : folders) {
    FolderMeasurements run = measure_folder(folder);
    if (runs.empty()) {
      first.device = run.device;
      first.missing = run.missing;
    }
    runs.push_back(std::move(run.measurements));
  }
  first.measurements = combine_runs(runs);
  return first;
}

}  // namespace warpsim::calibrate
