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

}  // namespace
}  // namespace warpsim::report
