#include "trace_merge.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "atomic_output.h"
#include "kernel_alignment.h"
#include "trace_error.h"
#include "trace_reader.h"
#include "trace_writer.h"
#include "traffic_profile.h"

namespace warpsim::trace {
namespace {

struct Launch {
  std::uint64_t correlation_id = 0;
  std::uint32_t key = 0;  // equal in two traces of one merge iff name, grid and block are
  std::string name;
  KernelCounters counters;
  std::optional<SassSummary> sass;
  KernelSpan span;                        // when it ran, on its run's clock
  std::optional<TrafficProfile> traffic;  // traffic runs: attribute_traffic
};

// Kernels of a trace per device, in launch order. Only counters traces keep their counters and SASS summaries.
using LaunchesByDevice = std::map<std::uint32_t, std::vector<Launch>>;

// Numbers each distinct (name, grid, block), so that the alignment compares integers, not strings.
class LaunchKeys {
 public:
  std::uint32_t of(const KernelLaunch& kernel) {
    std::string key = kernel.name();
    for (const Dim3* dim : {&kernel.grid(), &kernel.block()})
      for (std::uint32_t extent : {dim->x(), dim->y(), dim->z()}) key += '\0' + std::to_string(extent);
    return ids_.emplace(std::move(key), static_cast<std::uint32_t>(ids_.size())).first->second;
  }

