// count_inject: a CUDA_INJECTION64_PATH library that counts how often each instruction of a program's kernels was
// executed (warp instructions, CUPTI's SASS metrics API: smsp__sass_inst_executed), to see where a real program's warps
// spend their time (workloads/probe_sass_metrics/README.md). A probe, not the tracer: it waits for the GPU at every
// copy and synchronization to take the counts. Counts one kernel function a run (CUPTI 13.0's limit on H200, README):
// the first launched, or the one PROBE_SASS_FUNCTION names; PROBE_SASS_LIST=1 lists the kernels a program launches.
//
//   PROBE_SASS_COUNTS=out.txt [PROBE_SASS_FUNCTION=name] [PROBE_SASS_EAGER=1] \
//     CUDA_INJECTION64_PATH=.../libprobe_sass_count_inject.so ./program
// writes one line per instruction that ran: `count <function> <pc offset> <warp executions>`, summed over launches.
#include <cuda.h>
#include <cupti.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cupti_params.h"

namespace {

// (function, pc offset) -> warp executions, over every launch so far. Never destroyed: the exit handler that writes it
// runs after the destructors of statics made later than its registration.
std::map<std::pair<std::string, std::uint32_t>, std::uint64_t>& counts() {
  static auto* all = new std::map<std::pair<std::string, std::uint32_t>, std::uint64_t>;
  return *all;
}

std::uint64_t g_metric = 0;
bool g_enabled = false;

bool ok(CUptiResult result, const char* call) {
  if (result == CUPTI_SUCCESS) return true;
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  std::fprintf(stderr, "count_inject: %s failed: %s\n", call, text ? text : "?");
  return false;
}

bool start_counting(CUcontext context, bool lazy) {
  auto on = CUPTI_PARAMS(CUpti_SassMetricsEnable_Params);
  on.ctx = context;
  on.enableLazyPatching = lazy ? 1 : 0;
  return ok(cuptiSassMetricsEnable(&on), "cuptiSassMetricsEnable");
}

// At the first launch: the chip's warp-execution metric, configured at GPU granularity and enabled on the context.
void enable(CUcontext context) {
  if (g_enabled) return;
  auto init = CUPTI_PARAMS(CUpti_Profiler_Initialize_Params);
  if (!ok(cuptiProfilerInitialize(&init), "cuptiProfilerInitialize")) return;
  CUdevice device = 0;
  cuCtxGetDevice(&device);
  auto chip = CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
  chip.deviceIndex = static_cast<std::size_t>(device);
  if (!ok(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName")) return;
  auto metric = CUPTI_PARAMS(CUpti_SassMetrics_GetProperties_Params);
  metric.pChipName = chip.pChipName;
  metric.pMetricName = "smsp__sass_inst_executed";
  if (!ok(cuptiSassMetricsGetProperties(&metric), "cuptiSassMetricsGetProperties")) return;
  g_metric = metric.metric.metricId;
  CUpti_SassMetrics_Config config{g_metric, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU};
  auto set = CUPTI_PARAMS(CUpti_SassMetricsSetConfig_Params);
  set.numOfMetricConfig = 1;
  set.pConfigs = &config;
  set.deviceIndex = static_cast<std::uint32_t>(device);
  if (!ok(cuptiSassMetricsSetConfig(&set), "cuptiSassMetricsSetConfig")) return;
  g_enabled = start_counting(context, std::getenv("PROBE_SASS_EAGER") == nullptr);
}

// At a copy or a synchronization: waits for the GPU and adds the counts CUPTI holds.
void take_counts(CUcontext context) {
  if (!g_enabled) return;
  cuCtxSynchronize();
  auto properties = CUPTI_PARAMS(CUpti_SassMetricsGetDataProperties_Params);
  properties.ctx = context;
  if (!ok(cuptiSassMetricsGetDataProperties(&properties), "cuptiSassMetricsGetDataProperties")) return;
  std::fprintf(stderr, "count_inject: %zu instruction records\n", properties.numOfPatchedInstructionRecords);
  if (properties.numOfPatchedInstructionRecords == 0) return;
  std::vector<CUpti_SassMetrics_InstanceValue> values(properties.numOfPatchedInstructionRecords *
                                                      properties.numOfInstances);
  std::vector<CUpti_SassMetrics_Data> data(properties.numOfPatchedInstructionRecords);
  for (std::size_t r = 0; r < data.size(); ++r) {
    data[r].structSize = CUpti_SassMetricsFlushData_Params_STRUCT_SIZE;  // as the header asks
    data[r].pInstanceValues = values.data() + r * properties.numOfInstances;
  }
  auto flush = CUPTI_PARAMS(CUpti_SassMetricsFlushData_Params);
  flush.ctx = context;
  flush.numOfPatchedInstructionRecords = data.size();
  flush.numOfInstances = properties.numOfInstances;
  flush.pMetricsData = data.data();
  if (!ok(cuptiSassMetricsFlushData(&flush), "cuptiSassMetricsFlushData")) return;
  std::map<std::string, std::size_t> records;
  for (const CUpti_SassMetrics_Data& d : data) ++records[d.functionName ? d.functionName : "?"];
  for (const auto& [function, n] : records)
    std::fprintf(stderr, "count_inject:   %s %zu records\n", function.c_str(), n);
  for (const CUpti_SassMetrics_Data& d : data) {
    std::uint64_t warps = 0;
    for (std::size_t i = 0; i < properties.numOfInstances; ++i)
      if (d.pInstanceValues[i].metricId == g_metric) warps += d.pInstanceValues[i].value;
    if (warps > 0) counts()[{d.functionName ? d.functionName : "?", d.pcOffset}] += warps;
  }
}

// PROBE_SASS_LIST=1: prints each kernel name the first time it is launched (`launch <name>`), counting nothing.
void list_launch(const CUpti_CallbackData& call) {
  static auto* seen = new std::set<std::string>;  // never destroyed, as counts()
  if (call.symbolName && seen->insert(call.symbolName).second) std::fprintf(stderr, "launch %s\n", call.symbolName);
}

void CUPTIAPI on_callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId, const void* data) {
  if (domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
  const auto* call = static_cast<const CUpti_CallbackData*>(data);
  if (!call->functionName) return;
  const bool launch = call->callbackSite == CUPTI_API_ENTER && std::strncmp(call->functionName, "cuLaunch", 8) == 0;
  if (launch && std::getenv("PROBE_SASS_LIST")) {
    list_launch(*call);
    return;
  }
  // Counting starts at the first launch (its module loaded by then), or with PROBE_SASS_FUNCTION=NAME at the first
  // launch of the kernel of that mangled name: CUPTI 13.0 counts only the first function launched in a process's first
  // counting range (H200, driver 580: README), so a program is run once per kernel function.
  const char* wanted = std::getenv("PROBE_SASS_FUNCTION");
  if (!g_enabled && launch && (!wanted || (call->symbolName && std::strcmp(call->symbolName, wanted) == 0)))
    enable(call->context);
  // The counts are taken at every copy and synchronization (a program copies its results back after its kernels):
  // taking them after every launch ended the collection (the later launches gave no records, whether the range was
  // closed and opened again or not). Not again for the driver calls this library makes itself (cuCtxSynchronize).
  static thread_local bool taking = false;
  if (taking || call->callbackSite != CUPTI_API_EXIT) return;
  if (std::strncmp(call->functionName, "cuMemcpy", 8) != 0 &&
      std::strncmp(call->functionName, "cuCtxSynchronize", 16) != 0)
    return;
  taking = true;
  take_counts(call->context);
  taking = false;
}

void write_counts() {
  const char* path = std::getenv("PROBE_SASS_COUNTS");
  std::FILE* out = path ? std::fopen(path, "w") : stdout;
  if (!out) return;
  for (const auto& [key, warps] : counts())
    std::fprintf(out, "count %s 0x%04x %llu\n", key.first.c_str(), key.second, static_cast<unsigned long long>(warps));
  if (out != stdout) std::fclose(out);
}

}  // namespace

extern "C" int InitializeInjection() {
  CUpti_SubscriberHandle subscriber;
  if (!ok(cuptiSubscribe(&subscriber, on_callback, nullptr), "cuptiSubscribe")) return 0;
  cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
  std::atexit(write_counts);  // host data only: no CUDA call
  return 1;
}
