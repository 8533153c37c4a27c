// libwarpsim_tracer.so: loaded into an unmodified CUDA application by the driver through CUDA_INJECTION64_PATH,
// which calls InitializeInjection() from cuInit. Records the run with CUPTI into a .wstrace file (settings:
// tracer_config.h). Whatever goes wrong here is reported on stderr and the application runs on, untraced if need be.
#include <cupti_activity.h>
#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>
#include <cupti_result.h>
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>

#include "counters/counters_mode.h"
#include "counters/counters_store.h"
#include "counters/range_profiler.h"
#include "cupti/activity_buffers.h"
#include "cupti/crash_report.h"
#include "cupti/driver_devices.h"
#include "cupti/periodic_flusher.h"
#include "cupti/process_info.h"
#include "fatbin.h"
#include "pm_sampling/traffic_mode.h"
#include "sass_summary.h"
#include "sink/record_builder.h"
#include "sink/trace_sink.h"
#include "tracer_config.h"

namespace warpsim::tracer {
namespace {

void warn(const std::string& message) { std::fprintf(stderr, "warpsim tracer: %s\n", message.c_str()); }

// With WARPSIM_TRACE_VERBOSE set, says how long each of the tracer's own steps took: where tracing overhead goes.
class StepTimer {
 public:
  explicit StepTimer(const char* step) : step_(step), start_(std::chrono::steady_clock::now()) {}
  ~StepTimer() {
    static const bool verbose = std::getenv("WARPSIM_TRACE_VERBOSE") != nullptr;
    if (!verbose) return;
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start_;
    std::fprintf(stderr, "warpsim tracer: %s took %.1f ms\n", step_, took.count());
  }
  StepTimer(const StepTimer&) = delete;
  StepTimer& operator=(const StepTimer&) = delete;

