#include "outputs/timeline_lanes.h"

#include <algorithm>
#include <numeric>

namespace warpsim::report {
namespace {

// Ends of the slices still open in one lane, outermost first: one entry unless slices nest.
using Lane = std::vector<std::uint64_t>;

bool fits(Lane& lane, const LaneSlice& slice, LanePolicy policy) {
  while (!lane.empty() && lane.back() <= slice.start_ns) lane.pop_back();
  if (lane.empty()) return true;
  return policy == LanePolicy::kNested && slice.end_ns <= lane.back();
}

std::uint32_t place(std::vector<Lane>& lanes, const LaneSlice& slice, LanePolicy policy) {
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    if (!fits(lanes[i], slice, policy)) continue;
    lanes[i].push_back(slice.end_ns);
    return static_cast<std::uint32_t>(i);
  }
  lanes.push_back({slice.end_ns});
  return static_cast<std::uint32_t>(lanes.size() - 1);
}

}  // namespace

LaneAssignment assign_lanes(const std::vector<LaneSlice>& slices, const std::vector<LanePolicy>& policy) {
  // Visit slices by track, then start; at equal starts the longer first, so that it can enclose the shorter.
  std::vector<std::size_t> order(slices.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    const LaneSlice& a = slices[x];
    const LaneSlice& b = slices[y];
    if (a.track != b.track) return a.track < b.track;
    if (a.start_ns != b.start_ns) return a.start_ns < b.start_ns;
    return a.end_ns > b.end_ns;
  });
  LaneAssignment result{std::vector<std::uint32_t>(slices.size(), 0), std::vector<std::uint32_t>(policy.size(), 1)};
  std::vector<std::vector<Lane>> lanes(policy.size());
  for (const std::size_t i : order) {
    const std::uint32_t track = slices[i].track;
    result.lane[i] = place(lanes[track], slices[i], policy[track]);
    result.lanes_per_track[track] = std::max(result.lanes_per_track[track], result.lane[i] + 1);
  }
  return result;
}

}  // namespace warpsim::report
