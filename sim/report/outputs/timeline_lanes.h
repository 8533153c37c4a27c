#pragma once
/// @brief Spreads the slices of each timeline track over as few lanes (rows) as keep them drawable.
///
/// Chrome's trace-event format draws the complete events of one thread as a stack: they must be disjoint or nested.
/// Two copies sharing a PCIe direction, or a simulated stream whose operations overlap, break that and the viewers
/// then hide or misplace slices. So a slice that would overlap goes to a further lane ("stream 7 #2"), which also
/// shows the overlap itself. NVTX ranges nest by design and keep nesting in one lane.
///
/// Each slice takes the first lane where it fits, in start order (at equal starts the longer first, so that it can
/// enclose the shorter). A track whose slices come in that order (a stream's, as a trace holds them) is assigned as
/// they come (LaneStream), keeping only its open slices; the others all at once (assign_lanes).

#include <cstdint>
#include <optional>
#include <vector>

namespace warpsim::report {

struct LaneSlice {
  std::uint32_t track = 0;
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
};

/// How slices of one track may share a lane: only when disjoint, or also when one lies within the other.
enum class LanePolicy { kDisjoint, kNested };

/// The lanes of one track, assigned slice by slice in start order.
class LaneStream {
 public:
  explicit LaneStream(LanePolicy policy) : policy_(policy) {}
  /// Whether a slice may come next: not before the previous one in start order.
  bool in_order(std::uint64_t start_ns, std::uint64_t end_ns) const;
  /// The slice's lane; it must be in order.
  std::uint32_t add(std::uint64_t start_ns, std::uint64_t end_ns);
  std::uint32_t lanes() const { return static_cast<std::uint32_t>(lanes_.size()); }

 private:
  // Ends of the slices still open in one lane, outermost first: one entry unless slices nest.
  using Lane = std::vector<std::uint64_t>;

  LanePolicy policy_;
  std::vector<Lane> lanes_;
  std::optional<LaneSlice> previous_;
};

struct LaneAssignment {
  std::vector<std::uint32_t> lane;             ///< per slice, in the order given; 0 is the track's first lane
  std::vector<std::uint32_t> lanes_per_track;  ///< per track: at least 1
};

/// Assigns every slice, in any order, the lane LaneStream gives it in start order. Tracks are numbered
/// 0 .. policy.size() - 1.
LaneAssignment assign_lanes(const std::vector<LaneSlice>& slices, const std::vector<LanePolicy>& policy);

}  // namespace warpsim::report
