#pragma once
// What one calibration benchmark left in the calibration folder: its timeline trace (CUPTI times) and its output.
#include <filesystem>
#include <string>

#include "benchmark_log.h"
#include "trace.pb.h"

namespace warpsim::calibrate {

struct BenchmarkRun {
  std::string name;             // workloads/NAME, run as ws_NAME
  std::filesystem::path trace;  // FOLDER/NAME.wstrace, recorded in timeline mode (may be missing: see below)
  BenchmarkLog log;             // FOLDER/NAME.log: what the benchmark printed
  TraceHeader header;           // the trace's header: the device and when it ran (empty without the trace)

  /// "ws_NAME on DEVICE, YYYY-MM-DD": the part of every comment that says what ran, where and when.
  std::string provenance() const;
};

/// Reads FOLDER/NAME.log and, where it exists, the header of FOLDER/NAME.wstrace (the benchmarks whose values come
/// from their output alone need no trace: an earlier plain run's output will do). Throws std::runtime_error naming a
/// missing log or an unreadable trace.
BenchmarkRun read_benchmark_run(const std::filesystem::path& folder, const std::string& name);

}  // namespace warpsim::calibrate
