// serial_share: how much of a kernel's remote and local traffic ran apart, from its recorded traffic profile; and a
// simulated kernel that reads host memory lasts the sum of its two phases when its profile says batch.
#include "traffic_overlap.h"

#include <gtest/gtest.h>

#include <vector>

#include "platform.h"
#include "registry.h"
#include "sample_trace.h"
#include "simulation.h"

namespace warpsim::replay {
namespace {

TrafficProfile profile(const std::vector<float>& remote, const std::vector<float>& local) {
  TrafficProfile p;
  for (float share : remote) p.add_remote_share(share);
  for (float share : local) p.add_local_share(share);
  return p;
}

// What a 2026-11-28 H200 PM-sampling probe showed (workloads/probe_pm_sampling): 20% of the blocks reading host
// memory, first (batch) or every fifth (spread); deciles of the kernel's time.
const std::vector<float> kBatchRemote = {0.09f, 0.11f, 0.11f, 0.11f, 0.11f, 0.11f, 0.11f, 0.11f, 0.11f, 0.03f};
const std::vector<float> kBatchLocal = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
const std::vector<float> kSpreadRemote = {0.09f, 0.10f, 0.10f, 0.10f, 0.10f, 0.10f, 0.10f, 0.10f, 0.10f, 0.11f};
const std::vector<float> kSpreadLocal = {0.11f, 0.09f, 0.10f, 0.10f, 0.10f, 0.10f, 0.10f, 0.10f, 0.10f, 0.10f};

TEST(SerialShare, BatchRunsApartAndSpreadTogether) {
  EXPECT_NEAR(serial_share(profile(kBatchRemote, kBatchLocal)), 0.97, 1e-5);
  EXPECT_NEAR(serial_share(profile(kSpreadRemote, kSpreadLocal)), 0.02, 1e-5);
}

TEST(SerialShare, SharesAreTakenRelativeToTheirTotals) {
  EXPECT_NEAR(serial_share(profile({2, 2}, {0, 1})), 0.5, 1e-9);
}

TEST(SerialShare, WithoutAProfileOrOneKindEverythingRunsTogether) {
  EXPECT_EQ(serial_share(TrafficProfile{}), 0);
  EXPECT_EQ(serial_share(profile({0.5f, 0.5f}, {})), 0);
  EXPECT_EQ(serial_share(profile({}, {1})), 0);
  EXPECT_EQ(serial_share(profile({0, 0}, {0, 1})), 0);
  EXPECT_EQ(serial_share(profile({1}, {0.5f, 0.5f})), 0) << "bins that do not match";
}

// Kernels reading 1 GiB of host memory over a 64 GB/s link (about 17 ms) and 64 GiB of their own DRAM (about 22 ms on
// an H100), one after another on one stream (one SimGrid engine a process): without a profile, spread (the two
// overlap) and batch (the DRAM phase after the remote one).
Event host_reading_kernel(std::uint64_t start_ns, const TrafficProfile* traffic) {
  Event event = warpsim::testing::kernel_event(0, 7, "k", start_ns, 10'000);
  *event.mutable_kernel()->mutable_counters() = warpsim::testing::sample_counters(1 << 20);
  auto& memory = *event.mutable_kernel()->mutable_counters()->mutable_memory();
  memory.set_pcie_read_bytes(std::uint64_t{1} << 30);
  memory.set_dram_read_bytes(std::uint64_t{1} << 36);
  if (traffic) *event.mutable_kernel()->mutable_traffic_profile() = *traffic;
  return event;
}

TEST(SerialShare, ASimulatedBatchKernelLastsItsPhasesOneAfterTheOther) {
  const TrafficProfile spread = profile(kSpreadRemote, kSpreadLocal);
  const TrafficProfile batch = profile(kBatchRemote, kBatchLocal);
  SourceTrace trace{
      "synthetic",
      warpsim::testing::two_gpu_header(),
      {host_reading_kernel(0, nullptr), host_reading_kernel(20'000, &spread), host_reading_kernel(40'000, &batch)}};
  const auto model = models::make_model("roofline");
  platform::Platform node = platform::load_platform("h100-pcie");
  node.node.mutable_gpus(0)->mutable_pcie()->set_bandwidth_gb_per_s(64);
  const SimulationResult result = simulate(trace, node, model.get(), SimulationOptions{});
  std::vector<double> seconds;
  for (const Event& event : result.events) {
    if (event.has_kernel())
      seconds.push_back(static_cast<double>(event.kernel().end_ns() - event.kernel().start_ns()) * 1e-9);
  }
  ASSERT_EQ(seconds.size(), 3u);
  EXPECT_NEAR(seconds[1] / seconds[0], 1.0, 0.05) << "spread: together, as without a profile";
  EXPECT_GT(seconds[2] / seconds[0], 1.5) << "batch: the two phases of similar length add up";
}

}  // namespace
}  // namespace warpsim::replay
