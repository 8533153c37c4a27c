#include "sink/trace_sink.h"

#include <fstream>
#include <utility>

#include "sink/record_builder.h"
#include "trace_error.h"

namespace warpsim::tracer {

TraceSink::TraceSink(std::string output_path, TraceHeader header, std::function<void(const std::string&)> warn)
    : output_path_(std::move(output_path)), header_(std::move(header)), warn_(std::move(warn)) {}

void TraceSink::wait_for_driver_devices() {
  const std::lock_guard lock(mutex_);
  waiting_for_driver_devices_ = true;
}

void TraceSink::add_driver_devices(const std::vector<DriverDeviceInfo>& devices) {
  const std::lock_guard lock(mutex_);
  for (const DriverDeviceInfo& info : devices) topology_.add(info);
  waiting_for_driver_devices_ = false;
  write_locked(held_);
  held_ = {};
}

void TraceSink::note_context(std::uint32_t context_id, std::uint32_t device_id) {
  const std::lock_guard lock(mutex_);
  device_of_context_[context_id] = device_id;
}

void TraceSink::set_kernel_hook(KernelHook hook) {
  const std::lock_guard lock(mutex_);
  kernel_hook_ = std::move(hook);
}

std::optional<std::string> proc_thread_name(std::uint32_t process_id, std::uint64_t thread_id) {
  std::ifstream comm("/proc/" + std::to_string(process_id) + "/task/" + std::to_string(thread_id) + "/comm");
  std::string name;
  if (!comm || !std::getline(comm, name)) return std::nullopt;
  return name;
}

void TraceSink::set_thread_namer(ThreadNamer namer) {
  const std::lock_guard lock(mutex_);
  thread_namer_ = std::move(namer);
}

std::optional<std::uint32_t> TraceSink::device_of_context_locked(std::uint32_t context_id) const {
  const auto it = device_of_context_.find(context_id);
  if (it == device_of_context_.end()) return std::nullopt;
  return it->second;
}

void TraceSink::note_thread_locked(const ApiActivity& call, std::vector<Event>& events) {
  if (!threads_seen_.emplace(call.process_id, call.thread_id).second) return;
  events.push_back(build_host_thread(call.process_id, call.thread_id, thread_namer_(call.process_id, call.thread_id)));
}

void TraceSink::consume(const std::vector<Activity>& batch) {
  const std::lock_guard lock(mutex_);
  std::vector<Event> events;
  events.reserve(batch.size());
  for (const Activity& activity : batch) take(activity, events);
  write_locked(events);
}

void TraceSink::add_traffic_samples(TrafficSamples samples) {
  if (samples.samples().empty()) return;
  std::vector<Event> events(1);
  *events.front().mutable_traffic_samples() = std::move(samples);
  const std::lock_guard lock(mutex_);
  write_locked(events);
}

// Topology records feed the header; everything else becomes at most one event.
void TraceSink::take(const Activity& activity, std::vector<Event>& events) {
  auto keep = [&](std::optional<Event> event, const char* why_not) {
    if (event) events.push_back(std::move(*event));
    else skip_locked(why_not);
  };
  std::visit(
      [&](const auto& a) {
        using T = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<T, DeviceActivity> || std::is_same_v<T, NvLinkActivity> ||
                      std::is_same_v<T, PcieActivity>) {
          topology_.add(a);
        } else if constexpr (std::is_same_v<T, KernelActivity>) {
          Event event = build_kernel(a);
          if (kernel_hook_) kernel_hook_(event);
          events.push_back(std::move(event));
        } else if constexpr (std::is_same_v<T, CopyActivity>) {
          keep(build_copy(a), "a copy of unknown kind, or a peer copy without its devices");
        } else if constexpr (std::is_same_v<T, MemsetActivity>) {
          events.push_back(build_memset(a));
        } else if constexpr (std::is_same_v<T, EventRecordActivity>) {
          events.push_back(build_event_record(a));
        } else if constexpr (std::is_same_v<T, SyncActivity>) {
          const auto device = device_of_context_locked(a.context_id);
          keep(device ? build_sync(a, *device) : std::nullopt,
               "a synchronization of unknown type or of a context never seen");
        } else if constexpr (std::is_same_v<T, StreamActivity>) {
          const auto device = device_of_context_locked(a.context_id);
          keep(device ? build_stream(a, *device) : std::nullopt, "a stream of unknown kind or of a context never seen");
        } else if constexpr (std::is_same_v<T, ApiActivity>) {
          note_thread_locked(a, events);
          events.push_back(build_api_call(a));
        } else if constexpr (std::is_same_v<T, MarkerActivity>) {
          if (auto event = markers_.add(a)) events.push_back(std::move(*event));
        }
      },
      activity);
}

void TraceSink::write_locked(std::vector<Event>& events) {
  if (failed_ || closed_ || events.empty()) return;
  if (waiting_for_driver_devices_ && !writer_) {
    held_.insert(held_.end(), std::make_move_iterator(events.begin()), std::make_move_iterator(events.end()));
    return;
  }
  if (!writer_ && !open_locked()) return;
  try {
    for (const Event& event : events) {
      // One inconsistent record (e.g. a device the header lacks) must not end the trace: skip it, say so once.
      if (auto problem = find_event_problem(event, *devices_)) {
        skip_locked("a " + event_kind_name(event) + " event " + *problem);
        continue;
      }
      writer_->write(event);
    }
    writer_->flush();
  } catch (const TraceError& error) {
    fail_locked(error.what());
  }
}

bool TraceSink::open_locked() {
  TraceHeader header = header_;
  for (Device& device : topology_.devices()) *header.add_devices() = std::move(device);
  for (Link& link : topology_.links()) *header.add_links() = std::move(link);
  try {
    devices_.emplace(header);
    writer_.emplace(output_path_, std::move(header));
    return true;
  } catch (const TraceError& error) {
    fail_locked(error.what());
    return false;
  }
}

void TraceSink::close() {
  const std::lock_guard lock(mutex_);
  if (closed_) return;
  waiting_for_driver_devices_ = false;  // none came (no context was created): the header goes without them
  write_locked(held_);
  std::vector<Event> open_ranges = markers_.drain_open();
  write_locked(open_ranges);
  closed_ = true;
  if (failed_) return;
  try {
    if (!writer_ && !open_locked()) return;
    writer_->close();
  } catch (const TraceError& error) {
    fail_locked(error.what());
  }
}

void TraceSink::skip_locked(const std::string& why) {
  if (skipped_++ == 0) warn_("skipping records the trace cannot hold (first: " + why + ")");
}

void TraceSink::fail_locked(const std::string& problem) {
  if (!failed_) warn_("tracing stopped, the application goes on: " + problem);
  failed_ = true;
}

std::uint64_t TraceSink::events_written() const {
  const std::lock_guard lock(mutex_);
  return writer_ ? writer_->events_written() : 0;
}

std::uint64_t TraceSink::records_skipped() const {
  const std::lock_guard lock(mutex_);
  return skipped_;
}

}  // namespace warpsim::tracer
