#pragma once
/// @brief CUPTI's range profiler on one CUDA context, one profiled launch at a time: begin() before the launch,
/// end() after it gives one set of metric values per kernel the launch ran (auto range: a kernel is a range; kernel
/// replay: CUPTI replays it for as many passes as the metrics need).

#include <cuda.h>
#include <cupti_profiler_host.h>
#include <cupti_range_profiler.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace warpsim::tracer {

class RangeProfiler {
 public:
  using Warn = std::function<void(const std::string&)>;

  /// Once per process, before any launch (CUPTI refuses it later).
  static bool initialize(const Warn& warn);
  /// Sets the profiler up on `context` (device `device_index`) for those of `metrics` the chip has; nullptr, after
  /// a warning, if the device or the metrics cannot be profiled.
  static std::unique_ptr<RangeProfiler> create(CUcontext context, std::uint32_t device_index,
                                               const std::vector<std::string>& metrics, const Warn& warn);
  ~RangeProfiler();
  RangeProfiler(const RangeProfiler&) = delete;
  RangeProfiler& operator=(const RangeProfiler&) = delete;

  /// The metrics being collected (those of the request the chip has), in the order of end()'s values.
  const std::vector<std::string>& metrics() const { return metrics_; }
  /// How many times kernel replay runs each profiled kernel for these metrics (0 if CUPTI did not say).
  std::size_t passes() const { return passes_; }

  bool begin();
  /// Per range (kernel) of the launch since begin(): one value per metric. Empty after a warning on failure.
  std::vector<std::vector<double>> end();

 private:
  RangeProfiler() = default;
  /// Host object and configuration image for those of `metrics` the chip lists.
  CUptiResult configure(const char* chip, const std::vector<std::uint8_t>& availability,
                        const std::vector<std::string>& metrics);
  bool evaluate(std::size_t range, std::vector<double>& values);
  bool ok(CUptiResult result, const char* step) const;

  Warn warn_;
  std::vector<std::string> metrics_;
  std::vector<const char*> metric_pointers_;
  CUpti_Profiler_Host_Object* host_ = nullptr;
  CUpti_RangeProfiler_Object* profiler_ = nullptr;
  std::vector<std::uint8_t> config_;
  std::vector<std::uint8_t> counter_data_;
  std::size_t passes_ = 0;
};

}  // namespace warpsim::tracer
