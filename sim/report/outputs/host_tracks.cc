#include "outputs/host_tracks.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace warpsim::report {

std::uint64_t gpu_correlation_id(const Event& event) {
  switch (event.kind_case()) {
    case Event::kKernel: return event.kernel().correlation_id();
    case Event::kMemcpy: return event.memcpy().correlation_id();
    case Event::kMemset: return event.memset().correlation_id();
    default: return 0;
  }
}

void HostTracks::add(const Event& event, const Placements& placements) {
  if (event.kind_case() == Event::kHostThread) {
    const HostThread& thread = event.host_thread();
    if (thread.has_name()) names_[{thread.process_id(), thread.thread_id()}] = thread.name();
    return;
  }
  if (placements.count == 0) return;  // no end time: not drawn, so neither the start nor the end of an arrow
  if (event.kind_case() == Event::kApiCall) {
    add_call(event.api_call());
  } else if (const std::uint64_t correlation = gpu_correlation_id(event); correlation != 0) {
    gpu_correlations_.push_back(correlation);
  }
}

// Where a runtime call and the driver call inside it share a correlation id, the arrow starts at the runtime call:
// the outermost, so the longest.
void HostTracks::add_call(const ApiCall& call) {
  const std::uint64_t ordinal = calls_.size();
  calls_.push_back({{call.process_id(), call.thread_id()}, call.start_ns(), call.end_ns()});
  processes_.insert(call.process_id());
  if (call.correlation_id() == 0) return;
  Source& source = sources_[call.correlation_id()];
  const std::uint64_t duration = call.end_ns() - call.start_ns();
  if (source.call && source.call_ns >= duration) return;
  source.call = ordinal;
  source.call_ns = duration;
}

void HostTracks::finish(std::uint64_t first_flow_id) {
  CallStructure structure = structure_calls(calls_);
  own_point_ns_ = std::move(structure.own_point_ns);
  host_work_.reserve(structure.gaps.size());
  for (const HostInterval& gap : structure.gaps)
    host_work_.push_back(
        {{kHostProcess, TrackGroup::kApiThread, api_thread_id(gap.thread.process_id, gap.thread.thread_id)},
         gap.start_ns,
         gap.end_ns});
  count_gpu_operations();
  std::uint64_t next_id = first_flow_id;
  for (auto& [correlation, source] : sources_) {
    if (!source.call || source.gpu_operations == 0) continue;
    source.first_id = next_id;
    next_id += source.gpu_operations;
  }
  flow_count_ = next_id - first_flow_id;
  calls_ = {};  // the second pass needs only the points and the sources
}

// Sorted, the GPU operations of one correlation id follow each other; those of ids no call has draw no arrow (all of
// them in a trace without API calls: a source per operation would be most of a long timeline's memory).
void HostTracks::count_gpu_operations() {
  std::sort(gpu_correlations_.begin(), gpu_correlations_.end());
  for (auto run = gpu_correlations_.begin(); run != gpu_correlations_.end();) {
    const auto next = std::upper_bound(run, gpu_correlations_.end(), *run);
    if (const auto source = sources_.find(*run); source != sources_.end())
      source->second.gpu_operations = static_cast<std::uint32_t>(next - run);
    run = next;
  }
  gpu_correlations_ = {};
}

std::string HostTracks::thread_name(std::uint32_t process_id, std::uint64_t thread_id) const {
  const auto found = names_.find({process_id, thread_id});
  std::string name = found != names_.end() ? found->second : fmt::format("thread {}", thread_id);
  if (processes_.size() > 1) name += fmt::format(" (pid {})", process_id);
  return name;
}

std::string HostTracks::track_name(const TraceHeader& header, const TrackKey& key) const {
  if (key.group == TrackGroup::kApiThread) return thread_name(api_thread_process(key.id), api_thread_thread(key.id));
  if (key.group != TrackGroup::kHostThread || key.id == 0 || processes_.empty()) return report::track_name(header, key);
  // Markers name no process: the first thread of that id will do (thread ids are unique on one host).
  for (const auto& [thread, name] : names_)
    if (thread.thread_id == key.id) return name + " NVTX";
  return fmt::format("thread {} NVTX", key.id);
}

FlowStart FlowCursor::from_call(const ApiCall& call) {
  const std::uint64_t ordinal = next_call_++;
  if (call.correlation_id() == 0) return {};
  const auto found = host_.sources_.find(call.correlation_id());
  if (found == host_.sources_.end() || found->second.call != ordinal) return {};
  const HostTracks::Source& source = found->second;
  return {source.first_id, source.gpu_operations, host_.own_point_ns_[ordinal]};
}

std::optional<std::uint64_t> FlowCursor::into(std::uint64_t correlation_id) {
  if (correlation_id == 0) return std::nullopt;
  const auto found = host_.sources_.find(correlation_id);
  if (found == host_.sources_.end() || !found->second.call) return std::nullopt;
  return found->second.first_id + arrived_[correlation_id]++;
}

}  // namespace warpsim::report
