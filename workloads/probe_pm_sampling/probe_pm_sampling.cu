// ws_probe_pm_sampling: can CUPTI's PM sampling (cupti_pmsampling.h) show WHEN, during one kernel, its remote bytes
// cross PCIe (pinned mapped host memory) or NVLink (a peer GPU's memory)?
//
// One copy-like kernel reads one chunk per thread block, from the local GPU's memory or from the remote buffer, chosen
// per block: "batch" puts the first P% of the blocks (by block id) on the remote buffer, "spread" every round(100/P)-th
// block. Blocks are dispatched in id order, so batch should move its remote bytes early in the kernel and spread
// evenly through it. PM sampling records the chosen counters every few microseconds while the kernel runs; the
// program prints every sample and, per case, the share of the remote-read bytes that fall in the first half of the
// kernel's duration (batch: near 1 for small P; spread: near 0.5).
//
// Call sequence (header cupti_pmsampling.h; host side cupti_profiler_host.h):
//   cuptiProfilerInitialize, cuptiProfilerDeviceSupported(api = PM sampling), cuptiDeviceGetChipName,
//   cuptiPmSamplingGetCounterAvailability; cuptiProfilerHostInitialize(PM_SAMPLING), GetBaseMetrics (which metrics
//   exist), ConfigAddMetrics, GetConfigImageSize, GetConfigImage, GetNumOfPasses (PM sampling takes one pass only);
//   cuptiPmSamplingEnable, SetConfig (GPU time-interval trigger), GetCounterDataSize; then per case
//   Start, kernel, synchronize, Stop, and until the hardware buffer is drained: CounterDataImageInitialize,
//   DecodeData, GetCounterDataInfo, per sample CounterDataGetSampleInfo + cuptiProfilerHostEvaluateToGpuValues;
//   finally cuptiPmSamplingDisable, cuptiProfilerHostDeinitialize, cuptiProfilerDeInitialize.

#include <cuda.h>
#include <cupti_activity.h>  // cuptiGetTimestamp
#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cupti_params.h"
#include "workload.h"

namespace {

constexpr const char* kWorkload = "probe_pm_sampling";
constexpr int kExitUsage = 64;
constexpr int kExitCupti = 3;        // a CUPTI call failed
constexpr int kExitUnavailable = 4;  // no usable metric, or the device cannot do PM sampling

constexpr int kThreadsPerBlock = 256;
constexpr int kElementsPerThread = 4;
constexpr unsigned kElementsPerBlock = kThreadsPerBlock * kElementsPerThread;  // 4 KiB chunk per block

constexpr const char* kDefaultMetrics =
    "pcie__read_bytes.sum,pcie__write_bytes.sum,dram__bytes_read.sum,nvlrx__bytes.sum,nvltx__bytes.sum";
// Added to the requested metrics when the chip has it: the share of each sample's time the compute engine was busy,
// which marks the kernel's start and end on the samples' own clock (CUDA events measure the kernel's length only).
constexpr const char* kWindowMetric = "gr__cycles_active.sum.pct_of_peak_sustained_elapsed";
constexpr double kBusyPercent = 5.0;  // a sample with the engine busy less than this is outside the kernel
// Names that tell us which counters PM sampling offers for remote traffic (printed as `supported <name>`).
constexpr const char* kInterestingSubstrings[] = {"pcie", "nvl", "dram", "lts__t_sectors_aperture", "gpu__time"};

// ---------------------------------------------------------------------------------------------------------------
// Command line

struct Options {
  int device = 0;
  int peer = -1;  ///< >= 0: the remote buffer is on this GPU (NVLink) instead of pinned host memory (PCIe)
  std::uint64_t interval_ns = 2000;
  std::vector<std::string> metrics;
  int percent = 20;
  long elements_mib = 256;
  long hw_buffer_mib = 512;
  std::string chip;  ///< offline: list and check metric names for this chip, no GPU needed
};

void print_usage() {
  std::fprintf(stderr,
               "usage: ws_probe_pm_sampling [--device N] [--interval-ns NS] [--metrics m1,m2,...] [--percent P]\n"
               "                            [--elements-mib M] [--peer N] [--hw-buffer-mib B] [--chip NAME]\n"
               "defaults: --device 0 --interval-ns 2000 --percent 20 --elements-mib 256 --hw-buffer-mib 512\n"
               "          --metrics %s\n"
               "--peer N: the remote buffer is GPU N's memory (NVLink) instead of pinned mapped host memory (PCIe)\n"
               "--chip NAME: no GPU; list the PM sampling metrics of chip NAME (e.g. GH100) and check --metrics\n",
               kDefaultMetrics);
}

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "%s: %s\n", kWorkload, message.c_str());
  print_usage();
  std::exit(kExitUsage);
}

/// Exits with the usage on --help, or with an error naming the first unknown option.
void reject_unknown_options(int argc, char** argv) {
  const std::optional<std::string> name = ws::first_unknown_option(argc, argv, {"device", "interval-ns", "metrics", "percent", "elements-mib", "hw-buffer-mib", "peer", "chip"});
  if (!name) return;
  if (*name == "help") {
    print_usage();
    std::exit(0);
  }
  usage_error("unknown option --" + *name);
}

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = std::min(text.find(',', begin), text.size());
    if (end > begin) parts.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return parts;
}

