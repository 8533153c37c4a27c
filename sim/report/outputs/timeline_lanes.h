#pragma once
/// @brief Spreads the slices of each timeline track over as few lanes (rows) as keep them drawable.
///
/// Chrome's trace-event format draws the complete events of one thread as a stack: they must be disjoint or nested.
/// Two copies sharing a PCIe direction, or a simulated stream whose operations overlap, break that and the viewers
/// then hide or misplace slices. So a slice that would overlap goes to a further lane ("stream 7 #2"), which also
/// shows the overlap itself. NVTX ranges nest by design and keep nesting in one lane.

#include <cstdint>
#include <vector>

namespace warpsim::report {

struct LaneSlice {
  std::uint32_t track = 0;
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
};

/// How slices of one track may share a lane: only when disjoint, or also when one lies within the other.
enum class LanePolicy { kDisjoint, kNested };

struct LaneAssignment {
  std::vector<std::uint32_t> lane;             ///< per slice, in the order given; 0 is the track's first lane
  std::vector<std::uint32_t> lanes_per_track;  ///< per track: at least 1
};

/// Assigns every slice the first lane, in start order, where it fits under `policy[track]`. Tracks are numbered
/// 0 .. policy.size() - 1.
LaneAssignment assign_lanes(const std::vector<LaneSlice>& slices, const std::vector<LanePolicy>& policy);

}  // namespace warpsim::report
