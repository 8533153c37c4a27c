#include "pm_sampling/traffic_sampler.h"

#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <utility>

namespace warpsim::tracer {
namespace {

// Raw samples wait here between drains. The probe sampled every 2 us on H200 into 512 MiB without overflow (for a few
// milliseconds). An idle H200 wrote 3072 PCIe bytes per sample whatever the interval, likely the sampler's own
// records: at the default 5 us that would fill 512 MiB in about 0.9 s, a few drain periods (--flush-ms, 500 ms).
constexpr std::size_t kHardwareBufferBytes = std::size_t{512} << 20;
// Samples per counter data image: a drain decodes as many images as the hardware buffer fills, each one trace event.
constexpr std::uint32_t kSamplesPerImage = 16384;

// CUPTI's parameter structs: zeroed, with their size set (the size tells CUPTI which fields this build knows).
template <typename Params>
Params params(std::size_t struct_size) {
  Params p{};
  p.structSize = struct_size;
  return p;
}

std::string describe(CUptiResult result) {
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  return std::string(text ? text : "unknown CUPTI error") + " (" + std::to_string(static_cast<int>(result)) + ")";
}

// Whether CUPTI takes `metric` for the host object's chip: a refusal is how it says there is no such metric for PM
// sampling there.
bool accepts(CUpti_Profiler_Host_Object* host, const char* metric) {
  auto add =
      params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
  add.pHostObject = host;
  add.ppMetricNames = &metric;
  add.numMetrics = 1;
  return cuptiProfilerHostConfigAddMetrics(&add) == CUPTI_SUCCESS;
}

}  // namespace

void TrafficSampler::HostObjectRelease::operator()(CUpti_Profiler_Host_Object* host) const {
  auto p = params<CUpti_Profiler_Host_Deinitialize_Params>(CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
  p.pHostObject = host;
  cuptiProfilerHostDeinitialize(&p);
}

TrafficSampler::HostObject TrafficSampler::host_object(const std::string& chip,
                                                       const std::vector<std::uint8_t>& availability,
                                                       CUptiResult& result) {
  auto p = params<CUpti_Profiler_Host_Initialize_Params>(CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
  p.profilerType = CUPTI_PROFILER_TYPE_PM_SAMPLING;
  p.pChipName = chip.c_str();
  p.pCounterAvailabilityImage = availability.empty() ? nullptr : availability.data();
  result = cuptiProfilerHostInitialize(&p);
  return HostObject(result == CUPTI_SUCCESS ? p.pHostObject : nullptr);
}

std::unique_ptr<TrafficSampler> TrafficSampler::start(std::uint32_t device, std::uint64_t interval_ns,
                                                      const Warn& warn) {
  std::unique_ptr<TrafficSampler> self(new TrafficSampler(device, warn));  // private constructor

  auto chip = params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip.deviceIndex = device;
  if (!self->ok(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName")) return nullptr;
  auto available = params<CUpti_PmSampling_GetCounterAvailability_Params>(
      CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE);
  available.deviceIndex = device;
  if (!self->ok(cuptiPmSamplingGetCounterAvailability(&available), "cuptiPmSamplingGetCounterAvailability"))
    return nullptr;
  std::vector<std::uint8_t> availability(available.counterAvailabilityImageSize);
  available.pCounterAvailabilityImage = availability.data();
  if (!self->ok(cuptiPmSamplingGetCounterAvailability(&available), "cuptiPmSamplingGetCounterAvailability"))
    return nullptr;

  if (!self->choose_counters(chip.pChipName, availability) || !self->enable(interval_ns)) return nullptr;
  return self;
}

// The counters the chip offers (CUPTI accepts each on a host object of its own), then as many of them, in order, as
// one pass collects: PM sampling collects no more.
bool TrafficSampler::choose_counters(const std::string& chip, const std::vector<std::uint8_t>& availability) {
  std::string left_out;
  for (const TrafficCounter& counter : traffic_counters()) {
    CUptiResult result = CUPTI_SUCCESS;
    const HostObject scratch = host_object(chip, availability, result);
    if (!ok(result, "cuptiProfilerHostInitialize")) return false;
    if (accepts(scratch.get(), counter.metric))
      counters_.push_back(counter);
    else
      left_out += std::string(" ") + counter.metric;
  }
  std::size_t passes = 0;
  while (!counters_.empty()) {
    if (!build_config(chip, availability, passes)) return false;
    if (passes <= 1) break;
    left_out += std::string(" ") + counters_.back().metric + " (beyond one pass)";
    counters_.pop_back();
  }
  if (counters_.empty()) {
    warn_("traffic sampling on " + device_name() + " (" + chip +
          "): no traffic counter can be sampled; the device goes without samples");
    return false;
  }
  if (!left_out.empty())
    warn_("traffic sampling on " + device_name() + " (" + chip + "): left unset in every sample:" + left_out);
  return true;
}

bool TrafficSampler::build_config(const std::string& chip, const std::vector<std::uint8_t>& availability,
                                  std::size_t& passes) {
  CUptiResult result = CUPTI_SUCCESS;
  host_ = host_object(chip, availability, result);
  if (!ok(result, "cuptiProfilerHostInitialize")) return false;
  metric_names_.clear();
  for (const TrafficCounter& counter : counters_) metric_names_.push_back(counter.metric);

  auto add =
      params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
  add.pHostObject = host_.get();
  add.ppMetricNames = metric_names_.data();
  add.numMetrics = metric_names_.size();
  if (!ok(cuptiProfilerHostConfigAddMetrics(&add), "cuptiProfilerHostConfigAddMetrics")) return false;
  auto size =
      params<CUpti_Profiler_Host_GetConfigImageSize_Params>(CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
  size.pHostObject = host_.get();
  if (!ok(cuptiProfilerHostGetConfigImageSize(&size), "cuptiProfilerHostGetConfigImageSize")) return false;
  config_.assign(size.configImageSize, 0);
  auto image = params<CUpti_Profiler_Host_GetConfigImage_Params>(CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
  image.pHostObject = host_.get();
  image.configImageSize = config_.size();
  image.pConfigImage = config_.data();
  if (!ok(cuptiProfilerHostGetConfigImage(&image), "cuptiProfilerHostGetConfigImage")) return false;
  auto count = params<CUpti_Profiler_Host_GetNumOfPasses_Params>(CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
  count.configImageSize = config_.size();
  count.pConfigImage = config_.data();
  if (!ok(cuptiProfilerHostGetNumOfPasses(&count), "cuptiProfilerHostGetNumOfPasses")) return false;
  passes = count.numOfPasses;
  return true;
}

bool TrafficSampler::enable(std::uint64_t interval_ns) {
  auto enable = params<CUpti_PmSampling_Enable_Params>(CUpti_PmSampling_Enable_Params_STRUCT_SIZE);
  enable.deviceIndex = device_;
  if (!ok(cuptiPmSamplingEnable(&enable), "cuptiPmSamplingEnable")) return false;
  sampling_ = enable.pPmSamplingObject;

  auto set = params<CUpti_PmSampling_SetConfig_Params>(CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE);
  set.pPmSamplingObject = sampling_;
  set.configSize = config_.size();
  set.pConfig = config_.data();
  set.hardwareBufferSize = kHardwareBufferBytes;
  set.samplingInterval = interval_ns;
  // Nanoseconds whatever the SYS clock does (GA10x and later; not Turing nor GA100). KEEP_OLDEST: a full buffer is
  // reported as an overflow instead of silently losing older samples.
  set.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
  set.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST;
  if (!ok(cuptiPmSamplingSetConfig(&set), "cuptiPmSamplingSetConfig")) return false;

  auto size =
      params<CUpti_PmSampling_GetCounterDataSize_Params>(CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE);
  size.pPmSamplingObject = sampling_;
  size.pMetricNames = metric_names_.data();
  size.numMetrics = metric_names_.size();
  size.maxSamples = kSamplesPerImage;
  if (!ok(cuptiPmSamplingGetCounterDataSize(&size), "cuptiPmSamplingGetCounterDataSize")) return false;
  counter_data_.assign(size.counterDataSize, 0);
  return true;
}

void TrafficSampler::begin() {
  if (failed_ || running_) return;
  auto start = params<CUpti_PmSampling_Start_Params>(CUpti_PmSampling_Start_Params_STRUCT_SIZE);
  start.pPmSamplingObject = sampling_;
  running_ = ok(cuptiPmSamplingStart(&start), "cuptiPmSamplingStart");
}

std::vector<TrafficSamples> TrafficSampler::end() {
  if (failed_ || !running_) return {};
  running_ = false;
  auto stop = params<CUpti_PmSampling_Stop_Params>(CUpti_PmSampling_Stop_Params_STRUCT_SIZE);
  stop.pPmSamplingObject = sampling_;
  if (!ok(cuptiPmSamplingStop(&stop), "cuptiPmSamplingStop")) return {};
  return drain();
}

// Sampling has stopped: the records end, so the loop does.
std::vector<TrafficSamples> TrafficSampler::drain() {
  std::vector<TrafficSamples> batches;
  bool more = !failed_;
  while (more) {
    std::size_t completed = 0;
    if (!decode_into_counter_data(more) || !append_completed_samples(batches, completed)) break;
    if (completed == 0) break;  // an image full of incomplete samples would come back the same
  }
  return batches;
}

// Decodes the hardware buffer's records into the emptied counter data image; `more`: it filled up before they ran out.
bool TrafficSampler::decode_into_counter_data(bool& more) {
  more = false;
  auto init = params<CUpti_PmSampling_CounterDataImage_Initialize_Params>(
      CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  init.pPmSamplingObject = sampling_;
  init.counterDataSize = counter_data_.size();
  init.pCounterData = counter_data_.data();
  if (!ok(cuptiPmSamplingCounterDataImageInitialize(&init), "cuptiPmSamplingCounterDataImageInitialize")) return false;

  auto decode = params<CUpti_PmSampling_DecodeData_Params>(CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE);
  decode.pPmSamplingObject = sampling_;
  decode.pCounterDataImage = counter_data_.data();
  decode.counterDataImageSize = counter_data_.size();
  const CUptiResult result = cuptiPmSamplingDecodeData(&decode);
  if (result == CUPTI_ERROR_OUT_OF_MEMORY) {  // cupti_pmsampling.h: records overflowed the hardware buffer
    on_overflow();
    return false;  // what the image holds is not to be trusted
  }
  if (!ok(result, "cuptiPmSamplingDecodeData")) return false;
  if (decode.overflow) on_overflow();
  more = decode.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL;
  return true;
}

// The image's completed samples as one batch; the last one may still be filling (its end not reached yet).
bool TrafficSampler::append_completed_samples(std::vector<TrafficSamples>& batches, std::size_t& completed) {
  auto info =
      params<CUpti_PmSampling_GetCounterDataInfo_Params>(CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE);
  info.pCounterDataImage = counter_data_.data();
  info.counterDataImageSize = counter_data_.size();
  if (!ok(cuptiPmSamplingGetCounterDataInfo(&info), "cuptiPmSamplingGetCounterDataInfo")) return false;
  completed = info.numCompletedSamples;
  TrafficSamples batch;
  batch.set_device_id(device_);
  DecodedSample decoded;
  decoded.values.resize(counters_.size());
  bool read_all = true;
  for (std::size_t i = 0; i < completed; ++i) {
    if (!read_sample(i, decoded)) {
      read_all = false;
      break;
    }
    if (auto row = to_traffic_sample(decoded, counters_)) *batch.add_samples() = std::move(*row);
  }
  if (batch.samples_size() > 0) batches.push_back(std::move(batch));
  return read_all;
}

bool TrafficSampler::read_sample(std::size_t index, DecodedSample& sample) {
  auto when = params<CUpti_PmSampling_CounterData_GetSampleInfo_Params>(
      CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE);
  when.pPmSamplingObject = sampling_;
  when.pCounterDataImage = counter_data_.data();
  when.counterDataImageSize = counter_data_.size();
  when.sampleIndex = index;
  if (!ok(cuptiPmSamplingCounterDataGetSampleInfo(&when), "cuptiPmSamplingCounterDataGetSampleInfo")) return false;
  sample.start_ns = when.startTimestamp;
  sample.end_ns = when.endTimestamp;

  auto values = params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
      CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
  values.pHostObject = host_.get();
  values.pCounterDataImage = counter_data_.data();
  values.counterDataImageSize = counter_data_.size();
  values.rangeIndex = index;  // for PM sampling, a range is a sample
  values.ppMetricNames = metric_names_.data();
  values.numMetrics = metric_names_.size();
  values.pMetricValues = sample.values.data();
  return ok(cuptiProfilerHostEvaluateToGpuValues(&values), "cuptiProfilerHostEvaluateToGpuValues");
}

// Samples were lost: said once; the launch's kernels get profiles from the samples that remain.
void TrafficSampler::on_overflow() {
  if (!overflow_warned_)
    warn_("traffic sampling on " + device_name() +
          ": the hardware buffer overflowed during a launch and samples were lost (sample less often with "
          "--traffic-interval-ns)");
  overflow_warned_ = true;
}

bool TrafficSampler::ok(CUptiResult result, const char* call) {
  if (result == CUPTI_SUCCESS) return true;
  warn_("traffic sampling on " + device_name() + ": " + call + " failed: " + describe(result) +
        "; the device gives no more samples");
  failed_ = true;
  return false;
}

}  // namespace warpsim::tracer
