// From trace events to streams, dependencies and the host's program, without SimGrid.
#include "replay_program.h"

#include <algorithm>
#include <optional>
#include <string>

#include "api_order_reader.h"
#include "host_program.h"

#include <gtest/gtest.h>

#include <vector>

#include "sample_trace.h"

namespace warpsim::replay {
namespace {

using warpsim::testing::api_call_event;
using warpsim::testing::copy_event;
using warpsim::testing::kernel_event;
using warpsim::testing::sync_event;

Event with_correlation(Event event, std::uint64_t id) {
  if (event.has_kernel()) event.mutable_kernel()->set_correlation_id(id);
  if (event.has_memcpy()) event.mutable_memcpy()->set_correlation_id(id);
  if (event.has_sync()) event.mutable_sync()->set_correlation_id(id);
  return event;
}

TEST(ReplayProgram, SortsByApiOrderNotByStartTime) {
  std::vector<Event> events{with_correlation(kernel_event(0, 7, "late_call", 100, 10), 2),
                            with_correlation(kernel_event(0, 7, "early_call", 500, 10), 1)};
  sort_by_api_order(events);
  EXPECT_EQ(events[0].kernel().name(), "early_call");
}

TEST(ReplayProgram, OperationsOfAStreamStayInOrder) {
  const std::vector<Event> events{kernel_event(0, 7, "a", 0, 1), kernel_event(0, 8, "b", 0, 1),
                                  kernel_event(0, 7, "c", 0, 1)};
  const ReplayProgram program = build_replay_program(events);
  ASSERT_EQ(program.streams.size(), 2u);
  EXPECT_EQ(program.streams[0].ops, (std::vector<std::size_t>{0, 2}));
  EXPECT_EQ(program.streams[1].ops, (std::vector<std::size_t>{1}));
  for (std::size_t i = 0; i < events.size(); ++i) EXPECT_EQ(program.actions[i].issues, i);
}

TEST(ReplayProgram, StreamWaitEventWaitsForTheRecordedOperation) {
  const std::vector<Event> events{
      kernel_event(0, 7, "producer", 0, 1),
      sync_event(Synchronization::EVENT_RECORD, 0, 7, 42, 0),
      kernel_event(0, 7, "after_record", 0, 1),  // enqueued after the record: not awaited
      sync_event(Synchronization::STREAM_WAIT_EVENT, 0, 8, 42, 0),
      kernel_event(0, 8, "consumer", 0, 1),
      kernel_event(0, 8, "second_consumer", 0, 1),
  };
  const ReplayProgram program = build_replay_program(events);
  ASSERT_EQ(program.ops.size(), 4u);
  EXPECT_EQ(program.ops[2].waits_for, std::vector<std::size_t>{0});
  EXPECT_TRUE(program.ops[3].waits_for.empty());  // stream order covers it
}

TEST(ReplayProgram, WaitingOnAnEventRecordedOnAnEmptyStreamWaitsForNothing) {
  const std::vector<Event> events{sync_event(Synchronization::EVENT_RECORD, 0, 7, 1, 0),
                                  sync_event(Synchronization::STREAM_WAIT_EVENT, 0, 8, 1, 0),
                                  kernel_event(0, 8, "k", 0, 1)};
  EXPECT_TRUE(build_replay_program(events).ops[0].waits_for.empty());
}

TEST(ReplayProgram, DeviceSynchronizeMakesTheHostWaitForEveryStreamOfThatDevice) {
  const std::vector<Event> events{kernel_event(0, 7, "a", 0, 1), kernel_event(0, 8, "b", 0, 1),
                                  kernel_event(1, 9, "other_gpu", 0, 1),
                                  sync_event(Synchronization::CONTEXT_SYNCHRONIZE, 0, 0, 0, 0)};
  const ReplayProgram program = build_replay_program(events);
  EXPECT_EQ(program.actions[3].waits, (std::vector<std::size_t>{0, 1}));
}

TEST(ReplayProgram, PageableCopiesBlockTheHostPinnedOnesDoNot) {
  Event pageable = copy_event(Memcpy::HTOD, 1024, 0, 7, 0, 1);
  pageable.mutable_memcpy()->set_src_memory(MEMORY_KIND_PAGEABLE);
  Event pinned = copy_event(Memcpy::HTOD, 1024, 0, 7, 0, 1);
  pinned.mutable_memcpy()->set_src_memory(MEMORY_KIND_PINNED);
  const ReplayProgram program = build_replay_program({pinned, pageable});
  EXPECT_TRUE(program.actions[0].waits.empty());
  EXPECT_EQ(program.actions[1].waits, std::vector<std::size_t>{1});
}

TEST(ReplayProgram, SynchronousPinnedCopiesBlockTheHostAsynchronousOnesDoNot) {
  Event sync_copy = copy_event(Memcpy::HTOD, 1024, 0, 7, 0, 1);
  sync_copy.mutable_memcpy()->set_src_memory(MEMORY_KIND_PINNED);
  sync_copy.mutable_memcpy()->set_asynchronous(false);
  Event async_copy = sync_copy;
  async_copy.mutable_memcpy()->set_asynchronous(true);
  const ReplayProgram program = build_replay_program({async_copy, sync_copy});
  EXPECT_TRUE(program.actions[0].waits.empty());
  EXPECT_EQ(program.actions[1].waits, std::vector<std::size_t>{1});
}

Event stream_of_kind(std::uint32_t device, std::uint32_t stream, Stream::Kind kind) {
  Event event;
  event.mutable_stream()->set_device_id(device);
  event.mutable_stream()->set_stream_id(stream);
  event.mutable_stream()->set_kind(kind);
  return event;
}

TEST(ReplayProgram, TheLegacyDefaultStreamSerializesWithBlockingStreamsNotWithNonBlockingOnes) {
  const std::vector<Event> events{stream_of_kind(0, 7, Stream::LEGACY_DEFAULT),
                                  stream_of_kind(0, 8, Stream::BLOCKING),
                                  stream_of_kind(0, 9, Stream::NON_BLOCKING),
                                  kernel_event(0, 8, "blocking_before", 0, 1),
                                  kernel_event(0, 9, "non_blocking_before", 0, 1),
                                  kernel_event(0, 7, "legacy", 0, 1),
                                  kernel_event(0, 8, "blocking_after", 0, 1),
                                  kernel_event(0, 9, "non_blocking_after", 0, 1),
                                  kernel_event(1, 8, "other_device", 0, 1)};
  const ReplayProgram program = build_replay_program(events);
  ASSERT_EQ(program.ops.size(), 6u);
  EXPECT_EQ(program.ops[2].waits_for, std::vector<std::size_t>{0});  // legacy waits for the blocking stream only
  EXPECT_EQ(program.ops[3].waits_for, std::vector<std::size_t>{2});  // and the blocking stream then waits for it
  EXPECT_TRUE(program.ops[4].waits_for.empty());
  EXPECT_TRUE(program.ops[5].waits_for.empty());
}

TEST(ReplayProgram, AnApiCallComesBeforeTheWorkItIssuedEvenWhenTheGpuClockSaysEarlier) {
  std::vector<Event> events{with_correlation(kernel_event(0, 7, "k", 90, 10), 5),
                            api_call_event(1, "cudaLaunchKernel_v7000", 100, 110, 5)};
  sort_by_api_order(events);
  EXPECT_TRUE(events[0].has_api_call());
}

// Feeds events one at a time, as a replay reading its trace in windows does.
struct IncrementalHost {
  ProgramBuilder program{{}};
  HostStepsBuilder host;
  std::size_t next = 0;
  IncrementalHost(std::vector<ThreadKey> threads) : host(HostOptions{}, 0, std::move(threads), false) {}
  void add(const Event& event) {
    std::optional<AddedOp> added;
    const EventActions actions = program.add(event, next, added);
    host.add(event, next++, actions, added, program);
  }
};

TEST(HostStepsBuilder, ACallsStepsAreReadyOnceAnotherThreadsCallStartsAfterItEnded) {
  IncrementalHost fed({{1, 11}, {1, 12}});
  fed.add(api_call_event(11, "cudaLaunchKernel_v7000", 100, 110, 1));
  fed.add(with_correlation(kernel_event(0, 7, "k", 120, 10), 1));
  fed.add(api_call_event(12, "cudaMemsetAsync_v3020", 105, 108, 2));  // began before the launch returned
  EXPECT_TRUE(fed.host.ready(0).empty()) << "a driver call or more work of the launch could still follow";
  fed.add(api_call_event(12, "cudaStreamSynchronize_v3020", 111, 200, 3));
  ASSERT_FALSE(fed.host.ready(0).empty());
  EXPECT_EQ(fed.host.ready(0).front().kind, HostStep::Kind::kCompute);  // from the recording's start to the call
  const auto issue = std::find_if(fed.host.ready(0).begin(), fed.host.ready(0).end(),
                                  [](const HostStep& step) { return step.kind == HostStep::Kind::kIssue; });
  ASSERT_NE(issue, fed.host.ready(0).end());
  EXPECT_EQ(issue->event, 1u);
  EXPECT_EQ(fed.host.summary().api_calls, 2u);  // the launch and the memset; the synchronization is still open
  fed.host.finish();
  EXPECT_EQ(fed.host.summary().api_calls, 3u);
}

TEST(HostStepsBuilder, ADriverCallInsideARuntimeCallBelongsToIt) {
  IncrementalHost fed({{1, 11}});
  fed.add(api_call_event(11, "cudaFree_v3020", 100, 200, 1));
  fed.add(api_call_event(11, "cuMemFree_v2", 120, 180, 2));
  fed.add(api_call_event(11, "cudaMalloc_v3020", 300, 310, 3));
  EXPECT_EQ(fed.host.summary().api_calls, 1u);
  fed.host.finish();
  EXPECT_EQ(fed.host.summary().api_calls, 2u);
}

}  // namespace
}  // namespace warpsim::replay
