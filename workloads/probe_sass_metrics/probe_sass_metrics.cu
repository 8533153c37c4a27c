// probe_sass_metrics: can CUPTI's SASS metrics API (cupti_sass_metrics.h) count how often each instruction of a
// kernel ran, so that a recording could weight the compiler's stall counts by where warps spend their time?
// (workloads/suite/README.md: `lud_perimeter`'s warps spend theirs in loops other than the one the SASS summary takes
// for the main loop.)
//
// The test kernel runs two loops one after the other, `#pragma unroll 1`, every thread the same trip counts, then a
// divergent loop whose trip count differs between the warp's halves. One warp per block. If the API counts per warp
// (smsp__sass_inst_executed), each instruction of the first loop's body ran WARPS x SHORT times, of the second's
// WARPS x LONG, of the divergent loop's WARPS x LONG (the warp runs while any lane does); per thread
// (smsp__sass_thread_inst_executed) the divergent loop's body ran WARPS x (16 x LONG + 16 x SHORT) times.
//
// Prints the chip, the SASS metrics whose name holds "inst_executed", every instruction's counts (pc offset,
// warp-level, thread-level), how many instructions have each expected count, the kernel's CUDA-event time without and
// with the counting (the patching's cost), and `check ok` or `check failed: ...` (exit 1).
//
//   ws_probe_sass_metrics [--device N] [--blocks B] [--short S] [--long L]
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cupti_params.h"
#include "workload.h"

