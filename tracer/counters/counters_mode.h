#pragma once
/// @brief Counters mode: around every selected kernel launch, the range profiler of the launch's context measures
/// the kernel (CUPTI replays it per pass), and the values wait in a CountersStore for the kernel's activity record.

#include <cupti_callbacks.h>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "counters/counters_store.h"
#include "counters/launch_selector.h"
#include "counters/range_profiler.h"
#include "tracer_config.h"

namespace warpsim::tracer {

class CountersMode {
 public:
  /// `flush_records` hands CUPTI's completed activity records to the trace; it is called after each profiled launch
  /// (see on_launch).
  CountersMode(const TracerConfig& config, CountersStore& store, RangeProfiler::Warn warn,
               std::function<void()> flush_records);

  /// The driver API launch calls to watch (cuLaunchKernel, ...Ex, cooperative, graph launches, _ptsz variants).
  static const std::vector<CUpti_CallbackId>& launch_callbacks();
  /// Sets the range profiler up on a new context (CUPTI accepts its initialization only once the driver is up and
  /// from this callback, not from InitializeInjection nor from a launch callback).
  void on_context_created(CUcontext context);
  /// Called at ENTER and EXIT of each of those calls, on the launching thread.
  void on_launch(CUpti_CallbackId id, const CUpti_CallbackData& call);

 private:
  RangeProfiler* profiler_for(CUcontext context);
  void store(std::uint32_t correlation_id, const RangeProfiler& profiler,
             const std::vector<std::vector<double>>& ranges);

  LaunchSelector selector_;
  MetricGroup group_;
  std::vector<std::string> metrics_;
  CountersStore& store_;
  RangeProfiler::Warn warn_;
  std::function<void()> flush_records_;
  std::mutex profiling_;  // held from a profiled launch's ENTER to its EXIT: one profiled launch at a time
  std::mutex profilers_mutex_;
  bool initialized_ = false;  // cuptiProfilerInitialize succeeded
  std::atomic<bool> graph_warned_{false};
  std::map<CUcontext, std::unique_ptr<RangeProfiler>> profilers_;  // nullptr: the context cannot be profiled
};

}  // namespace warpsim::tracer
