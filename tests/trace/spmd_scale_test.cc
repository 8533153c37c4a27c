// A two-GPU recording scaled to N GPUs: N/2 copies of the pair, each consistent on its own, or a clear refusal.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <iterator>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "sample_trace.h"
#include "spmd_scale.h"
#include "trace_error.h"
#include "trace_reader.h"

namespace warpsim::trace {
namespace {

using ::testing::HasSubstr;

Event api_call(const char* name, std::uint64_t correlation, std::uint64_t start, std::uint64_t duration,
               std::uint64_t thread = 42) {
  Event event;
  ApiCall* call = event.mutable_api_call();
  call->set_name(name);
  call->set_thread_id(thread);
  call->set_correlation_id(correlation);
  call->set_start_ns(start);
  call->set_end_ns(start + duration);
  return event;
}

Event with_correlation(Event event, std::uint64_t correlation) {
  if (event.has_kernel()) event.mutable_kernel()->set_correlation_id(correlation);
  if (event.has_memcpy()) event.mutable_memcpy()->set_correlation_id(correlation);
  if (event.has_sync()) event.mutable_sync()->set_correlation_id(correlation);
  return event;
}

struct ScaleFixture : ::testing::Test {
  std::filesystem::path dir = warpsim::testing::fresh_temp_dir();
  std::filesystem::path input = dir / "pair.wstrace";
  std::filesystem::path output = dir / "scaled.wstrace";

