// The host side of the replay: host threads, their recorded gaps, API calls that block and calls that do not,
// traces without API calls. Synthetic traces through simulate() with recorded kernel times (the host is the
// subject). One SimGrid engine per process: CTest runs each test alone.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "host_program.h"
#include "sample_trace.h"
#include "simulation.h"
#include "spmd_scale.h"
#include "test_node.h"

namespace warpsim::replay {
namespace {

using warpsim::testing::api_call_event;
using warpsim::testing::copy_event;
using warpsim::testing::kernel_event;
using warpsim::testing::sync_event;

constexpr std::uint64_t kUs = 1000;  // ns

Event with_correlation(Event event, std::uint64_t id) {
  if (event.has_kernel()) event.mutable_kernel()->set_correlation_id(id);
  if (event.has_memcpy()) event.mutable_memcpy()->set_correlation_id(id);
  if (event.has_sync()) event.mutable_sync()->set_correlation_id(id);
  return event;
}

// Recordings never start at 0 on CUPTI's clock (0 means "no time"): the tests' times are moved by this, and back.
constexpr std::uint64_t kClock = 1'000'000'000;

void shift(Event& e, std::uint64_t by) {
  if (e.has_kernel()) {
    e.mutable_kernel()->set_start_ns(e.kernel().start_ns() + by);
    e.mutable_kernel()->set_end_ns(e.kernel().end_ns() + by);
  }
  if (e.has_memcpy()) {
    e.mutable_memcpy()->set_start_ns(e.memcpy().start_ns() + by);
    e.mutable_memcpy()->set_end_ns(e.memcpy().end_ns() + by);
  }
  if (e.has_sync()) {
    e.mutable_sync()->set_start_ns(e.sync().start_ns() + by);
    e.mutable_sync()->set_end_ns(e.sync().end_ns() + by);
  }
  if (e.has_api_call()) {
    e.mutable_api_call()->set_start_ns(e.api_call().start_ns() + by);
    e.mutable_api_call()->set_end_ns(e.api_call().end_ns() + by);
  }
}

SimulationResult run(std::vector<Event> events, std::uint32_t gpus = 1, double host_scale = 1) {
  for (Event& event : events) shift(event, kClock);
  SimulationOptions options;
  options.reuse_recorded_kernel_times = true;
  options.host_scale = host_scale;
  SourceTrace trace{"synthetic", warpsim::testing::two_gpu_header(), std::move(events)};
  SimulationResult result = simulate(trace, testing::pcie_node(gpus), nullptr, options);
  for (Event& event : result.events) shift(event, -kClock);
  return result;
}

// The simulated event of the recording's API call or kernel with this correlation id and kind.
const Event& find(const SimulationResult& result, Event::KindCase kind, std::uint64_t correlation) {
  for (const Event& event : result.events) {
    if (event.kind_case() != kind) continue;
    if (event.has_api_call() && event.api_call().correlation_id() == correlation) return event;
    if (event.has_kernel() && event.kernel().correlation_id() == correlation) return event;
    if (event.has_memcpy() && event.memcpy().correlation_id() == correlation) return event;
  }
  throw std::runtime_error("no such event");
}

double call_start_us(const SimulationResult& r, std::uint64_t id) {
  return static_cast<double>(find(r, Event::kApiCall, id).api_call().start_ns()) / kUs;
}
double call_end_us(const SimulationResult& r, std::uint64_t id) {
  return static_cast<double>(find(r, Event::kApiCall, id).api_call().end_ns()) / kUs;
}

std::vector<Event> two_launches_100_us_apart() {
  return {api_call_event(11, "cudaLaunchKernel_v7000", 0, 5 * kUs, 1),
          with_correlation(kernel_event(0, 7, "a", 8 * kUs, 10 * kUs), 1),
          api_call_event(11, "cudaLaunchKernel_v7000", 105 * kUs, 110 * kUs, 2),
          with_correlation(kernel_event(0, 7, "b", 112 * kUs, 10 * kUs), 2)};
}

TEST(HostReplay, TheGapBetweenTwoCallsIsReplayed) {
  const SimulationResult same = run(two_launches_100_us_apart());
  EXPECT_TRUE(same.host.from_api_calls);
  EXPECT_NEAR(call_start_us(same, 2) - call_end_us(same, 1), 100, 1e-3);
  EXPECT_NEAR(call_end_us(same, 2) - call_start_us(same, 2), 5, 1e-3);  // a launch costs its recorded time
  // The second kernel is issued when its call returns, not before.
  EXPECT_GE(static_cast<double>(find(same, Event::kKernel, 2).kernel().start_ns()) / kUs, call_end_us(same, 2) - 1e-3);
}

TEST(HostReplay, HostScaleMakesTheHostFasterOrSlower) {
  const SimulationResult faster = run(two_launches_100_us_apart(), 1, 0.5);
  EXPECT_NEAR(call_start_us(faster, 2) - call_end_us(faster, 1), 50, 1e-3);
  EXPECT_NEAR(call_end_us(faster, 2) - call_start_us(faster, 2), 2.5, 1e-3);
}

TEST(HostReplay, ASynchronizeBlocksUntilTheWorkEndsThenCostsItsOwnPart) {
  // Recorded: the kernel runs 10..1010 us; the synchronize call waits from 6 us and returns 2 us after the kernel.
  const std::vector<Event> events{
      api_call_event(11, "cudaLaunchKernel_v7000", 0, 5 * kUs, 1),
      with_correlation(kernel_event(0, 7, "long", 10 * kUs, 1000 * kUs), 1),
      api_call_event(11, "cudaStreamSynchronize_v3020", 6 * kUs, 1012 * kUs, 2),
      with_correlation(sync_event(Synchronization::STREAM_SYNCHRONIZE, 0, 7, 0, 6 * kUs), 2),
      api_call_event(11, "cudaLaunchKernel_v7000", 1020 * kUs, 1025 * kUs, 3),
      with_correlation(kernel_event(0, 7, "next", 1030 * kUs, 10 * kUs), 3)};
  const SimulationResult result = run(events);
  const double kernel_end = static_cast<double>(find(result, Event::kKernel, 1).kernel().end_ns()) / kUs;
  EXPECT_NEAR(call_end_us(result, 2), kernel_end + 2, 1e-3);
  EXPECT_NEAR(call_start_us(result, 3), call_end_us(result, 2) + 8, 1e-3);
  EXPECT_EQ(result.host.blocking_calls, 1u);
}

TEST(HostReplay, AnAsynchronousCopyDoesNotBlockASynchronousOneDoes) {
  const std::uint64_t gigabyte = 1'000'000'000;  // 31 ms on the test node's 32 GB/s link
  auto copy = [&](bool asynchronous, std::uint64_t correlation) {
    Event e = with_correlation(copy_event(Memcpy::HTOD, gigabyte, 0, 7, 10 * kUs, 31000 * kUs), correlation);
    e.mutable_memcpy()->set_src_memory(MEMORY_KIND_PINNED);
    e.mutable_memcpy()->set_asynchronous(asynchronous);
    return e;
  };
  const std::vector<Event> async_events{api_call_event(11, "cudaMemcpyAsync_v3020", 0, 5 * kUs, 1), copy(true, 1),
                                        api_call_event(11, "cudaEventRecord_v3020", 10 * kUs, 12 * kUs, 2)};
  const SimulationResult async_result = run(async_events);
  EXPECT_NEAR(call_start_us(async_result, 2), 10, 1e-3);  // the host went on
  const double copy_end = static_cast<double>(find(async_result, Event::kMemcpy, 1).memcpy().end_ns()) / kUs;
  EXPECT_GT(copy_end, 30000);
}

TEST(HostReplay, ASynchronousCopyReturnsOnlyWhenTheCopyEnds) {
  const std::uint64_t gigabyte = 1'000'000'000;
  Event copy = with_correlation(copy_event(Memcpy::HTOD, gigabyte, 0, 7, 10 * kUs, 31250 * kUs), 1);
  copy.mutable_memcpy()->set_src_memory(MEMORY_KIND_PINNED);
  copy.mutable_memcpy()->set_asynchronous(false);
  const std::vector<Event> events{api_call_event(11, "cudaMemcpy_v3020", 0, 31265 * kUs, 1), copy,
                                  api_call_event(11, "cudaEventRecord_v3020", 31270 * kUs, 31272 * kUs, 2)};
  const SimulationResult result = run(events);
  const double copy_end = static_cast<double>(find(result, Event::kMemcpy, 1).memcpy().end_ns()) / kUs;
  EXPECT_NEAR(call_end_us(result, 1), copy_end + 5, 1e-3);  // returned 5 us after the copy, as recorded
  EXPECT_NEAR(call_start_us(result, 2), call_end_us(result, 1) + 5, 1e-3);
}

TEST(HostReplay, CudaFreeWaitsForTheWorkOfItsThreadsDevice) {
  const std::vector<Event> events{api_call_event(11, "cudaLaunchKernel_v7000", 0, 5 * kUs, 1),
                                  with_correlation(kernel_event(0, 7, "long", 10 * kUs, 1000 * kUs), 1),
                                  api_call_event(11, "cudaFree_v3020", 6 * kUs, 1015 * kUs, 2)};
  const SimulationResult result = run(events);
  const double kernel_end = static_cast<double>(find(result, Event::kKernel, 1).kernel().end_ns()) / kUs;
  EXPECT_NEAR(call_end_us(result, 2), kernel_end + 5, 1e-3);  // the 5 us after the kernel, as recorded
}

TEST(HostReplay, TwoHostThreadsInterleaveAsRecorded) {
  const std::vector<Event> events{api_call_event(11, "cudaLaunchKernel_v7000", 0, 5 * kUs, 1),
                                  with_correlation(kernel_event(0, 7, "a1", 6 * kUs, 1 * kUs), 1),
                                  api_call_event(12, "cudaLaunchKernel_v7000", 50 * kUs, 55 * kUs, 2),
                                  with_correlation(kernel_event(0, 8, "b1", 56 * kUs, 1 * kUs), 2),
                                  api_call_event(11, "cudaLaunchKernel_v7000", 100 * kUs, 105 * kUs, 3),
                                  with_correlation(kernel_event(0, 7, "a2", 106 * kUs, 1 * kUs), 3),
                                  api_call_event(12, "cudaLaunchKernel_v7000", 150 * kUs, 155 * kUs, 4),
                                  with_correlation(kernel_event(0, 8, "b2", 156 * kUs, 1 * kUs), 4)};
  const SimulationResult result = run(events);
  EXPECT_EQ(result.host.threads, 2u);
  EXPECT_NEAR(call_start_us(result, 1), 0, 1e-3);
  EXPECT_NEAR(call_start_us(result, 2), 50, 1e-3);
  EXPECT_NEAR(call_start_us(result, 3), 100, 1e-3);
  EXPECT_NEAR(call_start_us(result, 4), 150, 1e-3);
}

TEST(HostReplay, DriverCallsInsideARuntimeCallBelongToIt) {
  Event driver = api_call_event(11, "cuLaunchKernel", 1 * kUs, 4 * kUs, 9);
  driver.mutable_api_call()->set_domain(ApiCall::DRIVER);
  const std::vector<Event> events{api_call_event(11, "cudaLaunchKernel_v7000", 0, 5 * kUs, 1), driver,
                                  with_correlation(kernel_event(0, 7, "k", 6 * kUs, 1 * kUs), 9)};
  const SimulationResult result = run(events);
  EXPECT_EQ(result.host.api_calls, 1u);  // one top-level call
  EXPECT_EQ(result.host.unattributed_events, 0u);
  EXPECT_GE(static_cast<double>(find(result, Event::kKernel, 9).kernel().start_ns()) / kUs, 5 - 1e-3);
}

TEST(HostReplay, TwoGpusDrivenByTwoThreadsEachWaitOnlyForTheirOwnDevice) {
  const std::vector<Event> events{
      api_call_event(11, "cudaLaunchKernel_v7000", 0, 5 * kUs, 1),
      with_correlation(kernel_event(0, 7, "gpu0_long", 10 * kUs, 5000 * kUs), 1),
      api_call_event(12, "cudaLaunchKernel_v7000", 1 * kUs, 6 * kUs, 2),
      with_correlation(kernel_event(1, 7, "gpu1_short", 10 * kUs, 100 * kUs), 2),
      api_call_event(12, "cudaDeviceSynchronize_v3020", 7 * kUs, 112 * kUs, 3),
      with_correlation(sync_event(Synchronization::CONTEXT_SYNCHRONIZE, 1, 0, 0, 7 * kUs), 3),
      api_call_event(11, "cudaDeviceSynchronize_v3020", 8 * kUs, 5012 * kUs, 4),
      with_correlation(sync_event(Synchronization::CONTEXT_SYNCHRONIZE, 0, 0, 0, 8 * kUs), 4)};
  const SimulationResult result = run(events, 2);
  const double gpu1_end = static_cast<double>(find(result, Event::kKernel, 2).kernel().end_ns()) / kUs;
  const double gpu0_end = static_cast<double>(find(result, Event::kKernel, 1).kernel().end_ns()) / kUs;
  EXPECT_NEAR(call_end_us(result, 3), gpu1_end + 2, 1e-3);
  EXPECT_NEAR(call_end_us(result, 4), gpu0_end + 2, 1e-3);
  EXPECT_LT(call_end_us(result, 3), gpu0_end);
}

// `warpsim scale --host shared`: the recording's one thread issues both pairs' calls in turn, each after the recorded
// gap (pair 0's launch at 0-5 us, pair 1's at 5-10 us, pair 0's second at 110-115 us, pair 1's at 215-220 us), and the
// replay takes them in that order: pair 1's first kernel goes out at 10 us, not with pair 0's second launch (inside
// which pair 1's first call would nest were the calls taken pair after pair).
TEST(HostReplay, AScaledTracesSharedThreadIssuesThePairsCallsInTurn) {
  std::vector<Event> recorded{api_call_event(11, "cudaLaunchKernel_v7000", 0, 5 * kUs, 1),
                              with_correlation(kernel_event(0, 7, "a", 8 * kUs, 10 * kUs), 1),
                              api_call_event(11, "cudaLaunchKernel_v7000", 105 * kUs, 110 * kUs, 2),
                              with_correlation(kernel_event(1, 8, "b", 112 * kUs, 10 * kUs), 2)};
  for (Event& event : recorded) shift(event, kClock);
  const std::filesystem::path dir = warpsim::testing::fresh_temp_dir();
  warpsim::testing::write_trace(dir / "pair.wstrace", warpsim::testing::two_gpu_header(), recorded);
  trace::scale_pairs(dir / "pair.wstrace", {4, trace::HostThreads::kShared}, dir / "scaled.wstrace");
  SimulationOptions options;
  options.reuse_recorded_kernel_times = true;
  SimulationResult result =
      simulate(read_source_trace((dir / "scaled.wstrace").string()), testing::pcie_node(4), nullptr, options);
  EXPECT_EQ(result.host.api_calls, 4u);  // every call top-level
  using Span = std::pair<std::uint64_t, std::uint64_t>;
  std::vector<Span> calls;                          // (start, end), us
  std::map<std::uint32_t, double> kernel_start_us;  // per device
  for (Event& event : result.events) {
    shift(event, -kClock);
    if (event.has_api_call()) calls.emplace_back(event.api_call().start_ns() / kUs, event.api_call().end_ns() / kUs);
    if (event.has_kernel())
      kernel_start_us[event.kernel().device_id()] = static_cast<double>(event.kernel().start_ns()) / kUs;
  }
  std::sort(calls.begin(), calls.end());
  EXPECT_THAT(calls, ::testing::ElementsAre(Span{0, 5}, Span{5, 10}, Span{110, 115}, Span{215, 220}));
  EXPECT_NEAR(kernel_start_us.at(0), 5, 2);    // after pair 0's first call
  EXPECT_NEAR(kernel_start_us.at(2), 10, 2);   // after pair 1's first call
  EXPECT_NEAR(kernel_start_us.at(1), 115, 2);  // after pair 0's second call
  EXPECT_NEAR(kernel_start_us.at(3), 220, 2);  // after pair 1's second call
}

TEST(HostReplay, ATraceWithoutApiCallsStillSimulatesAndSaysHostTimeIsUnknown) {
  const std::vector<Event> events{kernel_event(0, 7, "a", 0, 10 * kUs), kernel_event(0, 7, "b", 20 * kUs, 10 * kUs)};
  const SimulationResult result = run(events);
  EXPECT_FALSE(result.host.from_api_calls);
  EXPECT_EQ(result.kernels, 2u);
}

TEST(HostProgram, ApiNamesLoseTheirVersionSuffix) {
  EXPECT_EQ(api_base_name("cudaLaunchKernel_v7000"), "cudaLaunchKernel");
  EXPECT_EQ(api_base_name("cuMemFree_v2"), "cuMemFree");
  EXPECT_EQ(api_base_name("cuLaunchKernel"), "cuLaunchKernel");
  EXPECT_EQ(api_base_name("my_value"), "my_value");
}

}  // namespace
}  // namespace warpsim::replay