Options parse_options(int argc, char** argv) {
  reject_unknown_options(argc, argv);
  Options o;
  o.device = static_cast<int>(ws::arg_long(argc, argv, "device", 0));
  o.peer = static_cast<int>(ws::arg_long(argc, argv, "peer", -1));
  const long interval = ws::arg_long(argc, argv, "interval-ns", 2000);
  o.metrics = split_commas(ws::arg_string(argc, argv, "metrics", kDefaultMetrics));
  o.percent = static_cast<int>(ws::arg_long(argc, argv, "percent", 20));
  o.elements_mib = ws::arg_long(argc, argv, "elements-mib", 256);
  o.hw_buffer_mib = ws::arg_long(argc, argv, "hw-buffer-mib", 512);
  o.chip = ws::arg_string(argc, argv, "chip", "");
  if (o.device < 0) usage_error("--device must be >= 0");
  if (interval <= 0) usage_error("--interval-ns must be > 0");
  o.interval_ns = static_cast<std::uint64_t>(interval);
  if (o.metrics.empty()) usage_error("--metrics names no metric");
  if (o.percent < 1 || o.percent > 99) usage_error("--percent must be in 1..99 (0 and 100 always run)");
  if (o.elements_mib < 1 || o.elements_mib > 4096) usage_error("--elements-mib must be in 1..4096");
  if (o.hw_buffer_mib < 1) usage_error("--hw-buffer-mib must be >= 1");
  if (o.peer == o.device) usage_error("--peer must name another GPU than --device");
  return o;
}

// ---------------------------------------------------------------------------------------------------------------
// CUPTI plumbing

[[noreturn]] void cupti_failed(const char* call, CUptiResult result) {
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  std::printf("%s: %s failed: %s\n", kWorkload, call, text ? text : "unknown CUPTI error");
  std::fflush(stdout);
  std::exit(kExitCupti);
}

void check_cupti(CUptiResult result, const char* call) {
  if (result != CUPTI_SUCCESS) cupti_failed(call, result);
}

// Calls FUNCTION(&params) and names just the function on failure.
#define CUPTI_CALL(function, params) check_cupti(function(&(params)), #function)

/// The profiler host object for PM sampling on one chip: metric names, configuration image, evaluation.
class HostObject {
 public:
  HostObject(const std::string& chip, const std::vector<std::uint8_t>& availability) {
    auto p = CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params);
    p.profilerType = CUPTI_PROFILER_TYPE_PM_SAMPLING;
    p.pChipName = chip.c_str();
    p.pCounterAvailabilityImage = availability.empty() ? nullptr : availability.data();
    CUPTI_CALL(cuptiProfilerHostInitialize, p);
    object_ = p.pHostObject;
  }
  ~HostObject() {
    auto p = CUPTI_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
    p.pHostObject = object_;
    CUPTI_CALL(cuptiProfilerHostDeinitialize, p);
  }
  HostObject(const HostObject&) = delete;
  HostObject& operator=(const HostObject&) = delete;

  CUpti_Profiler_Host_Object* get() const { return object_; }

  /// Adds metrics to the configuration being built; the result is returned, not checked, because a refusal is how
  /// CUPTI says that a name does not exist for PM sampling on this chip.
  CUptiResult try_add_metrics(const std::vector<const char*>& names) {
    auto p = CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
    p.pHostObject = object_;
    p.ppMetricNames = const_cast<const char**>(names.data());
    p.numMetrics = names.size();
    return cuptiProfilerHostConfigAddMetrics(&p);
  }

 private:
  CUpti_Profiler_Host_Object* object_ = nullptr;
};

/// Every base metric (name without rollup) that PM sampling offers on the host object's chip, of every type.
std::set<std::string> base_metrics(const HostObject& host) {
  std::set<std::string> names;
  for (int type = 0; type < CUPTI_METRIC_TYPE__COUNT; ++type) {
    auto p = CUPTI_PARAMS(CUpti_Profiler_Host_GetBaseMetrics_Params);
    p.pHostObject = host.get();
    p.metricType = static_cast<CUpti_MetricType>(type);
    CUPTI_CALL(cuptiProfilerHostGetBaseMetrics, p);
    for (std::size_t i = 0; i < p.numMetrics; ++i) names.insert(p.ppMetricNames[i]);
  }
  return names;
}

bool is_interesting(const std::string& name) {
  return std::any_of(std::begin(kInterestingSubstrings), std::end(kInterestingSubstrings),
                     [&](const char* s) { return name.find(s) != std::string::npos; });
}

/// Whether `metric` (base name plus rollup, e.g. "dram__bytes_read.sum") is one of `bases` with a suffix.
bool has_listed_base(const std::string& metric, const std::set<std::string>& bases) {
  for (std::size_t dot = metric.find('.'); dot != std::string::npos; dot = metric.find('.', dot + 1))
    if (bases.count(metric.substr(0, dot)) != 0) return true;  // bases may contain dots ("PCI.TriageCompute.x")
  return bases.count(metric) != 0;
}

/// A metric is usable when its base is listed and CUPTI accepts the full name (rollup included) on its own.
bool metric_accepted(const std::string& chip, const std::vector<std::uint8_t>& availability, const std::string& metric,
                     const std::set<std::string>& bases) {
  if (!has_listed_base(metric, bases)) return false;
  HostObject scratch(chip, availability);
  return scratch.try_add_metrics({metric.c_str()}) == CUPTI_SUCCESS;
}

/// Every base metric PM sampling offers on the chip; prints the names that concern remote traffic and timing.
std::set<std::string> list_supported_metrics(const std::string& chip, const std::vector<std::uint8_t>& availability) {
  HostObject host(chip, availability);
  const std::set<std::string> bases = base_metrics(host);
  for (const std::string& name : bases)
    if (is_interesting(name)) std::printf("supported %s\n", name.c_str());
  return bases;
}

/// The requested metrics PM sampling accepts, in request order; an `unsupported` line for each of the others.
std::vector<std::string> accepted_metrics(const std::string& chip, const std::vector<std::uint8_t>& availability,
                                          const std::vector<std::string>& requested,
                                          const std::set<std::string>& bases) {
  std::vector<std::string> accepted;
  for (const std::string& metric : requested) {
    if (std::find(accepted.begin(), accepted.end(), metric) != accepted.end()) continue;
    if (metric_accepted(chip, availability, metric, bases))
      accepted.push_back(metric);
    else
      std::printf("unsupported %s\n", metric.c_str());
  }
  return accepted;
}

