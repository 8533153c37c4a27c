#include "outputs/timeline_lanes.h"

#include <algorithm>
#include <numeric>

namespace warpsim::report {

bool LaneStream::in_order(std::uint64_t start_ns, std::uint64_t end_ns) const {
  if (!previous_) return true;
  return start_ns > previous_->start_ns || (start_ns == previous_->start_ns && end_ns <= previous_->end_ns);
}

std::uint32_t LaneStream::add(std::uint64_t start_ns, std::uint64_t end_ns) {
  previous_ = LaneSlice{0, start_ns, end_ns};
  for (std::size_t i = 0; i < lanes_.size(); ++i) {
    Lane& lane = lanes_[i];
    while (!lane.empty() && lane.back() <= start_ns) lane.pop_back();
    if (!lane.empty() && !(policy_ == LanePolicy::kNested && end_ns <= lane.back())) continue;
    lane.push_back(end_ns);
    return static_cast<std::uint32_t>(i);
  }
  lanes_.push_back({end_ns});
  return static_cast<std::uint32_t>(lanes_.size() - 1);
}

LaneAssignment assign_lanes(const std::vector<LaneSlice>& slices, const std::vector<LanePolicy>& policy) {
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
  std::vector<LaneStream> lanes;
  for (const LanePolicy p : policy) lanes.emplace_back(p);
  for (const std::size_t i : order) {
    const std::uint32_t track = slices[i].track;
    result.lane[i] = lanes[track].add(slices[i].start_ns, slices[i].end_ns);
    result.lanes_per_track[track] = std::max(result.lanes_per_track[track], result.lane[i] + 1);
  }
  return result;
}

}  // namespace warpsim::report
