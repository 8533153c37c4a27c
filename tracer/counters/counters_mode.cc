#include "counters/counters_mode.h"

#include <cupti_activity.h>
#include <cupti_driver_cbid.h>

#include "counters/counter_metrics.h"
#include "counters/launch_stream.h"

namespace warpsim::tracer {
namespace {

bool is_graph_launch(CUpti_CallbackId id) {
  return id == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch || id == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz;
}

// A launch into a stream being captured into a graph runs nothing now: profiling it fails, and breaks the capture.
bool is_captured(CUpti_CallbackId id, const void* params) {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  return cuStreamIsCapturing(launch_stream(id, params), &status) == CUDA_SUCCESS &&
         status != CU_STREAM_CAPTURE_STATUS_NONE;
}

// ENTER and EXIT of one launch happen on one thread: this says whether that thread's current launch is profiled.
thread_local RangeProfiler* t_profiling = nullptr;

}  // namespace

CountersMode::CountersMode(const TracerConfig& config, CountersStore& store, RangeProfiler::Warn warn,
                           std::function<void()> flush_records)
    : selector_(config.kernel_regex, config.launch_skip, config.launch_count),
      group_(config.metrics),
      metrics_(metric_names(config.metrics)),
      store_(store),
      warn_(std::move(warn)),
      flush_records_(std::move(flush_records)) {}

const std::vector<CUpti_CallbackId>& CountersMode::launch_callbacks() {
  static const std::vector<CUpti_CallbackId> ids = {
      CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,           CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,         CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
      CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,            CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz};
  return ids;
}

void CountersMode::on_context_created(CUcontext context) {
  {
    const std::lock_guard lock(profilers_mutex_);
    if (!initialized_ && !RangeProfiler::initialize(warn_)) return;
    initialized_ = true;
  }
  profiler_for(context);
}

RangeProfiler* CountersMode::profiler_for(CUcontext context) {
  const std::lock_guard lock(profilers_mutex_);
  if (!initialized_) return nullptr;
  auto it = profilers_.find(context);
  if (it == profilers_.end()) {
    std::uint32_t device = 0;
    cuptiGetDeviceId(context, &device);
    it = profilers_.emplace(context, RangeProfiler::create(context, device, metrics_, warn_)).first;
    const RangeProfiler* profiler = it->second.get();
    // The cache group is only worth its run in one pass: a second one replays the kernel after restoring memory.
    if (profiler && group_ == MetricGroup::kCache && profiler->passes() > 1)
      warn_("the cache metrics need " + std::to_string(profiler->passes()) + " passes on device " +
            std::to_string(device) + ": the L2 they see after the first is not the program's");
  }
  return it->second.get();
}

void CountersMode::on_launch(CUpti_CallbackId id, const CUpti_CallbackData& call) {
  // Kernel replay does not replay graph launches (seen on H100, CUDA 13.0: DecodeData failed and the launch with
  // it): their kernels run unprofiled and keep no counters.
  if (is_graph_launch(id)) {
    if (call.callbackSite == CUPTI_API_ENTER && !graph_warned_.exchange(true))
      warn_("kernels launched in CUDA graphs are not profiled (kernel replay cannot replay a graph)");
    return;
  }
  if (call.callbackSite == CUPTI_API_ENTER) {
    if (is_captured(id, call.functionParams)) return;
    const std::string name = call.symbolName ? call.symbolName : "";
    if (!selector_.select(name)) return;
    RangeProfiler* profiler = profiler_for(call.context);
    if (profiler == nullptr) return;
    profiling_.lock();
    if (!profiler->begin()) {
      profiling_.unlock();
      return;
    }
    t_profiling = profiler;
    return;
  }
  if (t_profiling == nullptr) return;
  RangeProfiler* profiler = t_profiling;
  t_profiling = nullptr;
  // The launch is asynchronous: its replayed passes must be done before the profiler stops and decodes.
  cuCtxSynchronize();
  store(call.correlationId, *profiler, profiler->end());
  // The kernel's activity record is complete now: writing it (with its counters) at once means a crash later in
  // the program loses nothing measured so far. Flushing here, between profiled launches, rather than from a timer
  // thread also keeps CUPTI's activity flush from ever running while the range profiler replays a kernel.
  flush_records_();
  profiling_.unlock();
}

void CountersMode::store(std::uint32_t correlation_id, const RangeProfiler& profiler,
                         const std::vector<std::vector<double>>& ranges) {
  for (const std::vector<double>& values : ranges) {
    KernelCounters counters;
    for (std::size_t i = 0; i < values.size(); ++i) set_counter(counters, profiler.metrics()[i], values[i]);
    store_.put(correlation_id, std::move(counters));
  }
}

}  // namespace warpsim::tracer