/// Appends the window metric to `metrics` unless it is there already or the chip lacks it.
void add_window_metric(const std::string& chip, const std::vector<std::uint8_t>& availability,
                       const std::set<std::string>& bases, std::vector<std::string>& metrics) {
  if (std::find(metrics.begin(), metrics.end(), kWindowMetric) != metrics.end()) return;
  if (metric_accepted(chip, availability, kWindowMetric, bases))
    metrics.push_back(kWindowMetric);
  else
    std::printf("unsupported %s (window metric: the kernel window falls back to host timestamps)\n", kWindowMetric);
}

std::vector<const char*> c_strings(const std::vector<std::string>& names) {
  std::vector<const char*> pointers;
  for (const std::string& name : names) pointers.push_back(name.c_str());
  return pointers;
}

/// The metrics being sampled, the host object that scheduled them (it also evaluates the samples) and the
/// configuration image for cuptiPmSamplingSetConfig.
struct MetricConfig {
  std::unique_ptr<HostObject> host;
  std::vector<std::string> metrics;
  std::vector<const char*> metric_names;  ///< c_str() of `metrics`, for CUPTI
  std::vector<std::uint8_t> image;
  std::size_t passes = 0;

  /// Index of the first metric whose name contains `part`, if any.
  std::optional<std::size_t> find(const char* part) const {
    for (std::size_t i = 0; i < metrics.size(); ++i)
      if (metrics[i].find(part) != std::string::npos) return i;
    return std::nullopt;
  }
};

MetricConfig build_config(const std::string& chip, const std::vector<std::uint8_t>& availability,
                          const std::vector<std::string>& metrics) {
  MetricConfig config;
  config.host = std::make_unique<HostObject>(chip, availability);
  config.metrics = metrics;
  config.metric_names = c_strings(config.metrics);
  check_cupti(config.host->try_add_metrics(config.metric_names), "cuptiProfilerHostConfigAddMetrics");
  auto size = CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
  size.pHostObject = config.host->get();
  CUPTI_CALL(cuptiProfilerHostGetConfigImageSize, size);
  config.image.resize(size.configImageSize);
  auto image = CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
  image.pHostObject = config.host->get();
  image.configImageSize = config.image.size();
  image.pConfigImage = config.image.data();
  CUPTI_CALL(cuptiProfilerHostGetConfigImage, image);
  auto passes = CUPTI_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
  passes.configImageSize = config.image.size();
  passes.pConfigImage = config.image.data();
  CUPTI_CALL(cuptiProfilerHostGetNumOfPasses, passes);
  config.passes = passes.numOfPasses;
  return config;
}

/// PM sampling collects in a single pass (SetConfig refuses more): drop metrics from the end, the window metric
/// first, until one pass suffices. A first metric that needs more passes on its own is left for SetConfig to refuse.
MetricConfig build_single_pass_config(const std::string& chip, const std::vector<std::uint8_t>& availability,
                                      std::vector<std::string> metrics) {
  for (;;) {
    MetricConfig config = build_config(chip, availability, metrics);
    if (config.image.empty()) {
      std::printf("%s: the configuration image is empty (counter availability missing?)\n", kWorkload);
      std::exit(kExitUnavailable);
    }
    if (config.passes <= 1 || metrics.size() == 1) return config;
    std::printf("unsupported %s (with the metrics before it PM sampling would need %zu passes)\n",
                metrics.back().c_str(), config.passes);
    metrics.pop_back();
  }
}

void profiler_initialize() {
  auto p = CUPTI_PARAMS(CUpti_Profiler_Initialize_Params);
  CUPTI_CALL(cuptiProfilerInitialize, p);
}

void profiler_deinitialize() {
  auto p = CUPTI_PARAMS(CUpti_Profiler_DeInitialize_Params);
  CUPTI_CALL(cuptiProfilerDeInitialize, p);
}

const char* support_level(CUpti_Profiler_Support_Level level) {
  switch (level) {
    case CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED: return "unsupported";
    case CUPTI_PROFILER_CONFIGURATION_DISABLED: return "disabled";
    case CUPTI_PROFILER_CONFIGURATION_SUPPORTED: return "supported";
    default: return "unknown";
  }
}

/// CUPTI wants the driver's CUdevice. It is fetched through the runtime so that the program does not link libcuda:
/// on a machine without a driver it then starts and says why it cannot run instead of failing to load.
CUdevice driver_device(int ordinal) {
  using DeviceGet = CUresult (*)(CUdevice*, int);
  void* function = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  WS_CHECK(cudaGetDriverEntryPointByVersion("cuDeviceGet", &function, 12000, cudaEnableDefault, &found));
  CUdevice device = 0;
  if (found != cudaDriverEntryPointSuccess || function == nullptr ||
      reinterpret_cast<DeviceGet>(function)(&device, ordinal) != CUDA_SUCCESS) {
    std::printf("%s: cuDeviceGet(%d) failed\n", kWorkload, ordinal);
    std::exit(kExitUnavailable);
  }
  return device;
}

