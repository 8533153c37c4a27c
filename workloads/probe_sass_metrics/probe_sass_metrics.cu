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
// with the counting (the patching's cost), and `check ok` or `check failed: ...` (exit 1). With --second 1 it also
// launches a second kernel (one_loop) in the counting range and then tries further ranges, printing which functions
// each one counted (CUPTI 13.0 on H200 counts only the first function of a process's first range: README).
//
//   ws_probe_sass_metrics [--device N] [--blocks B] [--short S] [--long L] [--second 0|1]
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

// A second, different kernel (--second 1): launched after two_loops inside the same counting range, to see whether
// CUPTI counts a range's later kernels too (count_inject, in a real program, only ever counted the first).
__global__ void one_loop(float* out, int trips) {
  float a = out[blockIdx.x * blockDim.x + threadIdx.x];
#pragma unroll 1
  for (int i = 0; i < trips; ++i) a = a * 0.5f + 1.0f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = a;
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
  bool second = false;  // --second 1: one_loop after two_loops in the counting range, then second_kernel_ranges
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

// What CUPTI holds for the context, flushed (CUPTI forgets it): one record per patched instruction, each with its
// values (one per metric configured and instance).
struct Flushed {
  std::vector<CUpti_SassMetrics_InstanceValue> values;
  std::vector<CUpti_SassMetrics_Data> data;
  std::size_t per_record = 0;
};

Flushed flush_data(CUcontext context, std::size_t metrics) {
  auto properties = CUPTI_PARAMS(CUpti_SassMetricsGetDataProperties_Params);
  properties.ctx = context;
  CUPTI_CALL(cuptiSassMetricsGetDataProperties, properties);
  Flushed f;
  if (properties.numOfPatchedInstructionRecords == 0) return f;
  f.per_record = properties.numOfInstances * metrics;
  f.values.resize(properties.numOfPatchedInstructionRecords * f.per_record);
  f.data.resize(properties.numOfPatchedInstructionRecords);
  for (std::size_t r = 0; r < f.data.size(); ++r) {
    f.data[r].structSize = CUpti_SassMetricsFlushData_Params_STRUCT_SIZE;  // as the header asks
    f.data[r].pInstanceValues = f.values.data() + r * f.per_record;
  }
  auto flush = CUPTI_PARAMS(CUpti_SassMetricsFlushData_Params);
  flush.ctx = context;
  flush.numOfPatchedInstructionRecords = f.data.size();
  flush.numOfInstances = properties.numOfInstances;
  flush.pMetricsData = f.data.data();
  CUPTI_CALL(cuptiSassMetricsFlushData, flush);
  return f;
}

// Instruction records per function ("two_loops" or "one_loop"), printed after `what`.
std::map<std::string, std::size_t> print_records(const char* what, const Flushed& flushed) {
  std::map<std::string, std::size_t> records;
  for (const CUpti_SassMetrics_Data& d : flushed.data)
    ++records[d.functionName && std::strstr(d.functionName, "one_loop") ? "one_loop" : "two_loops"];
  std::printf("%s:", what);
  for (const auto& [function, n] : records) std::printf(" %s=%zu", function.c_str(), n);
  std::printf("%s\n", records.empty() ? " none" : "");
  return records;
}

// A counting range (enabled, ..., disabled) around `body`; the records CUPTI dropped at its end (not flushed).
template <typename Body>
std::size_t range(CUcontext context, bool lazy, Body body) {
  auto enable = CUPTI_PARAMS(CUpti_SassMetricsEnable_Params);
  enable.ctx = context;
  enable.enableLazyPatching = lazy ? 1 : 0;
  CUPTI_CALL(cuptiSassMetricsEnable, enable);
  body();
  auto disable = CUPTI_PARAMS(CUpti_SassMetricsDisable_Params);
  disable.ctx = context;
  CUPTI_CALL(cuptiSassMetricsDisable, disable);
  return disable.numOfDroppedRecords;
}

void launch_one_loop(const Options& o, float* out) {
  one_loop<<<o.blocks, kWarp>>>(out, o.short_trips);
  check_cuda(cudaDeviceSynchronize(), "one_loop");
}

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
  std::map<std::uint32_t, Counts> by_pc;
  range(context, true, [&] {
    ms = launch_timed(o, in, out);
    if (o.second) launch_one_loop(o, out);
    const Flushed flushed = flush_data(context, configs.size());
    std::printf("records %zu\n", flushed.data.size());
    const auto records = print_records("records by function", flushed);
    if (o.second) std::printf("second kernel counted: %s\n", records.count("one_loop") ? "yes" : "no");
    for (const CUpti_SassMetrics_Data& d : flushed.data) {
      if (!d.functionName || !std::strstr(d.functionName, "two_loops")) continue;
      Counts& c = by_pc[d.pcOffset];
      c.pc = d.pcOffset;
      for (std::size_t v = 0; v < flushed.per_record; ++v) {
        const CUpti_SassMetrics_InstanceValue& value = d.pInstanceValues[v];
        if (value.metricId == warp_id) c.warp += value.value;
        if (value.metricId == thread_id) c.thread += value.value;
      }
    }
  });
  if (!o.second) {  // --second 1 keeps the configuration for its ranges (second_kernel_ranges)
    auto unset = CUPTI_PARAMS(CUpti_SassMetricsUnsetConfig_Params);
    unset.deviceIndex = static_cast<std::uint32_t>(o.device);
    CUPTI_CALL(cuptiSassMetricsUnsetConfig, unset);
  }

  std::vector<Counts> counts;
  for (const auto& [pc, c] : by_pc) counts.push_back(c);
  return counts;
}

