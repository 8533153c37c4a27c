#pragma once
/// @brief Traffic mode: a TrafficSampler on every device a context is created on, sampling while each launch runs;
/// the samples are written to the trace as TrafficSamples events when the launch returns. Kernels are recorded by the
/// activity records as in timeline mode; `warpsim record` serializes them (CUDA_LAUNCH_BLOCKING=1), so a launch has
/// returned when its kernels have ended and each sample belongs to one launch when `warpsim merge` attributes them.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "pm_sampling/traffic_sampler.h"
#include "sink/trace_sink.h"

namespace warpsim::tracer {

class TrafficMode {
 public:
  TrafficMode(std::uint64_t interval_ns, TraceSink& sink, TrafficSampler::Warn warn);

  /// Starts sampling `device` at its first context (CUPTI's profiler is initialized at the very first: it refuses
  /// inside cuInit).
  void on_context_created(std::uint32_t device);
  /// A launch on `device` begins (the launch API's entry) or has returned (its exit): sampling starts, or stops and
  /// the launch's samples are written.
  void on_launch_begin(std::uint32_t device);
  void on_launch_end(std::uint32_t device);

 private:
  /// Whether a sampler for `device` is to be started (the first call for it; CUPTI's profiler ready).
  bool claim_device(std::uint32_t device);
  TrafficSampler* sampler(std::uint32_t device);

  const std::uint64_t interval_ns_;
  TraceSink& sink_;
  TrafficSampler::Warn warn_;
  std::mutex samplers_mutex_;  // held only to look at the map: never across CUPTI calls
  bool profiler_tried_ = false;
  bool profiler_ready_ = false;
  std::map<std::uint32_t, std::unique_ptr<TrafficSampler>> samplers_;  // nullptr: the device cannot be sampled
};

}  // namespace warpsim::tracer