void require_pm_sampling_support(int device) {
  auto p = CUPTI_PARAMS(CUpti_Profiler_DeviceSupported_Params);
  p.cuDevice = driver_device(device);
  p.api = CUPTI_PROFILER_PM_SAMPLING;
  CUPTI_CALL(cuptiProfilerDeviceSupported, p);
  if (p.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return;
  std::printf(
      "%s: PM sampling not available on device %d: architecture %s, sli %s, vGpu %s, "
      "confidentialCompute %s, cmp %s, wsl %s\n",
      kWorkload, device, support_level(p.architecture), support_level(p.sli), support_level(p.vGpu),
      support_level(p.confidentialCompute), support_level(p.cmp), support_level(p.wsl));
  std::exit(kExitUnavailable);
}

std::string chip_name(int device) {
  auto p = CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
  p.deviceIndex = static_cast<std::size_t>(device);
  CUPTI_CALL(cuptiDeviceGetChipName, p);
  return p.pChipName;
}

std::vector<std::uint8_t> counter_availability(int device) {
  auto p = CUPTI_PARAMS(CUpti_PmSampling_GetCounterAvailability_Params);
  p.deviceIndex = static_cast<std::size_t>(device);
  CUPTI_CALL(cuptiPmSamplingGetCounterAvailability, p);  // first call: the size
  std::vector<std::uint8_t> image(p.counterAvailabilityImageSize);
  p.pCounterAvailabilityImage = image.data();
  CUPTI_CALL(cuptiPmSamplingGetCounterAvailability, p);
  return image;
}

std::uint64_t cupti_timestamp() {
  std::uint64_t ns = 0;
  check_cupti(cuptiGetTimestamp(&ns), "cuptiGetTimestamp");
  return ns;
}

// ---------------------------------------------------------------------------------------------------------------
// PM sampling session

struct Sample {
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
  std::vector<double> values;  ///< one per MetricConfig::metrics
};

struct Recording {
  std::vector<Sample> samples;
  bool overflow = false;         ///< the hardware buffer overflowed: samples were lost
  int counter_data_refills = 0;  ///< times the counter data image filled up and was decoded into again
  /// Why decoding ended: "end_of_records" (all of them decoded), else "overflow_error" (DecodeData returned
  /// CUPTI_ERROR_OUT_OF_MEMORY; this round's samples are dropped), "stop_reason_other", or "full_but_empty".
  const char* decode_end = "end_of_records";
};

/// PM sampling on one device with one configuration; samples are decoded after each Stop.
class PmSampler {
 public:
  PmSampler(int device, const MetricConfig& config, std::uint64_t interval_ns, std::size_t hw_buffer_bytes,
            std::uint32_t max_samples)
      : config_(config) {
    auto enable = CUPTI_PARAMS(CUpti_PmSampling_Enable_Params);
    enable.deviceIndex = static_cast<std::size_t>(device);
    CUPTI_CALL(cuptiPmSamplingEnable, enable);
    object_ = enable.pPmSamplingObject;

    auto set = CUPTI_PARAMS(CUpti_PmSampling_SetConfig_Params);
    set.pPmSamplingObject = object_;
    set.configSize = config.image.size();
    set.pConfig = config.image.data();
    set.hardwareBufferSize = hw_buffer_bytes;
    set.samplingInterval = interval_ns;
    // A fixed-frequency trigger (Ampere GA10x and later, so Hopper): the interval is in nanoseconds whatever the
    // SYS clock does. KEEP_OLDEST: a full buffer is reported as an overflow instead of silently losing the start.
    set.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
    set.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST;
    CUPTI_CALL(cuptiPmSamplingSetConfig, set);

    auto size = CUPTI_PARAMS(CUpti_PmSampling_GetCounterDataSize_Params);
    size.pPmSamplingObject = object_;
    size.pMetricNames = const_cast<const char**>(config.metric_names.data());
    size.numMetrics = config.metric_names.size();
    size.maxSamples = max_samples;
    CUPTI_CALL(cuptiPmSamplingGetCounterDataSize, size);
    counter_data_.resize(size.counterDataSize);
  }
  ~PmSampler() {
    auto p = CUPTI_PARAMS(CUpti_PmSampling_Disable_Params);
    p.pPmSamplingObject = object_;
    CUPTI_CALL(cuptiPmSamplingDisable, p);
  }
  PmSampler(const PmSampler&) = delete;
  PmSampler& operator=(const PmSampler&) = delete;

  void start() {
    auto p = CUPTI_PARAMS(CUpti_PmSampling_Start_Params);
    p.pPmSamplingObject = object_;
    CUPTI_CALL(cuptiPmSamplingStart, p);
  }
  void stop() {
    auto p = CUPTI_PARAMS(CUpti_PmSampling_Stop_Params);
    p.pPmSamplingObject = object_;
    CUPTI_CALL(cuptiPmSamplingStop, p);
  }

  /// Decodes everything the hardware buffer holds since start(), refilling the counter data image as often as
  /// it fills up.
  Recording decode_all() {
    Recording recording;
    for (;;) {
      reset_counter_data();
      auto p = CUPTI_PARAMS(CUpti_PmSampling_DecodeData_Params);
      p.pPmSamplingObject = object_;
      p.pCounterDataImage = counter_data_.data();
      p.counterDataImageSize = counter_data_.size();
      const CUptiResult result = cuptiPmSamplingDecodeData(&p);
      if (result == CUPTI_ERROR_OUT_OF_MEMORY) {  // the header's status for "records overflowed the buffer"
        recording.overflow = true;
        recording.decode_end = "overflow_error";
        return recording;  // what the image holds now is not trustworthy
      }
      check_cupti(result, "cuptiPmSamplingDecodeData");
      if (p.overflow) recording.overflow = true;
      const std::size_t added = append_completed_samples(recording.samples);
      if (p.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_END_OF_RECORDS) return recording;
      if (p.decodeStopReason != CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL) {
        recording.decode_end = "stop_reason_other";
        return recording;
      }
      if (added == 0) {  // full yet nothing completed: decoding again would loop forever
        recording.decode_end = "full_but_empty";
        return recording;
      }
      ++recording.counter_data_refills;
    }
  }

 private:
  void reset_counter_data() {
    auto p = CUPTI_PARAMS(CUpti_PmSampling_CounterDataImage_Initialize_Params);
    p.pPmSamplingObject = object_;
    p.counterDataSize = counter_data_.size();
    p.pCounterData = counter_data_.data();
    CUPTI_CALL(cuptiPmSamplingCounterDataImageInitialize, p);
  }

  std::size_t append_completed_samples(std::vector<Sample>& samples) {
    auto info = CUPTI_PARAMS(CUpti_PmSampling_GetCounterDataInfo_Params);
    info.pCounterDataImage = counter_data_.data();
    info.counterDataImageSize = counter_data_.size();
    CUPTI_CALL(cuptiPmSamplingGetCounterDataInfo, info);
    for (std::size_t i = 0; i < info.numCompletedSamples; ++i) samples.push_back(evaluate(i));
    return info.numCompletedSamples;
  }

  Sample evaluate(std::size_t index) {
    auto when = CUPTI_PARAMS(CUpti_PmSampling_CounterData_GetSampleInfo_Params);
    when.pPmSamplingObject = object_;
    when.pCounterDataImage = counter_data_.data();
    when.counterDataImageSize = counter_data_.size();
    when.sampleIndex = index;
    CUPTI_CALL(cuptiPmSamplingCounterDataGetSampleInfo, when);
    Sample sample;
    sample.start_ns = when.startTimestamp;
    sample.end_ns = when.endTimestamp;
    sample.values.resize(config_.metrics.size());
    auto values = CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
    values.pHostObject = config_.host->get();
    values.pCounterDataImage = counter_data_.data();
    values.counterDataImageSize = counter_data_.size();
    values.rangeIndex = index;  // for PM sampling a "range" is a sample
    values.ppMetricNames = const_cast<const char**>(config_.metric_names.data());
    values.numMetrics = config_.metric_names.size();
    values.pMetricValues = sample.values.data();
    CUPTI_CALL(cuptiProfilerHostEvaluateToGpuValues, values);
    return sample;
  }

  const MetricConfig& config_;
  CUpti_PmSampling_Object* object_ = nullptr;
  std::vector<std::uint8_t> counter_data_;
};

// ---------------------------------------------------------------------------------------------------------------
// The kernel

enum class Placement : int { kBatch = 0, kSpread = 1 };

/// Whether thread block `block` of `grid` reads the remote buffer. Whole blocks are remote or local, so the two
/// placements differ only in when (in dispatch order) the remote blocks run.
__host__ __device__ bool reads_remote(unsigned block, unsigned grid, Placement placement, int percent) {
  if (percent <= 0) return false;
  if (percent >= 100) return true;
  if (placement == Placement::kBatch) {
    const unsigned long long remote_blocks =
        (static_cast<unsigned long long>(grid) * static_cast<unsigned>(percent) + 99) / 100;
    return block < remote_blocks;
  }
  const unsigned stride = static_cast<unsigned>((100 + percent / 2) / percent);  // round(100 / percent)
  return block % stride == 0;
}

__device__ float block_sum(float value) {
  __shared__ float warp_sums[kThreadsPerBlock / 32];
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  if (lane == 0) warp_sums[warp] = value;
  __syncthreads();
  float total = 0.0f;
  if (threadIdx.x == 0)
    for (int w = 0; w < kThreadsPerBlock / 32; ++w) total += warp_sums[w];
  return total;  // meaningful in thread 0 only
}

/// Each block sums its own contiguous chunk of `n_per_block` floats (a multiple of kElementsPerBlock), read from
/// `remote` (pinned mapped host memory, or a peer GPU's memory) or from `local`, and writes the sum to out[block] so
/// that the reads are kept. Launched with kThreadsPerBlock threads.
__global__ void remote_read(const float* local, const float* remote, float* out, unsigned n_per_block,
                            Placement placement, int percent) {
  const bool remote_block = reads_remote(blockIdx.x, gridDim.x, placement, percent);
  const float* chunk = (remote_block ? remote : local) + static_cast<std::size_t>(blockIdx.x) * n_per_block;
  float sum = 0.0f;
  for (unsigned base = threadIdx.x; base < n_per_block; base += kElementsPerBlock) {
    // All of a thread's loads are issued before the first add, so they are in flight together (remote latency is
    // about a microsecond); each one is coalesced across the warp.
    float values[kElementsPerThread];
#pragma unroll
    for (int k = 0; k < kElementsPerThread; ++k) values[k] = chunk[base + k * kThreadsPerBlock];
#pragma unroll
    for (int k = 0; k < kElementsPerThread; ++k) sum += values[k];
  }
  sum = block_sum(sum);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

// Small integers, so every block sum is exact in float whatever the summation order (at most 1024 x 15 < 2^24);
// remote values are 8..15 and local ones 0..7, so a block that read the wrong buffer cannot match.
__host__ __device__ float local_value(std::size_t i) {
  return static_cast<float>(ws::lowbias32(static_cast<unsigned>(i)) & 7u);
}
__host__ __device__ float remote_value(std::size_t i) { return 8.0f + local_value(i); }

__global__ void fill_local(float* data, std::size_t n) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    data[i] = local_value(i);
}

__global__ void fill_remote(float* data, std::size_t n) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    data[i] = remote_value(i);
}

