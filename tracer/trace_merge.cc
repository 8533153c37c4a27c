#include "trace_merge.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "trace_error.h"
#include "trace_reader.h"
#include "trace_writer.h"

namespace warpsim::tracer {
namespace {

struct Launch {
  std::uint64_t correlation_id = 0;
  std::string name;
  KernelCounters counters;
  std::optional<SassSummary> sass;
};

// Kernels of a trace per device, in launch order. Only counters traces keep their counters and SASS summaries.
using LaunchesByDevice = std::map<std::uint32_t, std::vector<Launch>>;

LaunchesByDevice read_launches(const std::filesystem::path& path, bool keep_counters) {
  TraceReader reader(path);
  LaunchesByDevice launches;
  Event event;
  while (reader.next(event)) {
    if (!event.has_kernel()) continue;
    KernelLaunch* kernel = event.mutable_kernel();
    Launch launch{kernel->correlation_id(), kernel->name(), {}, std::nullopt};
    if (keep_counters && kernel->has_counters()) launch.counters.Swap(kernel->mutable_counters());
    if (keep_counters && kernel->has_sass()) launch.sass = std::move(*kernel->mutable_sass());
    launches[kernel->device_id()].push_back(std::move(launch));
  }
  for (auto& [device, list] : launches)
    std::stable_sort(list.begin(), list.end(),
                     [](const Launch& a, const Launch& b) { return a.correlation_id < b.correlation_id; });
  return launches;
}

// Where each timeline kernel stands in its device's launch order.
std::map<std::pair<std::uint32_t, std::uint64_t>, std::size_t> launch_index(const LaunchesByDevice& launches) {
  std::map<std::pair<std::uint32_t, std::uint64_t>, std::size_t> index;
  for (const auto& [device, list] : launches)
    for (std::size_t i = 0; i < list.size(); ++i) index[{device, list[i].correlation_id}] = i;
  return index;
}

void check_same_launches(const LaunchesByDevice& timeline, const LaunchesByDevice& counters,
                         const std::filesystem::path& counters_path) {
  for (const auto& [device, list] : timeline) {
    const auto it = counters.find(device);
    const std::size_t other = it == counters.end() ? 0 : it->second.size();
    if (other != list.size())
      throw TraceError(counters_path.string(), std::nullopt,
                       "device " + std::to_string(device) + " launched " + std::to_string(other) +
                           " kernels here but " + std::to_string(list.size()) +
                           " in the timeline trace: not a recording of the same run");
    for (std::size_t i = 0; i < list.size(); ++i)
      if (it->second[i].name != list[i].name)
        throw TraceError(counters_path.string(), std::nullopt,
                         "kernel " + std::to_string(i) + " on device " + std::to_string(device) + " is " +
                             it->second[i].name + " here but " + list[i].name + " in the timeline trace");
  }
}

}  // namespace

MergeSummary merge_counters(const std::filesystem::path& timeline,
                            const std::vector<std::filesystem::path>& counter_traces,
                            const std::filesystem::path& output) {
  const LaunchesByDevice order = read_launches(timeline, false);
  const auto index = launch_index(order);
  std::vector<LaunchesByDevice> counters;
  for (const auto& path : counter_traces) {
    counters.push_back(read_launches(path, true));
    check_same_launches(order, counters.back(), path);
  }

  TraceReader reader(timeline);
  const std::filesystem::path partial = output.string() + ".partial";
  MergeSummary summary;
  try {
    TraceWriter writer(partial, reader.header());
    Event event;
    while (reader.next(event)) {
      if (event.has_kernel()) {
        KernelLaunch* kernel = event.mutable_kernel();
        const std::size_t i = index.at({kernel->device_id(), kernel->correlation_id()});
        for (const LaunchesByDevice& run : counters) {
          const Launch& launch = run.at(kernel->device_id())[i];
          if (launch.counters.ByteSizeLong() > 0) kernel->mutable_counters()->MergeFrom(launch.counters);
          // The code is the same in both runs: a timeline recorded without the summary takes the counters run's.
          if (!kernel->has_sass() && launch.sass) *kernel->mutable_sass() = *launch.sass;
        }
        ++summary.kernels;
        if (kernel->has_counters()) ++summary.kernels_with_counters;
      }
      writer.write(event);
    }
    writer.close();
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(partial, ignored);
    throw;
  }
  summary.truncation_warning = reader.truncation_warning();
  std::filesystem::rename(partial, output);
  return summary;
}

}  // namespace warpsim::tracer