  // GPU 1 computes, records CUDA event 5; GPU 0 waits for it and copies a halo to GPU 1. One host thread, three calls
  // 1000 ns apart, each 400 ns long.
  void SetUp() override {
    using warpsim::testing::copy_event;
    using warpsim::testing::kernel_event;
    using warpsim::testing::sync_event;
    Event host;
    host.mutable_host_thread()->set_thread_id(42);
    TraceHeader header = warpsim::testing::two_gpu_header();
    header.mutable_devices(0)->add_peer_access_device_ids(1);
    header.mutable_devices(1)->add_peer_access_device_ids(0);
    warpsim::testing::write_trace(
        input, header,
        {host, api_call("cudaLaunchKernel", 1, 10'000, 400),
         with_correlation(kernel_event(1, 8, "compute", 10'300, 5'000), 1), api_call("cudaEventRecord", 2, 11'000, 400),
         with_correlation(sync_event(Synchronization::EVENT_RECORD, 1, 8, 5, 11'100), 2),
         api_call("cudaMemcpyPeerAsync", 3, 12'000, 400),
         with_correlation(sync_event(Synchronization::STREAM_WAIT_EVENT, 0, 7, 5, 12'050), 3),
         with_correlation(copy_event(Memcpy::PTOP, 4096, 0, 7, 15'500, 1'000), 3)});
  }

  std::vector<Event> read(const std::filesystem::path& path, TraceHeader* header = nullptr) {
    TraceReader reader(path);
    if (header) *header = reader.header();
    std::vector<Event> events;
    Event event;
    while (reader.next(event)) events.push_back(event);
    return events;
  }
};

TEST_F(ScaleFixture, EveryPairKeepsItsOwnDevicesPeersStreamsAndEvents) {
  const ScaleSummary summary = scale_pairs(input, {4, HostThreads::kShared}, output);
  EXPECT_EQ(summary.pairs, 2u);
  TraceHeader header;
  const std::vector<Event> events = read(output, &header);
  ASSERT_EQ(header.devices_size(), 4);
  EXPECT_THAT(header.devices(2).peer_access_device_ids(), ::testing::ElementsAre(3u));
  EXPECT_FALSE(header.devices(3).has_uuid());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> copies;
  std::set<std::uint64_t> waited_events, correlations;
  for (const Event& e : events) {
    if (e.has_memcpy()) copies.emplace_back(e.memcpy().src_device_id(), e.memcpy().dst_device_id());
    if (e.has_sync() && e.sync().type() == Synchronization::STREAM_WAIT_EVENT) {
      waited_events.insert(e.sync().event_id());
      EXPECT_EQ(e.sync().device_id() % 2, 0u);  // each pair's first GPU waits
    }
    if (e.has_api_call()) correlations.insert(e.api_call().correlation_id());
  }
  EXPECT_THAT(copies, ::testing::UnorderedElementsAre(std::pair{0u, 1u}, std::pair{2u, 3u}));
  EXPECT_EQ(waited_events.size(), 2u);  // pair 1 waits for its own CUDA event
  EXPECT_EQ(correlations.size(), 6u);
  EXPECT_EQ(summary.events_written, 2 * summary.events_read - 1);  // the shared host thread is named once
}

TEST_F(ScaleFixture, ASharedHostIssuesEveryPairsCallInTurnWithTheRecordedGapsAndDurations) {
  scale_pairs(input, {4, HostThreads::kShared}, output);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> calls;  // (start, end)
  std::uint64_t pair1_kernel_start = 0;
  for (const Event& e : read(output)) {
    if (e.has_api_call()) calls.emplace_back(e.api_call().start_ns(), e.api_call().end_ns());
    if (e.has_kernel() && e.kernel().device_id() == 3) pair1_kernel_start = e.kernel().start_ns();
  }
  std::sort(calls.begin(), calls.end());
  ASSERT_EQ(calls.size(), 6u);
  for (std::size_t i = 1; i < calls.size(); ++i) EXPECT_GE(calls[i].first, calls[i - 1].second);  // none nested
  // Recorded: calls at 10000, 11000, 12000, 400 long (gaps 600). Pair 0's first, then pair 1's straight after.
  EXPECT_EQ(calls[0].first, 10'000u);
  EXPECT_EQ(calls[1].first, 10'400u);
  EXPECT_EQ(calls[2].first, 11'400u);      // the 600 ns gap, then pair 0's second call
  EXPECT_EQ(pair1_kernel_start, 10'700u);  // pair 1's kernel follows its launch call by the recorded 300 ns
}

TEST_F(ScaleFixture, CorrelationIdsNumberTheCallsInTheOrderTheSharedHostMakesThem) {
  // As CUPTI would: the replay takes a thread's calls in correlation order. Pair-major ids (pair 1's all after pair
  // 0's) would put pair 1's calls after pair 0's last, whose time they fall within.
  scale_pairs(input, {4, HostThreads::kShared}, output);
  std::map<std::uint64_t, std::uint64_t> call_start;          // correlation -> start
  std::vector<std::pair<std::uint64_t, std::uint32_t>> work;  // (correlation, device)
  for (const Event& e : read(output)) {
    if (e.has_api_call()) call_start[e.api_call().correlation_id()] = e.api_call().start_ns();
    if (e.has_kernel()) work.emplace_back(e.kernel().correlation_id(), e.kernel().device_id());
    if (e.has_memcpy()) work.emplace_back(e.memcpy().correlation_id(), e.memcpy().device_id());
    if (e.has_sync()) work.emplace_back(e.sync().correlation_id(), e.sync().device_id());
  }
  std::vector<std::uint64_t> starts;
  for (const auto& [correlation, start] : call_start) starts.push_back(start);
  EXPECT_THAT(starts, ::testing::ElementsAre(10'000u, 10'400u, 11'400u, 12'400u, 13'400u, 14'400u));
  // Each pair's work keeps its own call: pair 0's calls are the 1st, 3rd and 5th, pair 1's the others.
  for (const auto& [correlation, device] : work) {
    ASSERT_TRUE(call_start.count(correlation)) << correlation;
    const auto rank = static_cast<std::uint32_t>(std::distance(call_start.begin(), call_start.find(correlation)));
    EXPECT_EQ(rank % 2, device / 2) << "correlation " << correlation << " on device " << device;
  }
}

TEST_F(ScaleFixture, OwnHostThreadsKeepTheRecordedTimes) {
  scale_pairs(input, {4, HostThreads::kOwn}, output);
  std::set<std::uint64_t> threads;
  for (const Event& e : read(output)) {
    if (e.has_api_call()) {
      threads.insert(e.api_call().thread_id());
      EXPECT_TRUE(e.api_call().start_ns() == 10'000 || e.api_call().start_ns() == 11'000 ||
                  e.api_call().start_ns() == 12'000);
    }
  }
  EXPECT_EQ(threads.size(), 2u);
}

TEST_F(ScaleFixture, AutoGivesAThreadThatDroveOneGpuACopyPerPairAndSharesTheRest) {
  // Threads 7 and 8 each launch on one GPU (a thread per GPU); thread 9 launches on both.
  using warpsim::testing::kernel_event;
  warpsim::testing::write_trace(
      input, warpsim::testing::two_gpu_header(),
      {api_call("cudaLaunchKernel", 1, 1'000, 100, 7), with_correlation(kernel_event(0, 7, "k", 1'050, 500), 1),
       api_call("cudaLaunchKernel", 2, 1'000, 100, 8), with_correlation(kernel_event(1, 8, "k", 1'050, 500), 2),
       api_call("cudaLaunchKernel", 3, 2'000, 100, 9), with_correlation(kernel_event(0, 7, "k", 2'050, 500), 3),
       api_call("cudaLaunchKernel", 4, 3'000, 100, 9), with_correlation(kernel_event(1, 8, "k", 3'050, 500), 4)});
  scale_pairs(input, {4, HostThreads::kAuto}, output);
  std::map<std::uint64_t, std::vector<std::uint64_t>> starts_by_thread;
  for (const Event& e : read(output))
    if (e.has_api_call()) starts_by_thread[e.api_call().thread_id()].push_back(e.api_call().start_ns());
  ASSERT_EQ(starts_by_thread.size(), 5u);  // 7 and 8 twice each, 9 once
  EXPECT_EQ(starts_by_thread.at(9).size(), 4u);
  for (const auto& [thread, starts] : starts_by_thread) {
    if (thread == 9) continue;
    EXPECT_THAT(starts, ::testing::ElementsAre(1'000u)) << "thread " << thread << " keeps its recorded time";
  }
}

TEST_F(ScaleFixture, OddCountsAndOtherGpuCountsAreRefusedAndLeaveNoFile) {
  EXPECT_THAT(
      [&] {
        scale_pairs(input, {3, HostThreads::kAuto}, output);
      },
      ::testing::ThrowsMessage<TraceError>(HasSubstr("even count")));
  TraceHeader three_gpus = warpsim::testing::two_gpu_header();
  *three_gpus.add_devices() = three_gpus.devices(1);
  three_gpus.mutable_devices(2)->set_id(2);
  const auto three = dir / "three.wstrace";
  warpsim::testing::write_trace(three, three_gpus, {});
  EXPECT_THAT(
      [&] {
        scale_pairs(three, {4, HostThreads::kAuto}, output);
      },
      ::testing::ThrowsMessage<TraceError>(HasSubstr("two-GPU recording")));
  EXPECT_FALSE(std::filesystem::exists(output));
  EXPECT_FALSE(std::filesystem::exists(output.string() + ".partial"));
}

}  // namespace
}  // namespace warpsim::trace