/// The kernel's inputs and output. The remote buffer is pinned host memory mapped into the GPU (zero-copy reads
/// over PCIe) or, with a peer, that GPU's memory (reads over NVLink).
struct Buffers {
  std::size_t elements = 0;
  unsigned grid = 0;
  float* local = nullptr;
  float* remote_host = nullptr;  ///< host address of the pinned buffer (host mode)
  float* remote = nullptr;       ///< the address the kernel reads
  float* out = nullptr;
  std::vector<float> local_block_sums;
  std::vector<float> remote_block_sums;
};

std::vector<float> block_sums(std::size_t elements, float (*value)(std::size_t)) {
  std::vector<float> sums(elements / kElementsPerBlock, 0.0f);
  for (std::size_t i = 0; i < elements; ++i) sums[i / kElementsPerBlock] += value(i);
  return sums;
}

Buffers make_buffers(const Options& o) {
  Buffers b;
  b.elements = static_cast<std::size_t>(o.elements_mib) * (1u << 20) / sizeof(float);
  b.grid = static_cast<unsigned>(b.elements / kElementsPerBlock);
  const std::size_t bytes = b.elements * sizeof(float);
  WS_CHECK(cudaMalloc(&b.local, bytes));
  WS_CHECK(cudaMalloc(&b.out, b.grid * sizeof(float)));
  fill_local<<<1024, 256>>>(b.local, b.elements);
  WS_CHECK(cudaGetLastError());
  if (o.peer >= 0) {
    int can_access = 0;
    WS_CHECK(cudaDeviceCanAccessPeer(&can_access, o.device, o.peer));
    if (!can_access) {
      std::printf("%s: GPU %d cannot access GPU %d's memory\n", kWorkload, o.device, o.peer);
      std::exit(kExitUnavailable);
    }
    WS_CHECK(cudaDeviceEnablePeerAccess(o.peer, 0));
    WS_CHECK(cudaSetDevice(o.peer));
    WS_CHECK(cudaMalloc(&b.remote, bytes));
    fill_remote<<<1024, 256>>>(b.remote, b.elements);
    WS_CHECK(cudaGetLastError());
    WS_CHECK(cudaDeviceSynchronize());
    WS_CHECK(cudaSetDevice(o.device));
  } else {
    WS_CHECK(cudaHostAlloc(&b.remote_host, bytes, cudaHostAllocMapped));
    for (std::size_t i = 0; i < b.elements; ++i) b.remote_host[i] = remote_value(i);
    WS_CHECK(cudaHostGetDevicePointer(&b.remote, b.remote_host, 0));
  }
  WS_CHECK(cudaDeviceSynchronize());
  b.local_block_sums = block_sums(b.elements, local_value);
  b.remote_block_sums = block_sums(b.elements, remote_value);
  return b;
}