 private:
  const char* step_;
  std::chrono::steady_clock::time_point start_;
};

// Allocated once and never freed on purpose: CUPTI may hand over buffers from its own thread while the process
// exits, after static destructors would have run.
TraceSink* g_trace = nullptr;
TracerConfig g_config;
PeriodicFlusher* g_flusher = nullptr;  // like g_trace, never freed
CountersStore* g_counters = nullptr;    // counters mode only; like g_trace, never freed
CountersMode* g_counters_mode = nullptr;
TrafficMode* g_traffic_mode = nullptr;   // traffic mode only; like g_trace, never freed
trace::SassSummaries* g_sass = nullptr;  // like g_trace, never freed
std::atomic<bool> g_sass_warned{false};
std::once_flag g_driver_info_once;

void flush_all() { cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED); }

void on_context_created(CUcontext context) {
  std::call_once(g_driver_info_once, [] {
    const StepTimer timer("reading the devices at the first context");
    g_trace->add_driver_devices(read_driver_devices());
    // The DEVICE, NVLINK and PCIE records dumped at start sit in a buffer of their own that CUPTI may hand over after
    // the first buffer of kernels: deliver them now, before any kernel ran, so that the header has them.
    flush_all();
  });
  std::uint32_t context_id = 0;
  std::uint32_t device_id = 0;
  if (cuptiGetContextId(context, &context_id) == CUPTI_SUCCESS &&
      cuptiGetDeviceId(context, &device_id) == CUPTI_SUCCESS) {
    g_trace->note_context(context_id, device_id);
    if (g_traffic_mode) g_traffic_mode->on_context_created(device_id);
  }
  if (g_counters_mode) g_counters_mode->on_context_created(context);
}

// A context about to go takes its pending records with it: save them.
void on_context_destroying() { flush_all(); }

// Traffic mode samples while a launch runs: from its entry to its return (launches are serialized in that mode).
void on_traffic_launch(const CUpti_CallbackData& call) {
  std::uint32_t device = 0;
  if (cuptiGetDeviceId(call.context, &device) != CUPTI_SUCCESS) return;
  if (call.callbackSite == CUPTI_API_ENTER) g_traffic_mode->on_launch_begin(device);
  if (call.callbackSite == CUPTI_API_EXIT) g_traffic_mode->on_launch_end(device);
}

void warn_sass_once(const std::string& why) {
  if (!g_sass_warned.exchange(true)) warn(why + "; kernels of such modules are recorded without a SASS summary");
}

void add_cubin_functions(std::span<const std::byte> cubin) {
  auto functions = trace::summarize_cubin(cubin);
  if (!functions) {
    warn_sass_once("a loaded module's cubin could not be read (cut short or corrupt)");
    return;
  }
  g_sass->add(std::move(*functions));
}

// A fatbin module: the cubin for the context's GPU (trace/fatbin.h).
void add_fatbin_functions(std::span<const std::byte> fatbin, CUcontext context) {
  std::uint32_t device_id = 0;
  const auto arch = cuptiGetDeviceId(context, &device_id) == CUPTI_SUCCESS ? device_architecture(device_id)
                                                                           : std::nullopt;
  if (!arch) return warn_sass_once("a fatbin module's GPU architecture is unknown");
  const auto found = trace::fatbin_cubins(fatbin, *arch);
  if (!found) return warn_sass_once("a loaded fatbin could not be read (cut short or corrupt)");
  if (found->undecodable > 0) warn_sass_once("a loaded fatbin's cubin is compressed in a way this build cannot decode");
  for (const auto& cubin : found->cubins) add_cubin_functions(cubin);
}

// Summarizes the SASS of a module as it loads (at a kernel's first launch under lazy loading), on whatever thread
// loads it: a cubin (ELF), or the right cubin of a fatbin; PTX (compiled by the driver, which then hands over the
// result as a cubin) is skipped. The application must never notice: nothing thrown here leaves the callback.
void on_module_loaded(const CUpti_ResourceData& resource) {
  const auto* module = static_cast<const CUpti_ModuleResourceData*>(resource.resourceDescriptor);
  if (module == nullptr || module->pCubin == nullptr || module->cubinSize == 0) return;
  const std::span<const std::byte> image(reinterpret_cast<const std::byte*>(module->pCubin), module->cubinSize);
  try {
    if (trace::is_elf_image(image)) return add_cubin_functions(image);
    if (trace::is_fatbin_image(image)) return add_fatbin_functions(image, resource.context);
  } catch (const std::exception& error) {
    warn_sass_once(std::string("summarizing a module's SASS failed: ") + error.what());
  }
}

bool is_launch(CUpti_CallbackDomain domain, CUpti_CallbackId id) {
  const auto& launches = CountersMode::launch_callbacks();
  return domain == CUPTI_CB_DOMAIN_DRIVER_API && std::find(launches.begin(), launches.end(), id) != launches.end();
}

void on_api(CUpti_CallbackDomain domain, CUpti_CallbackId id, const CUpti_CallbackData& call) {
  if (g_counters_mode && is_launch(domain, id)) {
    g_counters_mode->on_launch(id, call);
    return;
  }
  if (g_traffic_mode && is_launch(domain, id)) {
    on_traffic_launch(call);
    return;
  }
  const bool runtime = domain == CUPTI_CB_DOMAIN_RUNTIME_API;
  const bool reset = runtime && id == CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020;
  const bool start = runtime ? id == CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000
                             : id == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart;
  const bool stop = runtime ? id == CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000
                            : id == CUPTI_DRIVER_TRACE_CBID_cuProfilerStop;
  // A reset destroys the context and its pending records: hand them over first.
  if (reset && call.callbackSite == CUPTI_API_ENTER) flush_all();
  if (g_config.capture_range != CaptureRange::kProfilerApi) return;
  if (start && call.callbackSite == CUPTI_API_EXIT) enable_run_records(g_config.mode == TraceMode::kTimeline);
  if (stop && call.callbackSite == CUPTI_API_ENTER) {
    flush_all();
    disable_run_records();
  }
}

void CUPTIAPI on_callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
  if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
    const auto* resource = static_cast<const CUpti_ResourceData*>(data);
    if (id == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) on_context_created(resource->context);
    if (id == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) on_context_destroying();
    if (id == CUPTI_CBID_RESOURCE_MODULE_LOADED) on_module_loaded(*resource);
    return;
  }
  on_api(domain, id, *static_cast<const CUpti_CallbackData*>(data));
}

void at_exit() {
  const StepTimer timer("the final flush and close");
  if (g_flusher) g_flusher->stop();
  flush_all();
  g_trace->close();
  std::fprintf(stderr, "warpsim tracer: %llu events written to %s\n",
               static_cast<unsigned long long>(g_trace->events_written()), g_trace->output_path().c_str());
}

// NVTX calls reach CUPTI only when NVTX is told to load it; do so unless the user chose otherwise.
void route_nvtx_to_cupti() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&cuptiSubscribe), &info) != 0 && info.dli_fname != nullptr)
    setenv("NVTX_INJECTION64_PATH", info.dli_fname, 0);
}

