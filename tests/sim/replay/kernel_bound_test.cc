// What bounded each simulated kernel (SimulatedBound in the simulated trace): the model's limiter when the SM work
// ends last, the node resource whose transfer ends last otherwise, the recorded duration when kept.
#include "kernel_bound.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "platform.h"
#include "registry.h"
#include "sample_trace.h"
#include "simulation.h"

namespace warpsim::replay {
namespace {

using warpsim::testing::kernel_event;
using warpsim::testing::sample_counters;

Event counted_kernel(std::uint64_t start_ns, std::uint64_t host_bytes) {
  Event event = kernel_event(0, 7, "k", start_ns, 10'000);
  *event.mutable_kernel()->mutable_counters() = sample_counters(1 << 20);
  event.mutable_kernel()->mutable_counters()->mutable_memory()->set_pcie_read_bytes(host_bytes);
  return event;
}

SimulationResult run(const std::vector<Event>& events, bool recorded_durations = false) {
  SourceTrace trace{"synthetic", warpsim::testing::two_gpu_header(), events};
  const auto model = models::make_model("roofline");
  SimulationOptions options;
  options.reuse_recorded_kernel_times = recorded_durations;
  platform::Platform node = platform::load_platform("h100-pcie");
  node.node.mutable_gpus(0)->mutable_pcie()->set_bandwidth_gb_per_s(1);  // slow enough to bound a kernel reading 1 GiB
  return simulate(trace, node, model.get(), options);
}

TEST(KernelBound, AKernelReadingMuchHostMemoryOverASlowLinkIsBoundByIt) {
  const SimulationResult result = run({counted_kernel(0, 1 << 30)});
  const SimulatedBound& bound = result.events.at(0).kernel().simulated_bound();
  EXPECT_EQ(bound.kind(), SimulatedBound::REMOTE);
  EXPECT_EQ(bound.limiter(), "host memory");
}

TEST(KernelBound, AKernelOfItsOwnMemoryGetsTheModelsLimiter) {
  const SimulationResult result = run({counted_kernel(0, 0)});
  const KernelLaunch& kernel = result.events.at(0).kernel();
  ASSERT_TRUE(kernel.has_simulated_bound());
  EXPECT_NE(kernel.simulated_bound().kind(), SimulatedBound::REMOTE);
  EXPECT_NE(kernel.simulated_bound().kind(), SimulatedBound::KIND_UNSPECIFIED) << kernel.simulated_bound().limiter();
  EXPECT_FALSE(kernel.simulated_bound().limiter().empty());
}

TEST(KernelBound, KeptDurationsSayTheyAreRecorded) {
  const SimulationResult result = run({counted_kernel(0, 1 << 30)}, /*recorded_durations=*/true);
  EXPECT_EQ(result.events.at(0).kernel().simulated_bound().kind(), SimulatedBound::RECORDED);
}

TEST(KernelBound, OnlyKernelsGetABound) {
  const SimulationResult result =
      run({counted_kernel(0, 0), warpsim::testing::copy_event(Memcpy::HTOD, 1 << 20, 0, 7, 20'000, 1000)});
  ASSERT_EQ(result.events.size(), 2u);
  EXPECT_TRUE(result.events[1].has_memcpy());
}

TEST(BoundTable, TheSameBoundGetsTheSameIdAndZeroIsNone) {
  BoundTable table;
  SimulatedBound a;
  a.set_kind(SimulatedBound::COMPUTE);
  a.set_limiter("fma pipe");
  SimulatedBound b = a;
  b.set_limiter("issue");
  const std::uint16_t id = table.add(a);
  EXPECT_NE(id, 0);
  EXPECT_EQ(table.add(a), id);
  EXPECT_NE(table.add(b), id);
  EXPECT_EQ(table.find(id)->limiter(), "fma pipe");
  EXPECT_EQ(table.find(0), nullptr);
  EXPECT_EQ(table.find(99), nullptr);
}

}  // namespace
}  // namespace warpsim::replay