void free_buffers(Buffers& b, const Options& o) {
  WS_CHECK(cudaFree(b.local));
  WS_CHECK(cudaFree(b.out));
  if (b.remote_host) {
    WS_CHECK(cudaFreeHost(b.remote_host));
  } else if (b.remote) {
    WS_CHECK(cudaSetDevice(o.peer));
    WS_CHECK(cudaFree(b.remote));
    WS_CHECK(cudaSetDevice(o.device));
  }
}

struct Case {
  std::string name;
  Placement placement = Placement::kBatch;
  int percent = 0;
};

/// p=0 (all local), batch p, spread p, p=100 (all remote), in this order.
std::vector<Case> make_cases(int percent) {
  const std::string p = std::to_string(percent);
  return {{"p0", Placement::kBatch, 0},
          {"batch_p" + p, Placement::kBatch, percent},
          {"spread_p" + p, Placement::kSpread, percent},
          {"p100", Placement::kBatch, 100}};
}

unsigned remote_block_count(const Case& c, unsigned grid) {
  unsigned count = 0;
  for (unsigned block = 0; block < grid; ++block) count += reads_remote(block, grid, c.placement, c.percent) ? 1u : 0u;
  return count;
}

/// Launches the case's kernel once and returns its CUDA-event time in microseconds (also printed as a `timing` line).
double launch_timed(const Case& c, const Buffers& b, ws::KernelTimer& timer) {
  timer.start();
  remote_read<<<b.grid, kThreadsPerBlock>>>(b.local, b.remote, b.out, kElementsPerBlock, c.placement, c.percent);
  return 1000.0 * static_cast<double>(timer.stop("remote_read"));
}

