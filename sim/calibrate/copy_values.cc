#include "copy_values.h"

#include <fmt/format.h>

#include <map>
#include <stdexcept>

#include "statistics.h"
#include "trace_reader.h"

namespace warpsim::calibrate {
namespace {

using DurationsBySize = std::map<std::uint64_t, std::vector<double>>;  // bytes -> CUPTI durations (ns)

struct Operations {
  DurationsBySize memsets, device_copies;
};

Operations operations(const BenchmarkRun& run) {
  TraceReader reader(run.trace.string());
  Operations found;
  Event event;
  while (reader.next(event)) {
    if (event.has_memset()) {
      const Memset& m = event.memset();
      found.memsets[m.bytes()].push_back(static_cast<double>(m.end_ns() - m.start_ns()));
    } else if (event.has_memcpy() && event.memcpy().kind() == Memcpy::DTOD) {
      const Memcpy& c = event.memcpy();
      found.device_copies[c.bytes()].push_back(static_cast<double>(c.end_ns() - c.start_ns()));
    }
  }
  return found;
}

Measurement largest_rate(const DurationsBySize& durations, const char* field, const char* what,
                         const BenchmarkRun& run) {
  if (durations.empty())
    throw std::runtime_error(
        fmt::format("{}: no {} in the trace (did ws_{} run to the end?)", run.trace.string(), what, run.name));
  const auto& [bytes, times] = *durations.rbegin();
  const double gb_per_s = static_cast<double>(bytes) / median(times);  // bytes per ns are GB/s
  return {field, fmt::format("{:.0f}", gb_per_s),
          fmt::format("MEASURED {}: {} MiB {}, median of {} CUPTI durations", run.provenance(), bytes >> 20, what,
                      times.size())};
}

}  // namespace

Measurements copy_values(const BenchmarkRun& run) {
  const Operations found = operations(run);
  return {
      largest_rate(found.memsets, "memory.memset_bandwidth_gb_per_s", "cudaMemset", run),
      largest_rate(found.device_copies, "memory.device_copy_bandwidth_gb_per_s", "device-to-device cudaMemcpy", run)};
}

}  // namespace warpsim::calibrate
