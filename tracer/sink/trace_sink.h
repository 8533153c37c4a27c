#pragma once
/// @brief Where the tracer's activity goes: builds events, resolves contexts to devices, and writes the trace.
///
/// Thread-safe: CUPTI delivers buffers on its own thread while application threads create contexts. The trace file
/// is opened when the first events arrive (by then CUPTI's DEVICE/NVLINK/PCIE records are in, and the driver's device
/// information where the tracer waits for it: they make the header). Every batch is flushed to the operating system, so
/// a killed process leaves a trace readable up to its last batch. A write failure is reported once on stderr and ends
/// tracing; it never reaches the application. Pure: no CUDA.

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "sink/activity_records.h"
#include "sink/marker_pairs.h"
#include "sink/topology.h"
#include "trace.pb.h"
#include "trace_validation.h"
#include "trace_writer.h"

namespace warpsim::tracer {

using Activity = std::variant<KernelActivity, CopyActivity, MemsetActivity, SyncActivity, EventRecordActivity,
                              MarkerActivity, DeviceActivity, NvLinkActivity, PcieActivity, ApiActivity,
                              StreamActivity>;

/// The name the operating system gives a thread of a process; nullopt when it cannot tell (the thread ended).
using ThreadNamer = std::function<std::optional<std::string>(std::uint32_t process_id, std::uint64_t thread_id)>;

/// Reads /proc/PID/task/TID/comm.
std::optional<std::string> proc_thread_name(std::uint32_t process_id, std::uint64_t thread_id);

/// Per-kernel hook before a kernel event is written (counters mode attaches the kernel's counters here).
using KernelHook = std::function<void(Event& kernel_event)>;

class TraceSink {
 public:
  /// `header` holds what the tracer knows at start (tool, host, command line, mode); devices and links are added.
  /// `warn` receives one-line messages for the user (stderr in the tracer).
  TraceSink(std::string output_path, TraceHeader header, std::function<void(const std::string&)> warn);

  /// Holds every event from now until add_driver_devices: the header is written with the first events, once, and
  /// must have the driver's view of the devices (PCI ids, peer access, opt-in shared memory), which the tracer reads
  /// at the first context; the records of API calls made before it (device queries) can reach the sink first.
  void wait_for_driver_devices();
  /// Adds the driver's devices to the header and writes the events held for them.
  void add_driver_devices(const std::vector<DriverDeviceInfo>& devices);
  void note_context(std::uint32_t context_id, std::uint32_t device_id);
  void set_kernel_hook(KernelHook hook);
  /// How host threads get their names (default: proc_thread_name); tests give their own.
  void set_thread_namer(ThreadNamer namer);

  /// Turns one CUPTI buffer's worth of activity into events, writes and flushes them.
  void consume(const std::vector<Activity>& batch);
  /// Writes one batch of a device's PM samples (traffic mode) as one event; an empty batch writes nothing.
  void add_traffic_samples(TrafficSamples samples);
  /// Writes the ranges still open and closes the trace (creating it, header only, if nothing came). Idempotent.
  void close();

  std::uint64_t events_written() const;
  /// Records the trace cannot hold (a copy without devices, a synchronization of unknown context, ...).
  std::uint64_t records_skipped() const;
  const std::string& output_path() const { return output_path_; }

 private:
  void take(const Activity& activity, std::vector<Event>& events);
  /// The first API call of a thread is preceded by a HostThread event naming it.
  void note_thread_locked(const ApiActivity& call, std::vector<Event>& events);
  std::optional<std::uint32_t> device_of_context_locked(std::uint32_t context_id) const;
  void write_locked(std::vector<Event>& events);
  bool open_locked();
  void skip_locked(const std::string& why);
  void fail_locked(const std::string& problem);

  const std::string output_path_;
  TraceHeader header_;
  std::function<void(const std::string&)> warn_;
  mutable std::mutex mutex_;
  Topology topology_;
  MarkerPairs markers_;
  KernelHook kernel_hook_;
  ThreadNamer thread_namer_ = proc_thread_name;
  std::set<std::pair<std::uint32_t, std::uint64_t>> threads_seen_;
  std::unordered_map<std::uint32_t, std::uint32_t> device_of_context_;
  std::optional<KnownDevices> devices_;  // those of the header written
  std::optional<TraceWriter> writer_;
  bool failed_ = false;
  bool closed_ = false;
  bool waiting_for_driver_devices_ = false;
  std::vector<Event> held_;  // what came while waiting for the driver's devices
  std::uint64_t skipped_ = 0;
};

}  // namespace warpsim::tracer
