#pragma once
/// @brief Which timeline tracks an event shows on: its stream, the link a copy uses, the host thread of a marker or
/// of an API call.
///
/// Within one trace, processes are numbered: the host 0, GPU d as d + 1. A track is (process, group, id); ordering
/// keys this way lists stream tracks before link tracks, and the host threads' API tracks before their marker
/// tracks, each by id, which is the order the viewer shows them in.

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <string>

#include "trace.pb.h"

namespace warpsim::report {

inline constexpr std::uint32_t kHostProcess = 0;

/// kApiThread: the API calls and host work of one host thread; kHostThread: the NVTX markers of one thread.
enum class TrackGroup : std::uint8_t { kApiThread, kHostThread, kStream, kLink };
/// Link track ids: the two PCIe directions (full duplex, so each its own track) and the peer link.
enum LinkTrack : std::uint64_t { kPcieHtoD = 0, kPcieDtoH = 1, kPeer = 2 };

struct TrackKey {
  std::uint32_t process = 0;
  TrackGroup group = TrackGroup::kStream;
  std::uint64_t id = 0;  ///< stream id, LinkTrack, host thread id (0: unknown thread) or api_thread_id
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

/// The id of the API track of thread `thread_id` of process `process_id`: the process in the high 32 bits, so that
/// tracks list by process, then thread. Linux thread ids fit in 32 bits (pid_max is at most 2^22).
std::uint64_t api_thread_id(std::uint32_t process_id, std::uint64_t thread_id);
std::uint32_t api_thread_process(std::uint64_t id);
std::uint64_t api_thread_thread(std::uint64_t id);

/// "stream 7", "PCIe HtoD", "PCIe DtoH", "peer (NVLink)" or "peer (PCIe)" (from the header's links), "thread 4242"
/// (markers or API calls of that thread) or "markers". Host tracks with a known thread name are named in host_tracks.h.
std::string track_name(const TraceHeader& header, const TrackKey& key);

}  // namespace warpsim::report
