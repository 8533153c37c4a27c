#include "traffic_profile.h"

#include <algorithm>
#include <numeric>

namespace warpsim::trace {
namespace {

// Unset counters (the chip lacks them) read as 0.
double remote_bytes(const TrafficSample& s) {
  return static_cast<double>(s.pcie_read_bytes()) + static_cast<double>(s.pcie_write_bytes()) +
         static_cast<double>(s.nvlink_rx_bytes()) + static_cast<double>(s.nvlink_tx_bytes());
}

double local_bytes(const TrafficSample& s) {
  return static_cast<double>(s.dram_read_bytes()) + static_cast<double>(s.dram_write_bytes());
}

void set_shares(const std::array<double, kTrafficBins>& bytes, google::protobuf::RepeatedField<float>& shares) {
  const double total = std::accumulate(bytes.begin(), bytes.end(), 0.0);
  if (total <= 0.0) return;
  for (double b : bytes) shares.Add(static_cast<float>(b / total));
}

}  // namespace

void TrafficBins::add(const TrafficSample& sample) {
  if (kernel_.end_ns <= kernel_.start_ns) return;
  const std::uint64_t from = std::max(sample.start_ns(), kernel_.start_ns);
  const std::uint64_t to = std::min(sample.end_ns(), kernel_.end_ns);
  const bool instant = sample.end_ns() == sample.start_ns();
  const bool overlaps =
      instant ? (sample.start_ns() >= kernel_.start_ns && sample.start_ns() < kernel_.end_ns) : to > from;
  if (!overlaps) return;
  overlapped_ = true;

  // Times from the kernel's start: absolute nanoseconds (about 1e18) are beyond a double's exact integers.
  const double length = static_cast<double>(kernel_.end_ns - kernel_.start_ns);
  const double bin_ns = length / static_cast<double>(kTrafficBins);
  const double begin = static_cast<double>(from - kernel_.start_ns);
  const double end = static_cast<double>(to - kernel_.start_ns);
  const std::size_t first = std::min(kTrafficBins - 1, static_cast<std::size_t>(begin / bin_ns));
  if (instant) return add_bytes(first, remote_bytes(sample), local_bytes(sample));

  const double sample_ns = static_cast<double>(sample.end_ns() - sample.start_ns());
  for (std::size_t bin = first; bin < kTrafficBins; ++bin) {
    const double bin_begin = static_cast<double>(bin) * bin_ns;
    const double bin_end = bin + 1 == kTrafficBins ? length : static_cast<double>(bin + 1) * bin_ns;
    if (bin_begin >= end) break;
    const double share = (std::min(end, bin_end) - std::max(begin, bin_begin)) / sample_ns;
    if (share > 0.0) add_bytes(bin, share * remote_bytes(sample), share * local_bytes(sample));
  }
}

void TrafficBins::add_bytes(std::size_t bin, double remote, double local) {
  remote_[bin] += remote;
  local_[bin] += local;
}

std::optional<TrafficProfile> TrafficBins::profile() const {
  if (!overlapped_) return std::nullopt;
  TrafficProfile profile;
  set_shares(remote_, *profile.mutable_remote_share());
  set_shares(local_, *profile.mutable_local_share());
  return profile;
}

std::optional<TrafficProfile> traffic_profile(KernelSpan kernel, std::span<const TrafficSample> samples) {
  TrafficBins bins(kernel);
  for (const TrafficSample& sample : samples) bins.add(sample);
  return bins.profile();
}

DeviceTraffic::DeviceTraffic(std::span<const KernelSpan> kernels) {
  bins_.reserve(kernels.size());
  for (const KernelSpan& kernel : kernels) bins_.emplace_back(kernel);
  by_start_.resize(kernels.size());
  std::iota(by_start_.begin(), by_start_.end(), std::size_t{0});
  std::stable_sort(by_start_.begin(), by_start_.end(),
                   [&](std::size_t a, std::size_t b) { return kernels[a].start_ns < kernels[b].start_ns; });
  std::uint64_t latest = 0;
  for (std::size_t i : by_start_) {
    starts_.push_back(kernels[i].start_ns);
    latest = std::max(latest, kernels[i].end_ns);
    latest_end_.push_back(latest);
  }
}

// The kernels that may overlap the sample start before it ends (an instant: at or before it). Walking them back from
// the latest start, none is left once the latest end among the earlier ones is not after the sample's start.
void DeviceTraffic::add(const TrafficSample& sample) {
  const std::uint64_t limit = sample.end_ns() > sample.start_ns() ? sample.end_ns() : sample.start_ns() + 1;
  auto i = static_cast<std::size_t>(std::lower_bound(starts_.begin(), starts_.end(), limit) - starts_.begin());
  while (i > 0 && latest_end_[i - 1] > sample.start_ns()) bins_[by_start_[--i]].add(sample);
}

}  // namespace warpsim::trace
