#include <gtest/gtest.h>

#include "sink/marker_pairs.h"

namespace warpsim::tracer {
namespace {

MarkerActivity marker(MarkerActivity::Phase phase, std::uint32_t id, std::uint64_t t, const char* name = "") {
  MarkerActivity m;
  m.phase = phase;
  m.id = id;
  m.timestamp = t;
  m.name = name;
  m.domain = "app";
  m.thread_id = 42;
  return m;
}

TEST(MarkerPairs, RangeStartAndEndBecomeOneMarker) {
  MarkerPairs pairs;
  EXPECT_FALSE(pairs.add(marker(MarkerActivity::Phase::kStart, 1, 100, "outer")).has_value());
  EXPECT_FALSE(pairs.add(marker(MarkerActivity::Phase::kStart, 2, 110, "inner")).has_value());
  const auto inner = pairs.add(marker(MarkerActivity::Phase::kEnd, 2, 150));
  ASSERT_TRUE(inner.has_value());
  EXPECT_EQ(inner->marker().name(), "inner");
  EXPECT_EQ(inner->marker().start_ns(), 110u);
  EXPECT_EQ(inner->marker().end_ns(), 150u);
  EXPECT_EQ(inner->marker().thread_id(), 42u);
  const auto outer = pairs.add(marker(MarkerActivity::Phase::kEnd, 1, 200));
  EXPECT_EQ(outer->marker().name(), "outer");
  EXPECT_TRUE(pairs.drain_open().empty());
}

TEST(MarkerPairs, InstantMarksAndUnmatchedEnds) {
  MarkerPairs pairs;
  const auto mark = pairs.add(marker(MarkerActivity::Phase::kInstant, 5, 10, "mark"));
  ASSERT_TRUE(mark.has_value());
  EXPECT_FALSE(mark->marker().has_end_ns());
  EXPECT_FALSE(pairs.add(marker(MarkerActivity::Phase::kEnd, 6, 20)).has_value()) << "started before tracing";
}

TEST(MarkerPairs, OpenRangesAreDrainedWithoutEnd) {
  MarkerPairs pairs;
  pairs.add(marker(MarkerActivity::Phase::kStart, 1, 100, "never ended"));
  const auto open = pairs.drain_open();
  ASSERT_EQ(open.size(), 1u);
  EXPECT_FALSE(open[0].marker().has_end_ns());
  EXPECT_TRUE(pairs.drain_open().empty());
}

TEST(MarkerPairs, EndBeforeStartIsClamped) {
  MarkerPairs pairs;
  pairs.add(marker(MarkerActivity::Phase::kStart, 1, 100, "r"));
  const auto range = pairs.add(marker(MarkerActivity::Phase::kEnd, 1, 98));
  EXPECT_EQ(range->marker().end_ns(), 100u);
}

}  // namespace
}  // namespace warpsim::tracer
