#include "sink/topology.h"

#include <cstdio>
#include <set>

namespace warpsim::tracer {
namespace {

void fill_from_cupti(Device& d, const DeviceActivity& a) {
  d.set_name(a.name);
  d.set_uuid(format_uuid(a.uuid));
  d.set_compute_capability_major(a.cc_major);
  d.set_compute_capability_minor(a.cc_minor);
  d.set_sm_count(a.multiprocessors);
  if (a.core_clock_khz) d.set_sm_clock_khz(a.core_clock_khz);
  if (a.global_memory_bandwidth_kbps) d.set_dram_bandwidth_bytes_per_s(a.global_memory_bandwidth_kbps * 1000);
  d.set_global_memory_bytes(a.global_memory_size);
  d.set_l2_cache_bytes(a.l2_cache_size);
  d.set_warp_size(a.threads_per_warp);
  d.set_max_warps_per_sm(a.max_warps_per_sm);
  d.set_max_blocks_per_sm(a.max_blocks_per_sm);
  d.set_max_threads_per_block(a.max_threads_per_block);
  d.set_max_registers_per_sm(a.max_registers_per_sm);
  d.set_max_registers_per_block(a.max_registers_per_block);
  d.set_max_shared_memory_per_sm_bytes(a.max_shared_memory_per_sm);
  d.set_max_shared_memory_per_block_bytes(a.max_shared_memory_per_block);
  d.set_async_engine_count(a.memcpy_engines);
}

// The driver fills what the DEVICE record lacks (memory clock and bus width, opt-in shared memory, PCI bus id, peer
// access), and everything when no DEVICE record came.
void fill_from_driver(Device& d, const DriverDeviceInfo& info) {
  if (d.name().empty()) d.set_name(info.name);
  if (!d.has_uuid()) d.set_uuid(format_uuid(info.uuid));
  if (!info.pci_bus_id.empty()) d.set_pci_bus_id(info.pci_bus_id);
  if (!d.has_sm_count() && info.sm_count) d.set_sm_count(*info.sm_count);
  if (!d.has_compute_capability_major() && info.cc_major) d.set_compute_capability_major(*info.cc_major);
  if (!d.has_compute_capability_minor() && info.cc_minor) d.set_compute_capability_minor(*info.cc_minor);
  if (!d.has_sm_clock_khz() && info.sm_clock_khz) d.set_sm_clock_khz(*info.sm_clock_khz);
  if (!d.has_global_memory_bytes() && info.total_memory_bytes) d.set_global_memory_bytes(*info.total_memory_bytes);
  if (!d.has_l2_cache_bytes() && info.l2_cache_bytes) d.set_l2_cache_bytes(*info.l2_cache_bytes);
  if (info.memory_clock_khz) d.set_memory_clock_khz(*info.memory_clock_khz);
  if (info.memory_bus_width_bits) d.set_memory_bus_width_bits(*info.memory_bus_width_bits);
  if (info.max_shared_memory_per_block_optin)
    d.set_max_shared_memory_per_block_optin_bytes(*info.max_shared_memory_per_block_optin);
  if (!d.has_async_engine_count() && info.async_engine_count) d.set_async_engine_count(*info.async_engine_count);
  if (info.max_threads_per_sm) d.set_max_threads_per_sm(*info.max_threads_per_sm);
  for (std::size_t peer = 0; peer < info.peer_access.size(); ++peer)
    if (info.peer_access[peer] && peer != info.ordinal) d.add_peer_access_device_ids(static_cast<std::uint32_t>(peer));
}

Endpoint device_endpoint(std::uint32_t ordinal) {
  Endpoint e;
  e.set_kind(Endpoint::DEVICE);
  e.set_device_id(ordinal);
  return e;
}

bool same_endpoint(const Endpoint& x, const Endpoint& y) {
  return x.kind() == y.kind() && x.device_id() == y.device_id() && x.index() == y.index();
}

bool already_linked(const std::vector<Link>& links, const Endpoint& a, const Endpoint& b) {
  for (const Link& link : links)
    if ((same_endpoint(link.a(), a) && same_endpoint(link.b(), b)) ||
        (same_endpoint(link.a(), b) && same_endpoint(link.b(), a)))
      return true;
  return false;
}

}  // namespace

std::string format_uuid(const Uuid& u) {
  char text[64];
  std::snprintf(text, sizeof text,
                "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3],
                u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
  return text;
}

std::vector<Device> Topology::devices() const {
  std::set<std::uint32_t> ordinals;
  for (const auto& [id, unused] : devices_) ordinals.insert(id);
  for (const auto& [id, unused] : driver_) ordinals.insert(id);
  std::vector<Device> result;
  for (std::uint32_t ordinal : ordinals) {
    Device d;
    d.set_id(ordinal);
    if (auto it = devices_.find(ordinal); it != devices_.end()) fill_from_cupti(d, it->second);
    if (auto it = driver_.find(ordinal); it != driver_.end()) fill_from_driver(d, it->second);
    result.push_back(std::move(d));
  }
  return result;
}

// A GPU endpoint is named by UUID; a GPU this process cannot see (CUDA_VISIBLE_DEVICES) has no ordinal, and a link
// to it says nothing the replay can use: nullopt.
std::optional<Endpoint> Topology::nvlink_endpoint(bool is_gpu, const Uuid& uuid, std::uint32_t npu_index) const {
  Endpoint endpoint;
  if (!is_gpu) {
    endpoint.set_kind(Endpoint::NVSWITCH);
    endpoint.set_index(npu_index);
    return endpoint;
  }
  const auto ordinal = ordinal_of(uuid);
  if (!ordinal) return std::nullopt;
  return device_endpoint(*ordinal);
}

std::optional<std::uint32_t> Topology::ordinal_of(const Uuid& uuid) const {
  for (const auto& [id, device] : devices_)
    if (device.uuid == uuid) return id;
  for (const auto& [id, info] : driver_)
    if (info.uuid == uuid) return id;
  return std::nullopt;
}

std::vector<Link> Topology::links() const {
  std::vector<Link> result;
  for (const NvLinkActivity& nv : nvlinks_) {
    const auto a = nvlink_endpoint(nv.dev0_is_gpu, nv.uuid0, nv.npu_index0);
    const auto b = nvlink_endpoint(nv.dev1_is_gpu, nv.uuid1, nv.npu_index1);
    if (!a || !b) continue;
    if (already_linked(result, *a, *b)) continue;  // CUPTI may report a bundle once from each side
    Link link;
    link.set_type(Link::NVLINK);
    *link.mutable_a() = *a;
    *link.mutable_b() = *b;
    link.set_link_count(nv.physical_link_count);
    if (nv.bandwidth_kbps) link.set_bandwidth_bytes_per_s(nv.bandwidth_kbps * 1000);
    if (nv.nvlink_version) link.set_nvlink_version(nv.nvlink_version);
    result.push_back(std::move(link));
  }
  for (const auto& [ordinal, pcie] : pcie_) {
    Link link;
    link.set_type(Link::PCIE);
    *link.mutable_a() = device_endpoint(ordinal);
    link.mutable_b()->set_kind(Endpoint::HOST);
    if (pcie.generation) link.set_pcie_generation(pcie.generation);
    if (pcie.link_width) link.set_pcie_lanes(pcie.link_width);
    result.push_back(std::move(link));
  }
  return result;
}

}  // namespace warpsim::tracer