bool subscribe() {
  CUpti_SubscriberHandle subscriber = nullptr;
  const CUptiResult result = cuptiSubscribe(&subscriber, on_callback, nullptr);
  if (result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
    warn("another CUPTI client (nsys, ncu or a profiler) is attached to this process; warpsim cannot trace it "
         "as well, so the application runs untraced");
    return false;
  }
  if (!cupti_ok(result, "cuptiSubscribe")) return false;
  cupti_ok(cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE), "cuptiEnableDomain(RESOURCE)");
  const std::pair<CUpti_CallbackDomain, CUpti_CallbackId> calls[] = {
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStart},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop}};
  for (const auto& [domain, id] : calls) cupti_ok(cuptiEnableCallback(1, subscriber, domain, id), "cuptiEnableCallback");
  if (g_config.mode == TraceMode::kCounters || g_config.mode == TraceMode::kTraffic)
    for (CUpti_CallbackId id : CountersMode::launch_callbacks())
      cupti_ok(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id), "cuptiEnableCallback(launch)");
  return true;
}

// Kernels are measured at launch; their activity records, which arrive later, take the counters on the way out.
void start_counters_mode() {
  g_counters = new CountersStore();                                   // NOLINT: see g_trace
  g_counters_mode = new CountersMode(g_config, *g_counters, warn, [] { cuptiActivityFlushAll(0); });  // NOLINT
}

// What a kernel's activity record lacks, added before it is written: the SASS summary of its code (both modes; its
// module loaded before it ran) and, in counters mode, the counters measured at its launch.
void complete_kernel(Event& event) {
  KernelLaunch& kernel = *event.mutable_kernel();
  if (auto sass = g_sass->find(kernel.name())) trace::set_sass(kernel, *sass);
  if (g_counters == nullptr) return;
  if (auto counters = g_counters->take(static_cast<std::uint32_t>(kernel.correlation_id())))
    *kernel.mutable_counters() = std::move(*counters);
}

bool start_tracing() {
  try {
    g_config = read_tracer_config([](const char* name) { return std::getenv(name); },
                                  static_cast<std::uint32_t>(getpid()));
  } catch (const std::invalid_argument& error) {
    warn(std::string(error.what()) + "; the application runs untraced");
    return false;
  }
  if (std::getenv("WARPSIM_TRACE_BACKTRACE") != nullptr) install_crash_report();
  // The sink first: CUPTI may call back as soon as the subscription exists.
  g_trace = new TraceSink(g_config.output_path, process_header(g_config.mode), warn);  // NOLINT: see g_trace
  g_trace->wait_for_driver_devices();  // read at the first context (on_context_created)
  g_sass = new trace::SassSummaries();                                                        // NOLINT: see g_trace
  if (g_config.mode == TraceMode::kCounters) start_counters_mode();
  if (g_config.mode == TraceMode::kTraffic)
    g_traffic_mode = new TrafficMode(g_config.traffic_interval_ns, *g_trace, warn);  // NOLINT: see g_trace
  g_trace->set_kernel_hook(complete_kernel);
  if (!subscribe()) return false;
  if (!register_activity_buffers(*g_trace)) return false;
  // CUPTI's own periodic flush hands over only full buffers; a default (not forced) flush from a thread of ours
  // also hands over partly filled ones whose records are complete, and never cuts a record in flight. Counters mode
  // flushes after each profiled launch instead (counters_mode.cc).
  if (g_config.mode != TraceMode::kCounters)
    g_flusher = new PeriodicFlusher(std::chrono::milliseconds(g_config.flush_period_ms),  // NOLINT: see g_trace
                                    [] { cuptiActivityFlushAll(0); });
  route_nvtx_to_cupti();
  // The PCIE records start CUPTI's legacy profiler, after which cuptiProfilerInitialize fails: the modes that use
  // the profiler (counters: range profiler; traffic: PM sampling) go without them.
  dump_topology_records(/*with_pcie=*/g_config.mode == TraceMode::kTimeline);
  // API calls only in timeline mode: a counters run replays kernels inside the launch calls, so its calls' times
  // say nothing of the program (merge takes the timeline run's calls).
  if (g_config.capture_range == CaptureRange::kWhole) enable_run_records(g_config.mode == TraceMode::kTimeline);
  std::atexit(at_exit);
  return true;
}

}  // namespace
}  // namespace warpsim::tracer

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  static std::once_flag once;
  std::call_once(once, [] {
    const warpsim::tracer::StepTimer timer("starting (CUPTI subscription, activity kinds, device records)");
    warpsim::tracer::start_tracing();
  });
  return 1;  // the application runs whether or not tracing started
}