/// Compares every block's sum with the sum of the buffer it should have read; prints the `check` line.
int check_result(const Case& c, const Buffers& b) {
  std::vector<float> out(b.grid);
  WS_CHECK(cudaMemcpy(out.data(), b.out, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (unsigned block = 0; block < b.grid; ++block) {
    const bool remote = reads_remote(block, b.grid, c.placement, c.percent);
    const float want = remote ? b.remote_block_sums[block] : b.local_block_sums[block];
    if (out[block] != want) {
      return ws::report_check(kWorkload, false,
                              c.name + " block " + std::to_string(block) + " sum " + std::to_string(out[block]) +
                                  " expected " + std::to_string(want) + (remote ? " (remote)" : " (local)"));
    }
  }
  return ws::report_check(kWorkload, true, c.name + " blocks=" + std::to_string(b.grid));
}

// ---------------------------------------------------------------------------------------------------------------
// Analysis of one case's samples

struct Window {
  double start_ns = 0.0;  ///< relative to the first sample's start
  double end_ns = 0.0;
  const char* source = "all_samples";
};

double relative_ns(std::uint64_t t, std::uint64_t origin) {
  return static_cast<double>(static_cast<std::int64_t>(t - origin));
}

/// The kernel's span on the samples' clock from the engine-busy metric; a partly busy edge sample contributes the
/// busy part of its length (the kernel starts late in its first sample and ends early in its last).
std::optional<Window> busy_window(const std::vector<Sample>& samples, std::size_t busy_metric) {
  std::optional<std::size_t> first, last;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (samples[i].values[busy_metric] < kBusyPercent) continue;
    if (!first) first = i;
    last = i;
  }
  if (!first) return std::nullopt;
  const std::uint64_t origin = samples.front().start_ns;
  auto busy_fraction = [&](std::size_t i) { return std::min(1.0, samples[i].values[busy_metric] / 100.0); };
  auto length = [&](std::size_t i) { return static_cast<double>(samples[i].end_ns - samples[i].start_ns); };
  Window w;
  w.start_ns = relative_ns(samples[*first].end_ns, origin) - busy_fraction(*first) * length(*first);
  w.end_ns = relative_ns(samples[*last].start_ns, origin) + busy_fraction(*last) * length(*last);
  w.source = "gr_busy";
  return w;
}

/// The kernel's span from host timestamps taken just before the launch and just after its end was synchronized:
/// somewhat wider than the kernel (launch and wake-up latency), usable only if the samples share the host's clock.
std::optional<Window> host_window(const std::vector<Sample>& samples, std::uint64_t host_begin,
                                  std::uint64_t host_end) {
  const std::uint64_t origin = samples.front().start_ns;
  const double first = 0.0;
  const double last = relative_ns(samples.back().end_ns, origin);
  Window w;
  w.start_ns = std::max(first, relative_ns(host_begin, origin));
  w.end_ns = std::min(last, relative_ns(host_end, origin));
  w.source = "host_timestamps";
  if (w.end_ns <= w.start_ns) return std::nullopt;  // disjoint: another clock
  return w;
}

Window kernel_window(const std::vector<Sample>& samples, const MetricConfig& config, std::uint64_t host_begin,
                     std::uint64_t host_end) {
  if (auto busy = config.find("gr__cycles_active")) {
    if (auto w = busy_window(samples, *busy)) return *w;
  }
  if (auto w = host_window(samples, host_begin, host_end)) return *w;
  Window all;
  all.end_ns = relative_ns(samples.back().end_ns, samples.front().start_ns);
  return all;
}

double overlap(double a0, double a1, double b0, double b1) {
  return std::max(0.0, std::min(a1, b1) - std::max(a0, b0));
}

/// Sum of `metric` over the part of each sample inside [from, to), assuming a sample's count accrued evenly over it.
double metric_between(const std::vector<Sample>& samples, std::size_t metric, double from, double to) {
  const std::uint64_t origin = samples.front().start_ns;
  double sum = 0.0;
  for (const Sample& s : samples) {
    const double s0 = relative_ns(s.start_ns, origin);
    const double s1 = relative_ns(s.end_ns, origin);
    if (s1 <= s0) continue;
    sum += s.values[metric] * overlap(s0, s1, from, to) / (s1 - s0);
  }
  return sum;
}

double metric_total(const std::vector<Sample>& samples, std::size_t metric) {
  double sum = 0.0;
  for (const Sample& s : samples) sum += s.values[metric];
  return sum;
}

/// The remote-read counter: PCIe reads for host memory, NVLink receive for a peer (the other one if absent).
std::optional<std::size_t> remote_read_metric(const MetricConfig& config, bool peer) {
  const char* preferred = peer ? "nvlrx__" : "pcie__read";
  const char* other = peer ? "pcie__read" : "nvlrx__";
  if (auto index = config.find(preferred)) return index;
  return config.find(other);
}

void print_samples(const Case& c, const std::vector<Sample>& samples, const MetricConfig& config) {
  const std::uint64_t origin = samples.front().start_ns;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    std::printf("sample %s %zu %.0f %.0f", c.name.c_str(), i, relative_ns(samples[i].start_ns, origin),
                relative_ns(samples[i].end_ns, origin));
    for (std::size_t m = 0; m < config.metrics.size(); ++m)
      std::printf(" %s=%.10g", config.metrics[m].c_str(), samples[i].values[m]);
    std::printf("\n");
  }
}

void print_summary(const Case& c, const Recording& rec, const MetricConfig& config, double kernel_us) {
  std::printf("case %s samples %zu kernel_us %.3f", c.name.c_str(), rec.samples.size(), kernel_us);
  for (std::size_t m = 0; m < config.metrics.size(); ++m)
    std::printf(" %s_total=%.10g", config.metrics[m].c_str(), metric_total(rec.samples, m));
  std::printf("\n");
}

/// The key numbers: where the kernel ran on the samples' clock, and the share of the remote-read bytes in its first
/// half (batch placement with a small P should be near 1, spread near 0.5).
void print_time_profile(const Case& c, const Recording& rec, const MetricConfig& config, bool peer,
                        std::uint64_t host_begin, std::uint64_t host_end) {
  const std::uint64_t origin = rec.samples.front().start_ns;
  std::printf("%s host_timestamps_ns %.0f %.0f\n", c.name.c_str(), relative_ns(host_begin, origin),
              relative_ns(host_end, origin));
  const Window w = kernel_window(rec.samples, config, host_begin, host_end);
  const std::optional<std::size_t> metric = remote_read_metric(config, peer);
  if (!metric) {
    std::printf("%s window %s %.0f %.0f remote_metric none\n", c.name.c_str(), w.source, w.start_ns, w.end_ns);
    std::printf("%s first_half_share nan\n", c.name.c_str());
    return;
  }
  const double in_window = metric_between(rec.samples, *metric, w.start_ns, w.end_ns);
  const double total = metric_total(rec.samples, *metric);
  const double first_half = metric_between(rec.samples, *metric, w.start_ns, 0.5 * (w.start_ns + w.end_ns));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::printf("%s window %s %.0f %.0f remote_metric %s in_window_share %.4f\n", c.name.c_str(), w.source, w.start_ns,
              w.end_ns, config.metrics[*metric].c_str(), total > 0.0 ? in_window / total : nan);
  std::printf("%s first_half_share %.4f\n", c.name.c_str(), in_window > 0.0 ? first_half / in_window : nan);
}