 private:
  std::unordered_map<std::string, std::uint32_t> ids_;
};

LaunchesByDevice read_launches(const std::filesystem::path& path, bool keep_counters, LaunchKeys& keys) {
  TraceReader reader(path);
  LaunchesByDevice launches;
  Event event;
  while (reader.next(event)) {
    if (!event.has_kernel()) continue;
    KernelLaunch* kernel = event.mutable_kernel();
    Launch launch;
    launch.correlation_id = kernel->correlation_id();
    launch.key = keys.of(*kernel);
    launch.name = kernel->name();
    launch.span = {kernel->start_ns(), kernel->end_ns()};
    if (keep_counters && kernel->has_counters()) launch.counters.Swap(kernel->mutable_counters());
    if (keep_counters && kernel->has_sass()) launch.sass = std::move(*kernel->mutable_sass());
    launches[kernel->device_id()].push_back(std::move(launch));
  }
  for (auto& [device, list] : launches)
    std::stable_sort(list.begin(), list.end(),
                     [](const Launch& a, const Launch& b) { return a.correlation_id < b.correlation_id; });
  return launches;
}

CaptureMode capture_mode(const std::filesystem::path& path) { return TraceReader(path).header().mode(); }

// Gives each kernel of a traffic run the profile of the run's samples of its device. A second pass over the file:
// samples come in batches between the kernels, and there are far more of them (one per few microseconds).
void attribute_traffic(const std::filesystem::path& path, LaunchesByDevice& launches) {
  std::map<std::uint32_t, DeviceTraffic> devices;
  for (const auto& [device, list] : launches) {
    std::vector<KernelSpan> spans;
    spans.reserve(list.size());
    for (const Launch& launch : list) spans.push_back(launch.span);
    devices.emplace(device, DeviceTraffic(spans));
  }
  TraceReader reader(path);
  Event event;
  while (reader.next(event)) {
    if (!event.has_traffic_samples()) continue;
    const auto it = devices.find(event.traffic_samples().device_id());
    if (it == devices.end()) continue;  // a device that ran no kernel
    for (const TrafficSample& sample : event.traffic_samples().samples()) it->second.add(sample);
  }
  for (auto& [device, list] : launches)
    for (std::size_t i = 0; i < list.size(); ++i) list[i].traffic = devices.at(device).profile(i);
}

// Where each timeline kernel stands in its device's launch order.
std::map<std::pair<std::uint32_t, std::uint64_t>, std::size_t> launch_index(const LaunchesByDevice& launches) {
  std::map<std::pair<std::uint32_t, std::uint64_t>, std::size_t> index;
  for (const auto& [device, list] : launches)
    for (std::size_t i = 0; i < list.size(); ++i) index[{device, list[i].correlation_id}] = i;
  return index;
}

// A device that launched kernels in one run and none in the other: another program, or another machine.
void check_same_devices(const LaunchesByDevice& timeline, const LaunchesByDevice& counters,
                        const std::filesystem::path& counters_path) {
  for (const auto& [a, b, where] : {std::tuple{&timeline, &counters, "in the timeline trace but none here"},
                                    std::tuple{&counters, &timeline, "here but none in the timeline trace"}})
    for (const auto& [device, list] : *a)
      if (!b->contains(device))
        throw TraceError(counters_path.string(), std::nullopt,
                         "device " + std::to_string(device) + " launched " + std::to_string(list.size()) + " kernels " +
                             where + ": not a recording of the same program");
}

std::vector<std::uint32_t> keys_of(const std::vector<Launch>& launches) {
  std::vector<std::uint32_t> keys;
  keys.reserve(launches.size());
  for (const Launch& launch : launches) keys.push_back(launch.key);
  return keys;
}

// Counts and names (the first few) the kernels of one device that found no partner, on both sides.
void note_unmatched(std::uint32_t device, const std::vector<Launch>& timeline, const std::vector<Launch>& counters,
                    const std::vector<std::size_t>& partners, CountersMatch& match) {
  std::vector<bool> taken(counters.size(), false);
  for (std::size_t i = 0; i < timeline.size(); ++i) {
    if (partners[i] != kUnpaired) {
      taken[partners[i]] = true;
      ++match.matched;
    } else if (++match.unmatched_in_timeline <= CountersMatch::kListed) {
      match.timeline_examples.push_back({device, i, timeline[i].name});
    }
  }
  for (std::size_t j = 0; j < counters.size(); ++j)
    if (!taken[j] && ++match.unmatched_here <= CountersMatch::kListed)
      match.here_examples.push_back({device, j, counters[j].name});
}

// For each device, each timeline kernel's partner in a counters trace (its index there) or kUnpaired.
using Partners = std::map<std::uint32_t, std::vector<std::size_t>>;

// Aligns each device's launches. Fewer than half of a device's timeline kernels paired is not a library choosing
// other kernels here and there but another program (or other inputs): refused rather than merged half-blind.
Partners pair_launches(const LaunchesByDevice& timeline, const LaunchesByDevice& counters, CountersMatch& match) {
  check_same_devices(timeline, counters, match.trace);
  Partners partners;
  for (const auto& [device, list] : timeline) {
    const std::vector<Launch>& other = counters.at(device);
    std::vector<std::size_t> paired = align_sequences(keys_of(list), keys_of(other));
    const std::uint64_t before = match.matched;
    note_unmatched(device, list, other, paired, match);
    const std::uint64_t matched = match.matched - before;
    if (2 * matched < list.size())
      throw TraceError(match.trace.string(), std::nullopt,
                       "device " + std::to_string(device) + ": only " + std::to_string(matched) + " of " +
                           std::to_string(list.size()) +
                           " timeline kernels pair with a launch of the same name, grid and block here: not a "
                           "recording of the same program");
    match.timeline_kernels += list.size();
    partners.emplace(device, std::move(paired));
  }
  return partners;
}

// A counters trace's launches and, per device, which of them each timeline kernel takes its counters from.
struct CountersRun {
  LaunchesByDevice launches;
  Partners partners;
};

// Gives a timeline kernel (the i-th of its device) the counters and traffic profile, and where it has none the SASS
// summary, of its partners. A kernel without a partner takes nothing: an unpaired launch in the same place ran other
// code.
void take_counters(KernelLaunch& kernel, std::size_t i, const std::vector<CountersRun>& runs) {
  for (const CountersRun& run : runs) {
    const std::size_t j = run.partners.at(kernel.device_id())[i];
    if (j == kUnpaired) continue;
    const Launch& launch = run.launches.at(kernel.device_id())[j];
    if (launch.counters.ByteSizeLong() > 0) kernel.mutable_counters()->MergeFrom(launch.counters);
    if (launch.traffic) *kernel.mutable_traffic_profile() = *launch.traffic;
    // The code is the same in both runs: a timeline recorded without the summary takes the counters run's.
    if (!kernel.has_sass() && launch.sass) *kernel.mutable_sass() = *launch.sass;
  }
}

// Copies the timeline to `path` with the counters and traffic profiles on its kernels. Raw samples stay behind: the
// profiles are what they were recorded for.
void write_merged(TraceReader& reader, const LaunchesByDevice& order, const std::vector<CountersRun>& runs,
                  const std::filesystem::path& path, MergeSummary& summary) {
  const auto index = launch_index(order);
  TraceWriter writer(path, reader.header());
  Event event;
  while (reader.next(event)) {
    if (event.has_traffic_samples()) continue;
    if (event.has_kernel()) {
      KernelLaunch* kernel = event.mutable_kernel();
      take_counters(*kernel, index.at({kernel->device_id(), kernel->correlation_id()}), runs);
      ++summary.kernels;
      if (kernel->has_counters()) ++summary.kernels_with_counters;
      if (kernel->has_traffic_profile()) ++summary.kernels_with_traffic_profile;
    }
    writer.write(event);
  }
  writer.close();
}

}  // namespace

MergeSummary merge_counters(const std::filesystem::path& timeline,
                            const std::vector<std::filesystem::path>& counter_traces,
                            const std::filesystem::path& output) {
  std::vector<std::filesystem::path> inputs{timeline};
  inputs.insert(inputs.end(), counter_traces.begin(), counter_traces.end());
  refuse_outputs_over_inputs({output}, inputs);
  if (capture_mode(timeline) == CAPTURE_MODE_TRAFFIC)
    throw TraceError(timeline.string(), std::nullopt,
                     "a traffic-mode trace (its kernels ran one at a time): give it after the timeline trace");
  LaunchKeys keys;
  const LaunchesByDevice order = read_launches(timeline, false, keys);
  MergeSummary summary;
  std::vector<CountersRun> runs;
  for (const auto& path : counter_traces) {
    CountersMatch& match = summary.counters.emplace_back();
    match.trace = path;
    match.traffic = capture_mode(path) == CAPTURE_MODE_TRAFFIC;
    CountersRun run{read_launches(path, true, keys), {}};
    if (match.traffic) attribute_traffic(path, run.launches);
    run.partners = pair_launches(order, run.launches, match);
    runs.push_back(std::move(run));
  }

  TraceReader reader(timeline);
  write_merged(reader, order, runs, output, summary);  // whole or not at all (TraceWriter)
  summary.truncation_warning = reader.truncation_warning();
  return summary;
}

}  // namespace warpsim::trace
