#include "pm_sampling/traffic_mode.h"

#include <cupti_profiler_target.h>

#include <string>
#include <utility>

namespace warpsim::tracer {
namespace {

bool initialize_profiler(const TrafficSampler::Warn& warn) {
  CUpti_Profiler_Initialize_Params p{};
  p.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE;
  const CUptiResult result = cuptiProfilerInitialize(&p);
  if (result == CUPTI_SUCCESS) return true;
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  warn(std::string("traffic sampling unavailable: cuptiProfilerInitialize failed: ") +
       (text ? text : "unknown CUPTI error") + "; the trace has kernels but no samples");
  return false;
}

}  // namespace

TrafficMode::TrafficMode(std::uint64_t interval_ns, TraceSink& sink, TrafficSampler::Warn warn)
    : interval_ns_(interval_ns), sink_(sink), warn_(std::move(warn)) {}

void TrafficMode::on_context_created(std::uint32_t device) {
  if (!claim_device(device)) return;
  std::unique_ptr<TrafficSampler> sampler = TrafficSampler::start(device, interval_ns_, warn_);
  const std::lock_guard lock(samplers_mutex_);
  samplers_[device] = std::move(sampler);
}

bool TrafficMode::claim_device(std::uint32_t device) {
  const std::lock_guard lock(samplers_mutex_);
  if (!profiler_tried_) {
    profiler_tried_ = true;
    profiler_ready_ = initialize_profiler(warn_);
  }
  return profiler_ready_ && samplers_.emplace(device, nullptr).second;
}

// Samplers are never removed: the pointer stays valid after the lock is released.
TrafficSampler* TrafficMode::sampler(std::uint32_t device) {
  const std::lock_guard lock(samplers_mutex_);
  const auto it = samplers_.find(device);
  return it == samplers_.end() ? nullptr : it->second.get();
}

void TrafficMode::on_launch_begin(std::uint32_t device) {
  if (TrafficSampler* s = sampler(device)) s->begin();
}

void TrafficMode::on_launch_end(std::uint32_t device) {
  if (TrafficSampler* s = sampler(device))
    for (TrafficSamples& batch : s->end()) sink_.add_traffic_samples(std::move(batch));
}

}  // namespace warpsim::tracer
