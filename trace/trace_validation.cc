#include "trace_validation.h"

namespace warpsim {
namespace {

using Problem = std::optional<std::string>;

// `role` says where the event names the device: "names", "names as source", ...
Problem check_device(const KnownDevices& devices, std::uint32_t id, const char* role) {
  if (devices.contains(id)) return std::nullopt;
  return std::string(role) + " device " + std::to_string(id) + ", which the header does not declare";
}

Problem check_interval(std::uint64_t start_ns, std::uint64_t end_ns) {
  if (end_ns >= start_ns) return std::nullopt;
  return "ends (" + std::to_string(end_ns) + " ns) before it starts (" + std::to_string(start_ns) + " ns)";
}

// proto3 enums are open: a value outside the schema parses, so refuse it here rather than in every consumer.
template <typename IsValid>
Problem check_enum(int value, IsValid is_valid, const char* what) {
  if (is_valid(value)) return std::nullopt;
  return "has unknown " + std::string(what) + " " + std::to_string(value);
}

Problem check_endpoint(const Endpoint& endpoint, const KnownDevices& devices) {
  if (auto p = check_enum(endpoint.kind(), Endpoint::Kind_IsValid, "link endpoint kind")) return "a link " + *p;
  if (endpoint.kind() != Endpoint::DEVICE) return std::nullopt;
  if (!endpoint.has_device_id()) return std::string("a link endpoint of kind DEVICE has no device_id");
  return check_device(devices, endpoint.device_id(), "a link names");
}

Problem check_memcpy(const Memcpy& copy, const KnownDevices& devices) {
  if (auto p = check_enum(copy.kind(), Memcpy::Kind_IsValid, "copy kind")) return p;
  if (auto p = check_enum(copy.src_memory(), MemoryKind_IsValid, "source memory kind")) return p;
  if (auto p = check_enum(copy.dst_memory(), MemoryKind_IsValid, "destination memory kind")) return p;
  if (auto p = check_device(devices, copy.device_id(), "names")) return p;
  if (copy.has_src_device_id())
    if (auto p = check_device(devices, copy.src_device_id(), "names as source")) return p;
  if (copy.has_dst_device_id())
    if (auto p = check_device(devices, copy.dst_device_id(), "names as destination")) return p;
  if (copy.kind() == Memcpy::PTOP && !(copy.has_src_device_id() && copy.has_dst_device_id()))
    return std::string("is peer-to-peer but lacks its source or destination device");
  return check_interval(copy.start_ns(), copy.end_ns());
}

Problem check_marker(const Marker& marker, const KnownDevices& devices) {
  if (marker.has_device_id())
    if (auto p = check_device(devices, marker.device_id(), "names")) return p;
  if (marker.has_end_ns()) return check_interval(marker.start_ns(), marker.end_ns());
  return std::nullopt;
}

Problem check_traffic_samples(const TrafficSamples& samples, const KnownDevices& devices) {
  if (auto p = check_device(devices, samples.device_id(), "names")) return p;
  for (const TrafficSample& sample : samples.samples())
    if (auto p = check_interval(sample.start_ns(), sample.end_ns())) return "has a sample that " + *p;
  return std::nullopt;
}

}  // namespace

KnownDevices::KnownDevices(const TraceHeader& header) {
  for (const Device& device : header.devices()) ids_.insert(device.id());
}

Problem find_header_problem(const TraceHeader& header) {
  std::unordered_set<std::uint32_t> seen;
  for (const Device& device : header.devices())
    if (!seen.insert(device.id()).second) return "the header declares device " + std::to_string(device.id()) + " twice";
  if (auto p = check_enum(header.mode(), CaptureMode_IsValid, "capture mode")) return "the header " + *p;
  const KnownDevices devices(header);
  for (const Link& link : header.links()) {
    if (auto p = check_enum(link.type(), Link::Type_IsValid, "link type")) return "a link " + *p;
    if (auto p = check_endpoint(link.a(), devices)) return p;
    if (auto p = check_endpoint(link.b(), devices)) return p;
  }
  return std::nullopt;
}

Problem find_event_problem(const Event& event, const KnownDevices& devices) {
  switch (event.kind_case()) {
    case Event::kKernel:
      if (auto p = check_enum(event.kernel().launch_kind(), KernelLaunch::LaunchKind_IsValid, "launch kind")) return p;
      if (auto p = check_device(devices, event.kernel().device_id(), "names")) return p;
      return check_interval(event.kernel().start_ns(), event.kernel().end_ns());
    case Event::kMemcpy: return check_memcpy(event.memcpy(), devices);
    case Event::kMemset:
      if (auto p = check_enum(event.memset().memory(), MemoryKind_IsValid, "memory kind")) return p;
      if (auto p = check_device(devices, event.memset().device_id(), "names")) return p;
      return check_interval(event.memset().start_ns(), event.memset().end_ns());
    case Event::kSync:
      if (auto p = check_enum(event.sync().type(), Synchronization::Type_IsValid, "synchronization type")) return p;
      if (auto p = check_device(devices, event.sync().device_id(), "names")) return p;
      return check_interval(event.sync().start_ns(), event.sync().end_ns());
    case Event::kMarker: return check_marker(event.marker(), devices);
    case Event::kApiCall:
      if (auto p = check_enum(event.api_call().domain(), ApiCall::Domain_IsValid, "API domain")) return p;
      return check_interval(event.api_call().start_ns(), event.api_call().end_ns());
    case Event::kHostThread: return std::nullopt;
    case Event::kStream:
      if (auto p = check_enum(event.stream().kind(), Stream::Kind_IsValid, "stream kind")) return p;
      return check_device(devices, event.stream().device_id(), "names");
    case Event::kTrafficSamples: return check_traffic_samples(event.traffic_samples(), devices);
    case Event::KIND_NOT_SET: break;
  }
  return std::string("has no known kind (corrupt, or written by a newer warpsim)");
}

std::string event_kind_name(const Event& event) {
  switch (event.kind_case()) {
    case Event::kKernel: return "kernel";
    case Event::kMemcpy: return "memcpy";
    case Event::kMemset: return "memset";
    case Event::kSync: return "synchronization";
    case Event::kMarker: return "marker";
    case Event::kApiCall: return "API call";
    case Event::kHostThread: return "host thread";
    case Event::kStream: return "stream";
    case Event::kTrafficSamples: return "traffic samples";
    case Event::KIND_NOT_SET: break;
  }
  return "unknown";
}

}  // namespace warpsim
