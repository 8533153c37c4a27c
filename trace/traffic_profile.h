#pragma once
/// @brief When in a kernel its remote and its local bytes moved (TrafficProfile), from the PM samples of a
/// traffic-mode run (TrafficSample): the kernel's [start_ns, end_ns) is cut into kTrafficBins equal bins, and each
/// sample overlapping the kernel adds its bytes to the bins it overlaps, in proportion to the time it spends in each
/// (a sample's count is taken as accrued evenly over the sample; the part outside the kernel is another kernel's or
/// idle time's). Remote bytes: PCIe read + write + NVLink received + transmitted; local: DRAM read + write (a counter
/// the sample lacks counts 0). Each list is normalized to sum 1, and left empty when the kernel moved no bytes of
/// its kind. Kernels and samples must be on one clock (a traffic run's activity records and samples are). Pure.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "trace.pb.h"

namespace warpsim::trace {

inline constexpr std::size_t kTrafficBins = 10;

/// A kernel's time on the traffic run's clock: [start_ns, end_ns).
struct KernelSpan {
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
};

/// One kernel's bins, filled sample by sample (a trace holds its samples in batches, in any order).
class TrafficBins {
 public:
  explicit TrafficBins(KernelSpan kernel) : kernel_(kernel) {}

  /// Adds the part of `sample` that falls inside the kernel; a sample that does not overlap it changes nothing. A
  /// sample of no length counts whole in the bin holding its instant.
  void add(const TrafficSample& sample);
  /// nullopt when no sample overlapped the kernel (or it lasted 0 ns).
  std::optional<TrafficProfile> profile() const;

 private:
  void add_bytes(std::size_t bin, double remote, double local);

  KernelSpan kernel_;
  std::array<double, kTrafficBins> remote_{};
  std::array<double, kTrafficBins> local_{};
  bool overlapped_ = false;
};

/// The profile of `kernel` from its device's `samples`.
std::optional<TrafficProfile> traffic_profile(KernelSpan kernel, std::span<const TrafficSample> samples);

/// The kernels of one device, each sample handed to the kernels it overlaps without visiting the others (a run has
/// far more samples than kernels: one per few microseconds). Kernels may overlap one another; each takes its part.
class DeviceTraffic {
 public:
  explicit DeviceTraffic(std::span<const KernelSpan> kernels);

  void add(const TrafficSample& sample);
  /// The profile of kernels[index] (as given to the constructor).
  std::optional<TrafficProfile> profile(std::size_t index) const { return bins_.at(index).profile(); }

 private:
  std::vector<TrafficBins> bins_;          ///< per kernel, as given
  std::vector<std::size_t> by_start_;      ///< kernel indices, by start time
  std::vector<std::uint64_t> starts_;      ///< starts_[i]: start of kernel by_start_[i]
  std::vector<std::uint64_t> latest_end_;  ///< latest_end_[i]: latest end among by_start_[0..i]
};

}  // namespace warpsim::trace
