// When in a kernel its remote and local bytes moved, from the PM samples of a traffic-mode run.
#include <gtest/gtest.h>

#include <vector>

#include "traffic_profile.h"

namespace warpsim::trace {
namespace {

// Timestamps as CUPTI gives them (nanoseconds since the epoch): beyond a double's exact integers.
constexpr std::uint64_t kT0 = 1'764'000'000'000'000'000;

TrafficSample sample(std::uint64_t start, std::uint64_t end, std::uint64_t pcie_read, std::uint64_t dram_read) {
  TrafficSample s;
  s.set_start_ns(kT0 + start);
  s.set_end_ns(kT0 + end);
  s.set_pcie_read_bytes(pcie_read);
  s.set_dram_read_bytes(dram_read);
  return s;
}

KernelSpan span(std::uint64_t start, std::uint64_t end) { return {kT0 + start, kT0 + end}; }

using Samples = std::vector<TrafficSample>;

std::vector<float> shares(const google::protobuf::RepeatedField<float>& field) { return {field.begin(), field.end()}; }

void expect_shares(const google::protobuf::RepeatedField<float>& actual, const std::vector<double>& expected) {
  ASSERT_EQ(actual.size(), static_cast<int>(expected.size()));
  for (int i = 0; i < actual.size(); ++i)
    EXPECT_NEAR(actual[i], expected[static_cast<std::size_t>(i)], 1e-6) << "bin " << i;
}

// One sample per 1000 ns bin of a 10 us kernel.
std::vector<TrafficSample> per_bin(const std::vector<std::uint64_t>& pcie, const std::vector<std::uint64_t>& dram) {
  std::vector<TrafficSample> samples;
  for (std::size_t bin = 0; bin < kTrafficBins; ++bin)
    samples.push_back(sample(1000 * bin, 1000 * (bin + 1), pcie[bin], dram[bin]));
  return samples;
}

TEST(TrafficProfile, BatchMovesRemoteBytesFirstAndLocalBytesAfter) {
  // The first blocks read the remote data: PCIe bytes in the first 3 bins, DRAM bytes in the other 7.
  const auto samples = per_bin({300, 300, 300, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 700, 700, 700, 700, 700, 700, 700});
  const auto profile = traffic_profile(span(0, 10'000), samples);
  ASSERT_TRUE(profile);
  const double third = 1.0 / 3, seventh = 1.0 / 7;
  expect_shares(profile->remote_share(), {third, third, third, 0, 0, 0, 0, 0, 0, 0});
  expect_shares(profile->local_share(), {0, 0, 0, seventh, seventh, seventh, seventh, seventh, seventh, seventh});
}

TEST(TrafficProfile, SpreadMovesBothEvenlyThroughTheKernel) {
  const auto samples =
      per_bin(std::vector<std::uint64_t>(kTrafficBins, 200), std::vector<std::uint64_t>(kTrafficBins, 800));
  const auto profile = traffic_profile(span(0, 10'000), samples);
  ASSERT_TRUE(profile);
  expect_shares(profile->remote_share(), std::vector<double>(kTrafficBins, 0.1));
  expect_shares(profile->local_share(), std::vector<double>(kTrafficBins, 0.1));
}

TEST(TrafficProfile, ASampleIsSplitInProportionToItsTimeInEachBin) {
  // Kernel [10000, 20000): bins of 1000 ns. The first sample starts 1000 ns before the kernel: of its 2500 bytes,
  // 1000 fall before the kernel (dropped), 1000 in bin 0 and 500 in bin 1. The second straddles the edge between
  // bins 2 and 3 evenly.
  const std::vector<TrafficSample> samples = {sample(9000, 11'500, 2500, 0), sample(12'500, 13'500, 0, 1000)};
  const auto profile = traffic_profile(span(10'000, 20'000), samples);
  ASSERT_TRUE(profile);
  expect_shares(profile->remote_share(), {2.0 / 3, 1.0 / 3, 0, 0, 0, 0, 0, 0, 0, 0});
  expect_shares(profile->local_share(), {0, 0, 0.5, 0.5, 0, 0, 0, 0, 0, 0});
}

TEST(TrafficProfile, NoOverlappingSampleLeavesNoProfile) {
  EXPECT_FALSE(traffic_profile(span(0, 10'000), {}));
  // One ending where the kernel starts, one starting where it ends: [start, end) intervals touch, never overlap.
  const std::vector<TrafficSample> around = {sample(0, 1000, 5, 5), sample(11'000, 12'000, 5, 5)};
  EXPECT_FALSE(traffic_profile(span(1000, 11'000), around));
  EXPECT_FALSE(traffic_profile(span(5000, 5000), per_bin(std::vector<std::uint64_t>(kTrafficBins, 1),
                                                         std::vector<std::uint64_t>(kTrafficBins, 1))))
      << "a kernel of no length has no bins";
}

TEST(TrafficProfile, AKernelWithoutRemoteBytesHasAnEmptyRemoteList) {
  const auto samples = per_bin(std::vector<std::uint64_t>(kTrafficBins, 0), {10, 10, 10, 10, 10, 0, 0, 0, 0, 0});
  const auto profile = traffic_profile(span(0, 10'000), samples);
  ASSERT_TRUE(profile);
  EXPECT_TRUE(profile->remote_share().empty());
  expect_shares(profile->local_share(), {0.2, 0.2, 0.2, 0.2, 0.2, 0, 0, 0, 0, 0});

  // Samples overlapping the kernel but with no bytes at all: a profile with both lists empty.
  const auto idle = traffic_profile(span(0, 10'000), Samples{sample(0, 10'000, 0, 0)});
  ASSERT_TRUE(idle);
  EXPECT_TRUE(idle->remote_share().empty());
  EXPECT_TRUE(idle->local_share().empty());
}

TEST(TrafficProfile, RemoteIsPcieBothWaysAndNvlinkBothWaysAndLocalIsDramBothWays) {
  TrafficSample first = sample(0, 1000, 1, 1);
  first.set_pcie_write_bytes(2);
  first.set_nvlink_rx_bytes(3);
  first.set_nvlink_tx_bytes(4);
  first.set_dram_write_bytes(9);
  TrafficSample last;  // only NVLink and DRAM writes counted (the chip offered no other counter)
  last.set_start_ns(kT0 + 9000);
  last.set_end_ns(kT0 + 10'000);
  last.set_nvlink_rx_bytes(10);
  last.set_dram_write_bytes(10);
  const auto profile = traffic_profile(span(0, 10'000), Samples{first, last});
  ASSERT_TRUE(profile);
  expect_shares(profile->remote_share(), {0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0.5});
  expect_shares(profile->local_share(), {0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0.5});
}

TEST(TrafficProfile, AnInstantSampleCountsWholeInItsBin) {
  const auto profile = traffic_profile(span(0, 10'000), Samples{sample(2500, 2500, 7, 0), sample(9999, 9999, 7, 0)});
  ASSERT_TRUE(profile);
  expect_shares(profile->remote_share(), {0, 0, 0.5, 0, 0, 0, 0, 0, 0, 0.5});
  EXPECT_FALSE(traffic_profile(span(0, 10'000), Samples{sample(10'000, 10'000, 7, 0)}))
      << "the kernel's end is outside";
}

TEST(DeviceTraffic, EachSampleGoesToTheKernelsItOverlaps) {
  // Kernels given out of time order; the third one runs inside the first (two streams).
  const std::vector<KernelSpan> kernels = {span(0, 10'000), span(20'000, 30'000), span(2000, 3000),
                                           span(40'000, 50'000)};
  std::vector<TrafficSample> samples;
  for (std::uint64_t t = 0; t < 35'000; t += 500) samples.push_back(sample(t, t + 500, t / 500, 1));
  DeviceTraffic device(kernels);
  for (const TrafficSample& s : samples) device.add(s);
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    const auto alone = traffic_profile(kernels[k], samples);
    const auto together = device.profile(k);
    ASSERT_EQ(alone.has_value(), together.has_value()) << "kernel " << k;
    if (!alone) continue;
    EXPECT_EQ(shares(together->remote_share()), shares(alone->remote_share())) << "kernel " << k;
    EXPECT_EQ(shares(together->local_share()), shares(alone->local_share())) << "kernel " << k;
  }
  EXPECT_TRUE(device.profile(0));
  EXPECT_TRUE(device.profile(2));
  EXPECT_FALSE(device.profile(3)) << "no sample reached it";
  // A sample spanning the gap between two kernels gives each its own part.
  DeviceTraffic pair(std::vector<KernelSpan>{span(0, 1000), span(2000, 3000)});
  pair.add(sample(500, 2500, 2000, 0));
  expect_shares(pair.profile(0)->remote_share(), {0, 0, 0, 0, 0, 0.2, 0.2, 0.2, 0.2, 0.2});
  expect_shares(pair.profile(1)->remote_share(), {0.2, 0.2, 0.2, 0.2, 0.2, 0, 0, 0, 0, 0});
}

}  // namespace
}  // namespace warpsim::trace
