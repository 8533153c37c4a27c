#include "outputs/timeline_tracks.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace warpsim::report {
namespace {

// "peer (NVLink)" when the device has an NVLink in the header: that is the link its peer copies take.
std::string peer_track_name(const TraceHeader& header, std::uint32_t device) {
  for (const Link& link : header.links()) {
    if (link.type() != Link::NVLINK) continue;
    for (const Endpoint& end : {link.a(), link.b()})
      if (end.kind() == Endpoint::DEVICE && end.device_id() == device) return "peer (NVLink)";
  }
  return "peer (PCIe)";
}

std::optional<LinkTrack> link_of(Memcpy::Kind kind) {
  switch (kind) {
    case Memcpy::HTOD: return kPcieHtoD;
    case Memcpy::DTOH: return kPcieDtoH;
    case Memcpy::PTOP: return kPeer;
    default: return std::nullopt;  // DtoD stays in one GPU's memory, HtoH in the host's
  }
}

}  // namespace

Placements placements(const Event& event) {
  Placements p;
  auto on_stream = [&p](std::uint32_t device, std::uint32_t stream, std::uint64_t start_ns, std::uint64_t end_ns) {
    if (end_ns != 0) p.add({device + 1, TrackGroup::kStream, stream}, start_ns, end_ns);
  };
  switch (event.kind_case()) {
    case Event::kKernel: {
      const KernelLaunch& k = event.kernel();
      on_stream(k.device_id(), k.stream_id(), k.start_ns(), k.end_ns());
      break;
    }
    case Event::kMemcpy: {
      const Memcpy& m = event.memcpy();
      on_stream(m.device_id(), m.stream_id(), m.start_ns(), m.end_ns());
      if (const auto link = link_of(m.kind()); link && p.count > 0)
        p.add({m.device_id() + 1, TrackGroup::kLink, *link}, m.start_ns(), m.end_ns());
      break;
    }
    case Event::kMemset:
      on_stream(event.memset().device_id(), event.memset().stream_id(), event.memset().start_ns(),
                event.memset().end_ns());
      break;
    case Event::kMarker: {
      const Marker& m = event.marker();
      if (m.start_ns() != 0)
        p.add({kHostProcess, TrackGroup::kHostThread, m.thread_id()}, m.start_ns(), std::max(m.start_ns(), m.end_ns()));
      break;
    }
    case Event::kApiCall: {
      const ApiCall& c = event.api_call();
      if (c.end_ns() != 0)
        p.add({kHostProcess, TrackGroup::kApiThread, api_thread_id(c.process_id(), c.thread_id())}, c.start_ns(),
              c.end_ns());
      break;
    }
    default: break;  // synchronizations: dependencies, not work; host threads and streams: names
  }
  return p;
}

std::uint64_t api_thread_id(std::uint32_t process_id, std::uint64_t thread_id) {
  return (std::uint64_t{process_id} << 32) | (thread_id & 0xffff'ffffu);
}
std::uint32_t api_thread_process(std::uint64_t id) { return static_cast<std::uint32_t>(id >> 32); }
std::uint64_t api_thread_thread(std::uint64_t id) { return id & 0xffff'ffffu; }

std::string track_name(const TraceHeader& header, const TrackKey& key) {
  switch (key.group) {
    case TrackGroup::kStream: return fmt::format("stream {}", key.id);
    case TrackGroup::kHostThread: return key.id == 0 ? "markers" : fmt::format("thread {}", key.id);
    case TrackGroup::kApiThread: return fmt::format("thread {}", api_thread_thread(key.id));
    case TrackGroup::kLink: break;
  }
  if (key.id == kPcieHtoD) return "PCIe HtoD";
  if (key.id == kPcieDtoH) return "PCIe DtoH";
  return peer_track_name(header, key.process - 1);
}

}  // namespace warpsim::report
