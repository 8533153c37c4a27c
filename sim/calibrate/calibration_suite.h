#pragma once
// The benchmarks `warpsim calibrate` runs (the shipped workloads/microbench_* programs, built with the tracer) and
// what each one measures; and the measurements of a folder where they were recorded.
#include <filesystem>
#include <string>
#include <vector>

#include "benchmark_run.h"
#include "measurement.h"
#include "trace.pb.h"

namespace warpsim::calibrate {

struct Benchmark {
  std::string name;               // workloads/NAME, executable ws_NAME
  std::vector<std::string> args;  // how calibrate runs it
  Measurements (*measure)(const BenchmarkRun&);
};

/// In the order they run: the quick ones first.
const std::vector<Benchmark>& calibration_suite();

struct FolderMeasurements {
  Device device;                     // the device the benchmarks ran on (the first trace's first device)
  Measurements measurements;         // the device's properties, then each benchmark's values in suite order
  std::vector<std::string> missing;  // benchmarks of the suite the folder has no output of (an older calibration)
};

/// The measurements from FOLDER/NAME.wstrace and FOLDER/NAME.log of every benchmark of the suite; a benchmark without
/// its log is listed as missing (its values stay the base file's). Throws std::runtime_error when none is there, or
/// naming the file when a value cannot be taken from it.
FolderMeasurements measure_folder(const std::filesystem::path& folder);

/// The folders of a calibration's runs: FOLDER/run1, FOLDER/run2, ... where FOLDER/run1 exists, else FOLDER alone.
std::vector<std::filesystem::path> run_folders(const std::filesystem::path& folder);

/// Every run folder measured, then combined (combined_runs.h: medians, each value's spread in its comment).
FolderMeasurements measure_runs(const std::vector<std::filesystem::path>& folders);

}  // namespace warpsim::calibrate
