#pragma once
/// @brief CUPTI PM sampling on one device for traffic mode: the traffic counters (traffic_counters.h) sampled every
/// few microseconds of GPU time while a launch runs (begin at its start, end when it has returned: traffic mode
/// serializes launches), decoded at its end into the trace's TrafficSample rows. The samples' timestamps are on the
/// activity records' clock (seen on H200, CUDA 13.0, workloads/probe_pm_sampling), so kernels and samples can be
/// matched later (trace/traffic_profile.h). Sampling only while a launch runs keeps the hardware buffer to one
/// launch's samples and decodes them after Stop, the sequence the probe ran on H200; sampling the whole run and
/// decoding while it ran hung there (2026-11-28).
///
/// Call sequence (cupti_pmsampling.h, cupti_profiler_host.h; cuptiProfilerInitialize must have succeeded):
/// cuptiDeviceGetChipName, cuptiPmSamplingGetCounterAvailability, a PM-sampling host object per counter to see which
/// the chip offers and one for the configuration image (one pass: PM sampling collects no more), cuptiPmSamplingEnable,
/// SetConfig (GPU time-interval trigger, 512 MiB hardware buffer), GetCounterDataSize; per launch Start, then Stop and,
/// until the records run out, CounterDataImageInitialize, DecodeData, GetCounterDataInfo, and per completed sample
/// CounterDataGetSampleInfo (its times) and cuptiProfilerHostEvaluateToGpuValues (its values).

#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "pm_sampling/traffic_counters.h"
#include "trace.pb.h"

namespace warpsim::tracer {

class TrafficSampler {
 public:
  using Warn = std::function<void(const std::string&)>;

  /// Sets PM sampling up on device `device` (CUPTI's device index, the kernels' device_id) with a sample every
  /// `interval_ns`, not yet sampling. nullptr after one warning naming the call that failed: the device then goes
  /// without samples. A counter the chip does not offer is left out, with one warning.
  static std::unique_ptr<TrafficSampler> start(std::uint32_t device, std::uint64_t interval_ns, const Warn& warn);
  /// Releases the host object. PM sampling itself is left enabled: disabling it may finalize all of CUPTI (a note in
  /// XLA's PM sampler), which would end the activity records; the process's exit releases it.
  ~TrafficSampler() = default;
  TrafficSampler(const TrafficSampler&) = delete;
  TrafficSampler& operator=(const TrafficSampler&) = delete;

  /// Starts sampling (a launch begins).
  void begin();
  /// Stops sampling (the launch has returned) and decodes its samples: one batch (the samples of one trace event) per
  /// counter data image filled. After a CUPTI failure (one warning) the device gives no more samples.
  std::vector<TrafficSamples> end();

 private:
  struct HostObjectRelease {
    void operator()(CUpti_Profiler_Host_Object* host) const;
  };
  /// CUPTI's host side of PM sampling on one chip: which metrics exist, the configuration image, the evaluation.
  using HostObject = std::unique_ptr<CUpti_Profiler_Host_Object, HostObjectRelease>;
  static HostObject host_object(const std::string& chip, const std::vector<std::uint8_t>& availability,
                                CUptiResult& result);

  TrafficSampler(std::uint32_t device, const Warn& warn) : device_(device), warn_(warn) {}
  bool choose_counters(const std::string& chip, const std::vector<std::uint8_t>& availability);
  bool build_config(const std::string& chip, const std::vector<std::uint8_t>& availability, std::size_t& passes);
  bool enable(std::uint64_t interval_ns);
  std::vector<TrafficSamples> drain();
  bool decode_into_counter_data(bool& more);
  bool append_completed_samples(std::vector<TrafficSamples>& batches, std::size_t& completed);
  bool read_sample(std::size_t index, DecodedSample& sample);
  void on_overflow();
  /// Whether `result` is success; otherwise one warning naming `call`, and the device gives no more samples.
  bool ok(CUptiResult result, const char* call);
  std::string device_name() const { return "device " + std::to_string(device_); }

  const std::uint32_t device_;
  Warn warn_;
  std::vector<TrafficCounter> counters_;  ///< those sampled, in traffic_counters()' order
  std::vector<const char*> metric_names_;
  HostObject host_;  ///< the one the configuration image came from: it evaluates the samples
  CUpti_PmSampling_Object* sampling_ = nullptr;
  std::vector<std::uint8_t> config_;
  std::vector<std::uint8_t> counter_data_;
  bool failed_ = false;
  bool running_ = false;
  bool overflow_warned_ = false;
};

}  // namespace warpsim::tracer
