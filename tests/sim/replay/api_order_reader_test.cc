// The API order of a trace without holding it: keys in a first pass, then one pass that hands events out in that
// order and keeps only those read ahead of their turn.
#include "api_order_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "sample_trace.h"

namespace warpsim::replay {
namespace {

using warpsim::testing::kernel_event;

Event kernel_with_correlation(std::uint64_t correlation, std::uint64_t start_ns) {
  Event event = kernel_event(0, 7, "k" + std::to_string(correlation), start_ns, 10);
  event.mutable_kernel()->set_correlation_id(correlation);
  return event;
}

ApiOrderIndex index_of(const std::vector<Event>& events) {
  ApiOrderIndex index;
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (replayed(events[i])) index.add(events[i], i);
  }
  index.finish();
  return index;
}

TEST(ApiOrderReader, HandsEventsOutInApiOrderSkippingMarkers) {
  const std::vector<Event> events{kernel_with_correlation(3, 300), warpsim::testing::marker_event("phase", 0, 5),
                                  kernel_with_correlation(1, 100), kernel_with_correlation(2, 200)};
  const ApiOrderIndex index = index_of(events);
  EventsInMemory source("synthetic", {}, events);
  ApiOrderReader reader(source, index.order());
  std::vector<std::uint64_t> correlations;
  std::vector<std::size_t> sources;
  Event event;
  std::size_t source_index = 0;
  while (reader.next(event, source_index)) {
    correlations.push_back(event.kernel().correlation_id());
    sources.push_back(source_index);
  }
  EXPECT_EQ(correlations, (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_EQ(sources, (std::vector<std::size_t>{2, 3, 0}));
}

// Work recorded a little after its turn (activity buffers arrive late) keeps only that little waiting.
TEST(ApiOrderReader, KeepsOnlyWhatWasReadAheadOfItsTurn) {
  std::vector<Event> events;
  for (std::uint64_t i = 0; i < 1000; i += 2) {
    events.push_back(kernel_with_correlation(i + 2, i + 2));  // each pair recorded swapped
    events.push_back(kernel_with_correlation(i + 1, i + 1));
  }
  const ApiOrderIndex index = index_of(events);
  EventsInMemory source("synthetic", {}, events);
  ApiOrderReader reader(source, index.order());
  Event event;
  std::size_t source_index = 0, most_waiting = 0, read = 0;
  while (reader.next(event, source_index)) {
    EXPECT_EQ(event.kernel().correlation_id(), ++read);
    most_waiting = std::max(most_waiting, reader.waiting());
  }
  EXPECT_EQ(read, 1000u);
  EXPECT_EQ(most_waiting, 1u);
}

TEST(ApiOrderReader, ASourceThatLostEventsSinceTheFirstPassIsAnError) {
  const std::vector<Event> indexed{kernel_with_correlation(1, 100), kernel_with_correlation(2, 200)};
  const ApiOrderIndex index = index_of(indexed);
  const std::vector<Event> shorter{indexed[0]};
  EventsInMemory source("trace.wstrace", {}, shorter);
  ApiOrderReader reader(source, index.order());
  Event event;
  std::size_t source_index = 0;
  ASSERT_TRUE(reader.next(event, source_index));
  EXPECT_THROW(
      {
        try {
          reader.next(event, source_index);
        } catch (const std::runtime_error& error) {
          EXPECT_THAT(error.what(), ::testing::HasSubstr("trace.wstrace: changed while being simulated"));
          throw;
        }
      },
      std::runtime_error);
}

TEST(ApiOrderIndex, FindsWorkThatNoApiCallIssued) {
  Event call;
  call.mutable_api_call()->set_correlation_id(1);
  call.mutable_api_call()->set_start_ns(50);
  EXPECT_FALSE(index_of({call, kernel_with_correlation(1, 100)}).has_work_without_api_call());
  EXPECT_TRUE(
      index_of({call, kernel_with_correlation(1, 100), kernel_with_correlation(2, 200)}).has_work_without_api_call());
}

}  // namespace
}  // namespace warpsim::replay
