// From trace events to streams, dependencies and the host's program, without SimGrid.
#include "replay_program.h"

#include <gtest/gtest.h>

#include <vector>

#include "sample_trace.h"

namespace warpsim::replay {
namespace {

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
  EXPECT_EQ(program.host_steps.size(), 3u);
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
  std::vector<std::size_t> awaited;
  for (const HostStep& step : program.host_steps) {
    if (step.kind == HostStep::Kind::kWait) awaited.push_back(step.op);
  }
  EXPECT_EQ(awaited, (std::vector<std::size_t>{0, 1}));
}

TEST(ReplayProgram, PageableCopiesBlockTheHostPinnedOnesDoNot) {
  Event pageable = copy_event(Memcpy::HTOD, 1024, 0, 7, 0, 1);
  pageable.mutable_memcpy()->set_src_memory(MEMORY_KIND_PAGEABLE);
  Event pinned = copy_event(Memcpy::HTOD, 1024, 0, 7, 0, 1);
  pinned.mutable_memcpy()->set_src_memory(MEMORY_KIND_PINNED);
  const ReplayProgram program = build_replay_program({pinned, pageable});
  ASSERT_EQ(program.host_steps.size(), 3u);
  EXPECT_EQ(program.host_steps[2].kind, HostStep::Kind::kWait);
  EXPECT_EQ(program.host_steps[2].op, 1u);
}

}  // namespace
}  // namespace warpsim::replay
