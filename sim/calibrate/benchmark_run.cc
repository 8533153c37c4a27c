#include "benchmark_run.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <chrono>

#include "trace_reader.h"

namespace warpsim::calibrate {

std::string BenchmarkRun::provenance() const {
  const std::string device = header.devices_size() > 0 ? header.devices(0).name() : log.device_name();
  const std::string on = fmt::format("ws_{} on {}", name, device.empty() ? "an unnamed device" : device);
  if (header.start_time_unix_ns() == 0) return on;
  const auto when = std::chrono::sys_seconds(std::chrono::seconds(header.start_time_unix_ns() / 1'000'000'000));
  return fmt::format("{}, {:%Y-%m-%d}", on, when);
}

BenchmarkRun read_benchmark_run(const std::filesystem::path& folder, const std::string& name) {
  const std::filesystem::path trace = folder / (name + ".wstrace");
  BenchmarkLog log = BenchmarkLog::read(folder / (name + ".log"));
  TraceHeader header;
  if (std::filesystem::exists(trace)) header = TraceReader(trace.string()).header();
  return {name, trace, std::move(log), std::move(header)};
}

}  // namespace warpsim::calibrate