namespace {

constexpr const char* kWorkload = "probe_sass_metrics";
constexpr int kWarp = 32;
constexpr int kExitCupti = 3;

__global__ void two_loops(const float* in, float* out, int short_trips, int long_trips) {
  float a = in[threadIdx.x];
#pragma unroll 1
  for (int i = 0; i < short_trips; ++i) a = a * 1.0001f + 0.5f;
  float b = a;
#pragma unroll 1
  for (int i = 0; i < long_trips; ++i) b = b * 0.9999f + 0.25f;
  // Lanes 0-15 run LONG trips, lanes 16-31 SHORT: the warp runs LONG.
  const int trips = threadIdx.x % kWarp < kWarp / 2 ? long_trips : short_trips;
  float c = b;
#pragma unroll 1
  for (int i = 0; i < trips; ++i) c = c * 1.0002f - 0.125f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = c;
}

[[noreturn]] void cupti_failed(const char* call, CUptiResult result) {
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  std::printf("%s: %s failed: %s\n", kWorkload, call, text ? text : "unknown CUPTI error");
  std::fflush(stdout);
  std::exit(kExitCupti);
}

#define CUPTI_CALL(function, params)                                  \
  do {                                                                \
    const CUptiResult result_ = function(&(params));                  \
    if (result_ != CUPTI_SUCCESS) cupti_failed(#function, result_);   \
  } while (0)

void check_cuda(cudaError_t error, const char* what) {
  if (error == cudaSuccess) return;
  std::printf("%s: %s failed: %s\n", kWorkload, what, cudaGetErrorString(error));
  std::exit(2);
}

struct Options {
  int device = 0;
  int blocks = 264;
  int short_trips = 10;
  int long_trips = 1000;
};

std::string chip_name(int device) {
  auto init = CUPTI_PARAMS(CUpti_Profiler_Initialize_Params);
  CUPTI_CALL(cuptiProfilerInitialize, init);
  auto p = CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
  p.deviceIndex = static_cast<std::size_t>(device);
  CUPTI_CALL(cuptiDeviceGetChipName, p);
  return p.pChipName;
}

// Every SASS metric of the chip whose name holds "inst_executed", printed; returns name -> id.
std::map<std::string, std::uint64_t> inst_metrics(const std::string& chip) {
  auto count = CUPTI_PARAMS(CUpti_SassMetrics_GetNumOfMetrics_Params);
  count.pChipName = chip.c_str();
  CUPTI_CALL(cuptiSassMetricsGetNumOfMetrics, count);
  std::vector<CUpti_SassMetrics_MetricDetails> details(count.numOfMetrics);
  auto list = CUPTI_PARAMS(CUpti_SassMetrics_GetMetrics_Params);
  list.pChipName = chip.c_str();
  list.numOfMetrics = details.size();
  list.pMetricsList = details.data();
  CUPTI_CALL(cuptiSassMetricsGetMetrics, list);
  std::printf("sass_metrics %zu on %s\n", details.size(), chip.c_str());
  std::map<std::string, std::uint64_t> ids;
  for (const CUpti_SassMetrics_MetricDetails& d : details) {
    if (!d.pMetricName || !std::strstr(d.pMetricName, "inst_executed")) continue;
    std::printf("metric %s id %llu: %s\n", d.pMetricName, static_cast<unsigned long long>(d.metricId),
                d.pMetricDescription ? d.pMetricDescription : "");
    ids[d.pMetricName] = d.metricId;
  }
  return ids;
}

float launch_timed(const Options& o, const float* in, float* out) {
  cudaEvent_t start, stop;
  check_cuda(cudaEventCreate(&start), "cudaEventCreate");
  check_cuda(cudaEventCreate(&stop), "cudaEventCreate");
  check_cuda(cudaEventRecord(start), "cudaEventRecord");
  two_loops<<<o.blocks, kWarp>>>(in, out, o.short_trips, o.long_trips);
  check_cuda(cudaEventRecord(stop), "cudaEventRecord");
  check_cuda(cudaEventSynchronize(stop), "cudaEventSynchronize");
  float ms = 0;
  check_cuda(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms;
}

struct Counts {
  std::uint32_t pc = 0;
  std::uint64_t warp = 0, thread = 0;
};

// Runs the kernel once with the two metrics counted per instruction (GPU-level: one instance each); the test
// kernel's instructions, in pc order.
std::vector<Counts> counted_run(const Options& o, CUcontext context, std::uint64_t warp_id, std::uint64_t thread_id,
                                const float* in, float* out, float& ms) {
  std::vector<CUpti_SassMetrics_Config> configs{{warp_id, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU},
                                                {thread_id, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU}};
  auto set = CUPTI_PARAMS(CUpti_SassMetricsSetConfig_Params);
  set.numOfMetricConfig = configs.size();
  set.pConfigs = configs.data();
  set.deviceIndex = static_cast<std::uint32_t>(o.device);
  CUPTI_CALL(cuptiSassMetricsSetConfig, set);
  auto enable = CUPTI_PARAMS(CUpti_SassMetricsEnable_Params);
  enable.ctx = context;
  enable.enableLazyPatching = 1;
  CUPTI_CALL(cuptiSassMetricsEnable, enable);

  ms = launch_timed(o, in, out);

  auto properties = CUPTI_PARAMS(CUpti_SassMetricsGetDataProperties_Params);
  properties.ctx = context;
  CUPTI_CALL(cuptiSassMetricsGetDataProperties, properties);
  std::printf("records %zu instances %zu\n", properties.numOfPatchedInstructionRecords, properties.numOfInstances);
  const std::size_t per_record = properties.numOfInstances * configs.size();
  std::vector<CUpti_SassMetrics_InstanceValue> values(properties.numOfPatchedInstructionRecords * per_record);
  std::vector<CUpti_SassMetrics_Data> data(properties.numOfPatchedInstructionRecords);
  for (std::size_t r = 0; r < data.size(); ++r) {
    data[r].structSize = CUpti_SassMetricsFlushData_Params_STRUCT_SIZE;  // as the header asks
    data[r].pInstanceValues = values.data() + r * per_record;
  }
  auto flush = CUPTI_PARAMS(CUpti_SassMetricsFlushData_Params);
  flush.ctx = context;
  flush.numOfPatchedInstructionRecords = data.size();
  flush.numOfInstances = properties.numOfInstances;
  flush.pMetricsData = data.data();
  CUPTI_CALL(cuptiSassMetricsFlushData, flush);

  std::map<std::uint32_t, Counts> by_pc;
  for (const CUpti_SassMetrics_Data& d : data) {
    if (!d.functionName || !std::strstr(d.functionName, "two_loops")) continue;
    Counts& c = by_pc[d.pcOffset];
    c.pc = d.pcOffset;
    for (std::size_t v = 0; v < per_record; ++v) {
      const CUpti_SassMetrics_InstanceValue& value = d.pInstanceValues[v];
      if (value.metricId == warp_id) c.warp += value.value;
      if (value.metricId == thread_id) c.thread += value.value;
    }
  }
  auto disable = CUPTI_PARAMS(CUpti_SassMetricsDisable_Params);
  disable.ctx = context;
  CUPTI_CALL(cuptiSassMetricsDisable, disable);
  auto unset = CUPTI_PARAMS(CUpti_SassMetricsUnsetConfig_Params);
  unset.deviceIndex = static_cast<std::uint32_t>(o.device);
  CUPTI_CALL(cuptiSassMetricsUnsetConfig, unset);

  std::vector<Counts> counts;
  for (const auto& [pc, c] : by_pc) counts.push_back(c);
  return counts;
}

std::size_t with_count(const std::vector<Counts>& counts, std::uint64_t warp, std::optional<std::uint64_t> thread) {
  std::size_t n = 0;
  for (const Counts& c : counts) n += c.warp == warp && (!thread || c.thread == *thread);
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  if (const std::optional<std::string> name =
          ws::first_unknown_option(argc, argv, {"device", "blocks", "short", "long"})) {
    std::printf("%s: unknown option --%s\nusage: ws_probe_sass_metrics [--device N] [--blocks B] [--short S] [--long L]\n",
                kWorkload, name->c_str());
    return 2;
  }
  Options o;
  o.device = static_cast<int>(ws::arg_long(argc, argv, "device", 0));
  o.blocks = static_cast<int>(ws::arg_long(argc, argv, "blocks", 264));
  o.short_trips = static_cast<int>(ws::arg_long(argc, argv, "short", 10));
  o.long_trips = static_cast<int>(ws::arg_long(argc, argv, "long", 1000));

  check_cuda(cudaSetDevice(o.device), "cudaSetDevice");
  check_cuda(cudaFree(nullptr), "cudaFree (context)");
  CUcontext context = nullptr;  // CUPTI's "default context": the runtime's, made current above
  const std::string chip = chip_name(o.device);
  const std::map<std::string, std::uint64_t> ids = inst_metrics(chip);
  const auto warp_metric = ids.find("smsp__sass_inst_executed");
  const auto thread_metric = ids.find("smsp__sass_thread_inst_executed");
  if (warp_metric == ids.end() || thread_metric == ids.end()) {
    std::printf("check failed: smsp__sass_inst_executed or smsp__sass_thread_inst_executed not offered\n");
    return 1;
  }

  const std::size_t threads = static_cast<std::size_t>(o.blocks) * kWarp;
  float* in = nullptr;
  float* out = nullptr;
  check_cuda(cudaMalloc(&in, kWarp * sizeof(float)), "cudaMalloc");
  check_cuda(cudaMalloc(&out, threads * sizeof(float)), "cudaMalloc");
  check_cuda(cudaMemset(in, 0, kWarp * sizeof(float)), "cudaMemset");
  launch_timed(o, in, out);  // module load
  const float plain_ms = launch_timed(o, in, out);
  float counted_ms = 0;
  const std::vector<Counts> counts = counted_run(o, context, warp_metric->second, thread_metric->second, in, out, counted_ms);
  const float after_ms = launch_timed(o, in, out);

  std::uint64_t total_warp = 0;
  for (const Counts& c : counts) {
    std::printf("pc 0x%04x warp %llu thread %llu\n", c.pc, static_cast<unsigned long long>(c.warp),
                static_cast<unsigned long long>(c.thread));
    total_warp += c.warp;
  }
  const std::uint64_t warps = static_cast<std::uint64_t>(o.blocks);
  const std::uint64_t s = static_cast<std::uint64_t>(o.short_trips), l = static_cast<std::uint64_t>(o.long_trips);
  const std::size_t short_body = with_count(counts, warps * s, warps * s * kWarp);
  const std::size_t long_body = with_count(counts, warps * l, warps * l * kWarp);
  const std::size_t divergent_body = with_count(counts, warps * l, warps * (l + s) * (kWarp / 2));
  std::printf("instructions %zu, warp instructions %llu; at WARPS x SHORT %zu, at WARPS x LONG %zu (uniform), "
              "divergent %zu\n",
              counts.size(), static_cast<unsigned long long>(total_warp), short_body, long_body, divergent_body);
  std::printf("time_ms plain %.4f counted %.4f after %.4f\n", plain_ms, counted_ms, after_ms);
  if (counts.empty() || short_body == 0 || long_body == 0 || divergent_body == 0) {
    std::printf("check failed: no instruction ran the expected counts\n");
    return 1;
  }
  std::printf("check ok\n");
  cudaFree(in);
  cudaFree(out);
  return 0;
}
