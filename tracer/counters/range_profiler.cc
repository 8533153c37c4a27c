#include "counters/range_profiler.h"

#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <set>

#include "counters/counter_metrics.h"

namespace warpsim::tracer {
namespace {

// CUPTI's parameter structs: zeroed, with their size set (the size tells CUPTI which fields this build knows).
template <typename Params>
Params params(std::size_t struct_size) {
  Params p{};
  p.structSize = struct_size;
  return p;
}

// A profiled launch runs one kernel (graph launches are left unprofiled, see counters_mode.cc); the counter data
// keeps room for more ranges (the size the GPU runs were made with) so that an unexpected extra one is read.
constexpr std::size_t kMaxRangesPerLaunch = 256;

std::string describe(CUptiResult result) {
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  return std::string(text ? text : "unknown CUPTI error") + " (" + std::to_string(static_cast<int>(result)) + ")";
}

std::vector<std::uint8_t> counter_availability(CUcontext context) {
  auto p = params<CUpti_Profiler_GetCounterAvailability_Params>(CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  p.ctx = context;
  if (cuptiProfilerGetCounterAvailability(&p) != CUPTI_SUCCESS) return {};
  std::vector<std::uint8_t> image(p.counterAvailabilityImageSize);
  p.pCounterAvailabilityImage = image.data();
  if (cuptiProfilerGetCounterAvailability(&p) != CUPTI_SUCCESS) return {};
  return image;
}

// The base metrics the chip offers, of every type.
std::set<std::string> chip_base_metrics(CUpti_Profiler_Host_Object* host) {
  std::set<std::string> names;
  for (CUpti_MetricType type : {CUPTI_METRIC_TYPE_COUNTER, CUPTI_METRIC_TYPE_RATIO, CUPTI_METRIC_TYPE_THROUGHPUT}) {
    auto p = params<CUpti_Profiler_Host_GetBaseMetrics_Params>(CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE);
    p.pHostObject = host;
    p.metricType = type;
    if (cuptiProfilerHostGetBaseMetrics(&p) != CUPTI_SUCCESS) continue;
    for (std::size_t i = 0; i < p.numMetrics; ++i) names.insert(p.ppMetricNames[i]);
  }
  return names;
}

}  // namespace

bool RangeProfiler::initialize(const Warn& warn) {
  auto init = params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  const CUptiResult result = cuptiProfilerInitialize(&init);
  if (result != CUPTI_SUCCESS) warn("counters unavailable: cuptiProfilerInitialize: " + describe(result));
  return result == CUPTI_SUCCESS;
}

std::unique_ptr<RangeProfiler> RangeProfiler::create(CUcontext context, std::uint32_t device_index,
                                                     const std::vector<std::string>& metrics, const Warn& warn) {
  auto fail = [&](const char* step, CUptiResult result) -> std::unique_ptr<RangeProfiler> {
    warn(std::string("counters unavailable on device ") + std::to_string(device_index) + ": " + step + ": " +
         describe(result));
    return nullptr;
  };
  auto chip = params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip.deviceIndex = device_index;
  if (auto r = cuptiDeviceGetChipName(&chip); r != CUPTI_SUCCESS) return fail("cuptiDeviceGetChipName", r);
  const std::vector<std::uint8_t> availability = counter_availability(context);

  std::unique_ptr<RangeProfiler> self(new RangeProfiler());  // private constructor
  self->warn_ = warn;
  if (auto r = self->configure(chip.pChipName, availability, metrics); r != CUPTI_SUCCESS) {
    // On the 2xH200 machine the availability image marks the NVLink counters unavailable although the chip has
    // them; without the image CUPTI builds the configuration, and the launch then says whether they can be read.
    if (availability.empty() || self->configure(chip.pChipName, {}, metrics) != CUPTI_SUCCESS)
      return fail("building the metric configuration", r);
    warn("the device's counter availability refused some metrics; trying them anyway");
  }

  auto enable = params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
  enable.ctx = context;
  if (auto r = cuptiRangeProfilerEnable(&enable); r != CUPTI_SUCCESS) return fail("cuptiRangeProfilerEnable", r);
  self->profiler_ = enable.pRangeProfilerObject;
  auto data = params<CUpti_RangeProfiler_GetCounterDataSize_Params>(CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
  data.pRangeProfilerObject = self->profiler_;
  data.pMetricNames = self->metric_pointers_.data();
  data.numMetrics = self->metric_pointers_.size();
  data.maxNumOfRanges = kMaxRangesPerLaunch;
  data.maxNumRangeTreeNodes = kMaxRangesPerLaunch;
  if (auto r = cuptiRangeProfilerGetCounterDataSize(&data); r != CUPTI_SUCCESS) return fail("GetCounterDataSize", r);
  self->counter_data_.resize(data.counterDataSize);
  return self;
}

CUptiResult RangeProfiler::configure(const char* chip, const std::vector<std::uint8_t>& availability,
                                     const std::vector<std::string>& metrics) {
  if (host_) {
    auto p = params<CUpti_Profiler_Host_Deinitialize_Params>(CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
    p.pHostObject = host_;
    cuptiProfilerHostDeinitialize(&p);
    host_ = nullptr;
  }
  auto host = params<CUpti_Profiler_Host_Initialize_Params>(CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
  host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  host.pChipName = chip;
  host.pCounterAvailabilityImage = availability.empty() ? nullptr : availability.data();
  if (auto r = cuptiProfilerHostInitialize(&host); r != CUPTI_SUCCESS) return r;
  host_ = host.pHostObject;

  const std::set<std::string> offered = chip_base_metrics(host_);
  std::string dropped;
  metrics_.clear();
  for (const std::string& metric : metrics) {
    if (offered.count(base_metric(metric)) != 0) metrics_.push_back(metric);
    else dropped += " " + metric;
  }
  if (!dropped.empty()) warn_(std::string("chip ") + chip + " lacks, left absent:" + dropped);
  if (metrics_.empty()) return CUPTI_ERROR_NOT_SUPPORTED;
  metric_pointers_.clear();
  for (const std::string& metric : metrics_) metric_pointers_.push_back(metric.c_str());

  auto add = params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
  add.pHostObject = host_;
  add.ppMetricNames = metric_pointers_.data();
  add.numMetrics = metric_pointers_.size();
  if (auto r = cuptiProfilerHostConfigAddMetrics(&add); r != CUPTI_SUCCESS) return r;
  auto size =
      params<CUpti_Profiler_Host_GetConfigImageSize_Params>(CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
  size.pHostObject = host_;
  if (auto r = cuptiProfilerHostGetConfigImageSize(&size); r != CUPTI_SUCCESS) return r;
  config_.resize(size.configImageSize);
  auto image = params<CUpti_Profiler_Host_GetConfigImage_Params>(CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
  image.pHostObject = host_;
  image.configImageSize = config_.size();
  image.pConfigImage = config_.data();
  if (auto r = cuptiProfilerHostGetConfigImage(&image); r != CUPTI_SUCCESS) return r;
  auto passes = params<CUpti_Profiler_Host_GetNumOfPasses_Params>(CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
  passes.pConfigImage = config_.data();
  passes.configImageSize = config_.size();
  passes_ = cuptiProfilerHostGetNumOfPasses(&passes) == CUPTI_SUCCESS ? passes.numOfPasses : 0;
  return CUPTI_SUCCESS;
}

RangeProfiler::~RangeProfiler() {
  if (profiler_) {
    auto p = params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
    p.pRangeProfilerObject = profiler_;
    cuptiRangeProfilerDisable(&p);
  }
  if (host_) {
    auto p = params<CUpti_Profiler_Host_Deinitialize_Params>(CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
    p.pHostObject = host_;
    cuptiProfilerHostDeinitialize(&p);
  }
}

bool RangeProfiler::begin() {
  auto init = params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  init.pRangeProfilerObject = profiler_;
  init.counterDataSize = counter_data_.size();
  init.pCounterData = counter_data_.data();
  auto config = params<CUpti_RangeProfiler_SetConfig_Params>(CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
  config.pRangeProfilerObject = profiler_;
  config.configSize = config_.size();
  config.pConfig = config_.data();
  config.counterDataImageSize = counter_data_.size();
  config.pCounterDataImage = counter_data_.data();
  config.range = CUPTI_AutoRange;
  config.replayMode = CUPTI_KernelReplay;
  config.maxRangesPerPass = kMaxRangesPerLaunch;
  config.numNestingLevels = 1;
  config.minNestingLevel = 1;
  config.passIndex = 0;
  config.targetNestingLevel = 1;
  auto start = params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
  start.pRangeProfilerObject = profiler_;
  return ok(cuptiRangeProfilerCounterDataImageInitialize(&init), "CounterDataImageInitialize") &&
         ok(cuptiRangeProfilerSetConfig(&config), "SetConfig") && ok(cuptiRangeProfilerStart(&start), "Start");
}

std::vector<std::vector<double>> RangeProfiler::end() {
  auto stop = params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
  stop.pRangeProfilerObject = profiler_;
  auto decode = params<CUpti_RangeProfiler_DecodeData_Params>(CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
  decode.pRangeProfilerObject = profiler_;
  auto info = params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
  info.pCounterDataImage = counter_data_.data();
  info.counterDataImageSize = counter_data_.size();
  if (!(ok(cuptiRangeProfilerStop(&stop), "Stop") && ok(cuptiRangeProfilerDecodeData(&decode), "DecodeData") &&
        ok(cuptiRangeProfilerGetCounterDataInfo(&info), "GetCounterDataInfo")))
    return {};
  std::vector<std::vector<double>> ranges(info.numTotalRanges, std::vector<double>(metrics_.size()));
  for (std::size_t range = 0; range < ranges.size(); ++range)
    if (!evaluate(range, ranges[range])) return {};
  return ranges;
}

bool RangeProfiler::evaluate(std::size_t range, std::vector<double>& values) {
  auto p = params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
  p.pHostObject = host_;
  p.pCounterDataImage = counter_data_.data();
  p.counterDataImageSize = counter_data_.size();
  p.rangeIndex = range;
  p.ppMetricNames = metric_pointers_.data();
  p.numMetrics = metric_pointers_.size();
  p.pMetricValues = values.data();
  return ok(cuptiProfilerHostEvaluateToGpuValues(&p), "EvaluateToGpuValues");
}

bool RangeProfiler::ok(CUptiResult result, const char* step) const {
  if (result == CUPTI_SUCCESS) return true;
  warn_(std::string("range profiler ") + step + ": " + describe(result));
  return false;
}

}  // namespace warpsim::tracer