/// Samples one launch of the case's kernel; prints its samples, summary and time profile; returns the exit status
/// of its result check.
int run_sampled_case(const Case& c, const Buffers& b, PmSampler& sampler, const MetricConfig& config, bool peer,
                     ws::KernelTimer& timer) {
  WS_CHECK(cudaMemset(b.out, 0, b.grid * sizeof(float)));
  WS_CHECK(cudaDeviceSynchronize());  // nothing but the kernel on the GPU while sampling
  std::printf("%s remote_blocks %u of %u\n", c.name.c_str(), remote_block_count(c, b.grid), b.grid);
  sampler.start();
  const std::uint64_t host_begin = cupti_timestamp();
  const double kernel_us = launch_timed(c, b, timer);
  const std::uint64_t host_end = cupti_timestamp();
  sampler.stop();
  const Recording rec = sampler.decode_all();  // after Stop: the hardware buffer holds the whole launch

  if (rec.overflow)
    std::printf(
        "%s overflow: the hardware buffer overflowed, samples were lost (raise --interval-ns or --hw-buffer-mib)\n",
        c.name.c_str());
  if (rec.counter_data_refills > 0)
    std::printf("%s counter_data_full %d times (decoded again into the emptied image, no sample lost)\n",
                c.name.c_str(), rec.counter_data_refills);
  if (std::strcmp(rec.decode_end, "end_of_records") != 0)
    std::printf("%s decode_end %s: not every record was decoded\n", c.name.c_str(), rec.decode_end);
  if (rec.samples.empty()) {
    std::printf("case %s samples 0 kernel_us %.3f\n%s first_half_share nan\n", c.name.c_str(), kernel_us,
                c.name.c_str());
  } else {
    print_samples(c, rec.samples, config);
    print_summary(c, rec, config, kernel_us);
    print_time_profile(c, rec, config, peer, host_begin, host_end);
  }
  return check_result(c, b);
}

/// Counter data room for the longest case: twice its warm-up time plus 2 ms of launch and synchronization around
/// it; decode_all() copes with more by decoding again into the emptied image.
std::uint32_t samples_to_hold(double longest_kernel_us, std::uint64_t interval_ns) {
  const double span_ns = 2.0 * longest_kernel_us * 1000.0 + 2.0e6;
  const double samples = std::ceil(span_ns / static_cast<double>(interval_ns)) + 64.0;
  return static_cast<std::uint32_t>(std::min(samples, 200000.0));
}

// ---------------------------------------------------------------------------------------------------------------

/// --chip: host-side only (no GPU); the list of metrics and the acceptance of --metrics for that chip.
int query_offline(const Options& o) {
  std::printf("chip %s (offline: no counter availability image, so pass counts are not checked)\n", o.chip.c_str());
  const std::set<std::string> bases = list_supported_metrics(o.chip, {});
  std::vector<std::string> metrics = accepted_metrics(o.chip, {}, o.metrics, bases);
  if (metrics.empty()) return kExitUnavailable;
  add_window_metric(o.chip, {}, bases, metrics);
  for (const std::string& m : metrics) std::printf("accepted %s\n", m.c_str());
  return 0;
}

int run_probe(const Options& o) {
  require_pm_sampling_support(o.device);
  const std::string chip = chip_name(o.device);
  const std::vector<std::uint8_t> availability = counter_availability(o.device);
  cudaDeviceProp prop{};
  WS_CHECK(cudaGetDeviceProperties(&prop, o.device));
  std::printf("device %d %s chip %s\n", o.device, prop.name, chip.c_str());

  const std::set<std::string> bases = list_supported_metrics(chip, availability);
  std::vector<std::string> metrics = accepted_metrics(chip, availability, o.metrics, bases);
  if (metrics.empty()) {
    std::printf("%s: none of the requested metrics can be sampled on %s\n", kWorkload, chip.c_str());
    return kExitUnavailable;
  }
  add_window_metric(chip, availability, bases, metrics);
  const MetricConfig config = build_single_pass_config(chip, availability, metrics);
  std::printf("metrics");
  for (const std::string& m : config.metrics) std::printf(" %s", m.c_str());
  std::printf(" (passes %zu)\n", config.passes);

  Buffers buffers = make_buffers(o);
  const std::vector<Case> cases = make_cases(o.percent);
  ws::KernelTimer timer(kWorkload);
  // One unsampled launch per case first: loads the module, touches every page, and sizes the counter data.
  double longest_us = 0.0;
  int status = 0;
  for (const Case& c : cases) {
    const double us = launch_timed(c, buffers, timer);
    std::printf("warmup %s kernel_us %.3f\n", c.name.c_str(), us);
    longest_us = std::max(longest_us, us);
    status |= check_result(c, buffers);
  }

  const std::uint32_t max_samples = samples_to_hold(longest_us, o.interval_ns);
  const std::size_t hw_buffer_bytes = static_cast<std::size_t>(o.hw_buffer_mib) << 20;
  std::printf(
      "sampling interval_ns %llu trigger gpu_time_interval hw_buffer_mib %ld max_samples %u grid %u "
      "elements_per_block %u remote %s\n",
      static_cast<unsigned long long>(o.interval_ns), o.hw_buffer_mib, max_samples, buffers.grid, kElementsPerBlock,
      o.peer >= 0 ? ("peer" + std::to_string(o.peer)).c_str() : "host");
  {
    PmSampler sampler(o.device, config, o.interval_ns, hw_buffer_bytes, max_samples);
    for (const Case& c : cases) status |= run_sampled_case(c, buffers, sampler, config, o.peer >= 0, timer);
  }
  free_buffers(buffers, o);
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  if (!o.chip.empty()) return query_offline(o);
  WS_CHECK(cudaSetDevice(o.device));
  WS_CHECK(cudaFree(nullptr));  // create the context before CUPTI's profiler is initialized
  profiler_initialize();
  const int status = run_probe(o);
  profiler_deinitialize();
  return status;
}