// Which ranges count one_loop, the second function (--second 1).
void second_kernel_ranges(const Options& o, CUcontext context, const float* in, float* out) {
  const auto second = [&] { launch_one_loop(o, out); };
  const auto first = [&] {
    two_loops<<<o.blocks, kWarp>>>(in, out, o.short_trips, o.long_trips);
    check_cuda(cudaDeviceSynchronize(), "two_loops");
  };
  const auto closed = [](std::size_t dropped) { std::printf("  (range closed, %zu records dropped)\n", dropped); };
  for (bool lazy : {true, false}) {
    std::printf("lazy patching %d\n", lazy);
    closed(range(context, lazy,
                 [&] { second(); print_records("  new range, one_loop alone", flush_data(context, 2)); }));
    closed(range(context, lazy, [&] {
      first();
      print_records("  new range, two_loops then flush", flush_data(context, 2));
      second();
      print_records("  then one_loop then flush", flush_data(context, 2));
      first();
      print_records("  then two_loops again then flush", flush_data(context, 2));
    }));
  }
}

std::size_t with_count(const std::vector<Counts>& counts, std::uint64_t warp, std::optional<std::uint64_t> thread) {
  std::size_t n = 0;
  for (const Counts& c : counts) n += c.warp == warp && (!thread || c.thread == *thread);
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  if (const std::optional<std::string> name =
          ws::first_unknown_option(argc, argv, {"device", "blocks", "short", "long", "second"})) {
    std::printf("%s: unknown option --%s\nusage: ws_probe_sass_metrics [--device N] [--blocks B] [--short S] "
                "[--long L] [--second 0|1]\n",
                kWorkload, name->c_str());
    return 2;
  }
  Options o;
  o.device = static_cast<int>(ws::arg_long(argc, argv, "device", 0));
  o.blocks = static_cast<int>(ws::arg_long(argc, argv, "blocks", 264));
  o.short_trips = static_cast<int>(ws::arg_long(argc, argv, "short", 10));
  o.long_trips = static_cast<int>(ws::arg_long(argc, argv, "long", 1000));
  o.second = ws::arg_long(argc, argv, "second", 0) != 0;

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
  if (o.second) second_kernel_ranges(o, context, in, out);

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
