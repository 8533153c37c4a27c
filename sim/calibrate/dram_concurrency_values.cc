#include "dram_concurrency_values.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <stdexcept>
#include <tuple>

#include "statistics.h"
#include "trace_reader.h"

namespace warpsim::calibrate {
namespace {

// stream<kInFlight, kCopy> as the compiler mangles it: "streamILi4ELb1E...".
const std::regex kStreamKernel(R"(streamILi(\d+)ELb([01])E)");

using Point = std::tuple<bool, std::uint64_t, std::uint64_t>;  // (copy, warps per SM, loads per warp)

std::uint64_t array_bytes(const BenchmarkRun& run) {
  for (const auto& line : run.log.lines_starting({"device"})) {
    const auto at = std::find(line.begin(), line.end(), "floats_per_array");
    if (at != line.end() && at + 1 != line.end()) return std::stoull(*(at + 1)) * sizeof(float);
  }
  throw std::runtime_error(fmt::format("{}: no 'device ... floats_per_array N' line", run.log.path().string()));
}

std::map<Point, double> grid_rates(const BenchmarkRun& run, std::uint64_t bytes) {
  const std::uint64_t sms = run.header.devices_size() > 0 ? run.header.devices(0).sm_count() : 0;
  if (sms == 0) throw std::runtime_error(fmt::format("{}: the trace names no device's SM count", run.trace.string()));
  std::map<Point, std::vector<double>> durations;
  TraceReader reader(run.trace.string());
  Event event;
  std::smatch match;
  while (reader.next(event)) {
    if (!event.has_kernel()) continue;
    const KernelLaunch& k = event.kernel();
    const std::string& name = k.name();
    if (!std::regex_search(name, match, kStreamKernel)) continue;
    const std::uint64_t warps = std::uint64_t{k.grid().x()} * k.block().x() / 32 / sms;
    durations[{match[2] == "1", warps, std::stoull(match[1])}].push_back(
        static_cast<double>(k.end_ns() - k.start_ns()));
  }
  if (durations.empty())
    throw std::runtime_error(fmt::format("{}: no ws_microbench_dram_inflight stream kernels", run.trace.string()));
  std::map<Point, double> rates;
  for (const auto& [point, times] : durations) rates[point] = static_cast<double>(bytes) / median(times);
  return rates;
}

// The grid in text format, as the shipped files write it (one row a warp count).
std::string grid_text(const std::map<Point, double>& rates) {
  std::set<std::uint64_t> warps, loads;
  for (const auto& [point, rate] : rates) {
    warps.insert(std::get<1>(point));
    loads.insert(std::get<2>(point));
  }
  std::string text = fmt::format("loads_per_warp: [{}]", fmt::join(loads, ", "));
  for (const std::uint64_t w : warps) {
    auto row = [&](bool copy) {
      std::vector<std::string> values;
      for (const std::uint64_t u : loads) {
        const auto it = rates.find({copy, w, u});
        if (it == rates.end())
          throw std::runtime_error(
              fmt::format("dram concurrency: no {} kernel with {} warps x {} loads", copy ? "copy" : "read", w, u));
        values.push_back(fmt::format("{:.1f}", it->second));
      }
      return fmt::format("{}", fmt::join(values, ", "));
    };
    text += fmt::format(" rows {{ warps_per_sm: {} read_gb_per_s: [{}] copy_read_gb_per_s: [{}] }}", w, row(false),
                        row(true));
  }
  return text;
}

}  // namespace

Measurements dram_concurrency_values(const BenchmarkRun& run) {
  const std::map<Point, double> rates = grid_rates(run, array_bytes(run));
  double fastest_read = 0;
  for (const auto& [point, rate] : rates)
    if (!std::get<0>(point)) fastest_read = std::max(fastest_read, rate);
  Measurements found{{"memory.dram_concurrency", grid_text(rates),
                      fmt::format("MEASURED {}: read GB/s by warps per SM x one-line loads in flight per warp, reads "
                                  "alone and a 1:1 copy's reads, the array over the median CUPTI duration",
                                  run.provenance())}};
  const Device* device = run.header.devices_size() > 0 ? &run.header.devices(0) : nullptr;
  if (device != nullptr && device->dram_bandwidth_bytes_per_s() > 0) {
    const double peak_gb_per_s = static_cast<double>(device->dram_bandwidth_bytes_per_s()) / 1e9;
    found.push_back({"memory.dram_efficiency", fmt::format("{:.4f}", fastest_read / peak_gb_per_s),
                     fmt::format("MEASURED {}: the fastest streaming read of the grid, {:.0f} GB/s, over the driver's "
                                 "peak {:.0f}",
                                 run.provenance(), fastest_read, peak_gb_per_s)});
  }
  return found;
}

}  // namespace warpsim::calibrate
