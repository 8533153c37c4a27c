#pragma once
/// @brief Which timeline tracks an event shows on: its stream, the link a copy uses, the host thread of a marker.
///
/// Within one trace, processes are numbered: the host 0, GPU d as d + 1. A track is (process, group, id); ordering
/// keys this way lists stream tracks before link tracks, each by id, which is the order the viewer shows them in.

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <string>

#include "trace.pb.h"

namespace warpsim {

inline constexpr std::uint32_t kHostProcess = 0;

enum class TrackGroup : std::uint8_t { kHostThread, kStream, kLink };
/// Link track ids: the two PCIe directions (full duplex, so each its own track) and the peer link.
enum LinkTrack : std::uint64_t { kPcieHtoD = 0, kPcieDtoH = 1, kPeer = 2 };

struct TrackKey {
  std::uint32_t process = 0;
  TrackGroup group = TrackGroup::kStream;
  std::uint64_t id = 0;  ///< stream id, LinkTrack or host thread id (0: unknown thread)
  auto operator<=>(const TrackKey&) const = default;
};

struct Placement {
  TrackKey track;
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;  ///< equals start_ns for an instant marker
};

/// Up to two placements: none for an event without end time (counters-mode kernels, event records) or for a
/// synchronization, one for a kernel, memset, DtoD/HtoH copy or marker, two for a copy that crosses a link.
struct Placements {
  std::array<Placement, 2> at{};
  std::size_t count = 0;
  void add(TrackKey track, std::uint64_t start_ns, std::uint64_t end_ns) { at[count++] = {track, start_ns, end_ns}; }
};

Placements placements(const Event& event);

/// "stream 7", "PCIe HtoD", "PCIe DtoH", "peer (NVLink)" or "peer (PCIe)" (from the header's links), "thread 4242"
/// or "markers".
std::string track_name(const TraceHeader& header, const TrackKey& key);

}  // namespace warpsim
