#include <gtest/gtest.h>

#include "outputs/timeline_lanes.h"

namespace warpsim::report {
namespace {

TEST(TimelineLanes, DisjointSlicesShareOneLane) {
  const LaneAssignment a = assign_lanes({{0, 0, 10}, {0, 10, 20}, {0, 30, 40}}, {LanePolicy::kDisjoint});
  EXPECT_EQ(a.lane, (std::vector<std::uint32_t>{0, 0, 0}));
  EXPECT_EQ(a.lanes_per_track, (std::vector<std::uint32_t>{1}));
}

TEST(TimelineLanes, OverlapsGoToFurtherLanesPerTrack) {
  // Given out of order: [5,15) overlaps [0,10); [12,20) fits after [0,10) again. Track 1 is independent.
  const LaneAssignment a =
      assign_lanes({{0, 5, 15}, {1, 0, 100}, {0, 0, 10}, {0, 12, 20}}, {LanePolicy::kDisjoint, LanePolicy::kDisjoint});
  EXPECT_EQ(a.lane, (std::vector<std::uint32_t>{1, 0, 0, 0}));
  EXPECT_EQ(a.lanes_per_track, (std::vector<std::uint32_t>{2, 1}));
}

TEST(TimelineLanes, NestedPolicyKeepsNestingInOneLane) {
  const std::vector<LaneSlice> slices = {{0, 0, 100}, {0, 10, 20}, {0, 20, 30}, {0, 90, 110}};
  const LaneAssignment nested = assign_lanes(slices, {LanePolicy::kNested});
  EXPECT_EQ(nested.lane, (std::vector<std::uint32_t>{0, 0, 0, 1}));  // [90,110) crosses the end of [0,100)
  const LaneAssignment disjoint = assign_lanes(slices, {LanePolicy::kDisjoint});
  EXPECT_EQ(disjoint.lane, (std::vector<std::uint32_t>{0, 1, 1, 1}));
}

TEST(TimelineLanes, AStreamInStartOrderGetsTheLanesOfTheWholeAssignment) {
  const std::vector<LaneSlice> slices = {{0, 0, 100}, {0, 0, 50}, {0, 10, 20}, {0, 15, 30}, {0, 90, 110}};
  for (const LanePolicy policy : {LanePolicy::kDisjoint, LanePolicy::kNested}) {
    LaneStream stream(policy);
    std::vector<std::uint32_t> lanes;
    for (const LaneSlice& s : slices) {
      ASSERT_TRUE(stream.in_order(s.start_ns, s.end_ns));
      lanes.push_back(stream.add(s.start_ns, s.end_ns));
    }
    EXPECT_EQ(lanes, assign_lanes(slices, {policy}).lane);
    EXPECT_EQ(stream.lanes(), assign_lanes(slices, {policy}).lanes_per_track[0]);
  }
}

TEST(TimelineLanes, AStreamTellsASliceThatComesOutOfStartOrder) {
  LaneStream stream(LanePolicy::kNested);
  stream.add(10, 20);
  EXPECT_FALSE(stream.in_order(5, 30));   // starts earlier
  EXPECT_FALSE(stream.in_order(10, 25));  // starts together and is longer: it should have come first
  EXPECT_TRUE(stream.in_order(10, 20));
  EXPECT_TRUE(stream.in_order(10, 15));
  EXPECT_TRUE(stream.in_order(11, 12));
}

}  // namespace
}  // namespace warpsim::report
