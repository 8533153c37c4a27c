#include "op_work.h"

#include <algorithm>

namespace warpsim::replay {
namespace {

void add_transfer(OpWork& work, std::size_t from, std::size_t to, std::uint64_t bytes) {
  if (bytes > 0) work.transfers.push_back({from, to, bytes});
}

std::size_t host_source(const Topology& topology, MemoryKind memory) {
  return memory == MEMORY_KIND_PAGEABLE ? topology.host_pageable() : topology.host();
}

std::size_t host_destination(const Topology& topology, MemoryKind memory) {
  return memory == MEMORY_KIND_PAGEABLE ? topology.host_pageable_destination() : topology.host();
}

double route_latency_s(const Topology& topology, const Transfer& transfer) {
  double latency_ns = 0;
  for (const Hop& hop : topology.route(transfer.from, transfer.to)) latency_ns += topology.links()[hop.link].latency_ns;
  return latency_ns * 1e-9;
}

// The fixed cost measured end to end (a 4-byte copy) holds the route's latency, which the transfer adds again.
void add_fixed_cost(OpWork& work, const Topology& topology, double fixed_ns) {
  double latency_s = 0;
  for (const Transfer& transfer : work.transfers) latency_s = std::max(latency_s, route_latency_s(topology, transfer));
  work.setup_s = std::max(0.0, fixed_ns * 1e-9 - latency_s);
}

}  // namespace

OpWork kernel_op_work(const models::KernelPrediction& prediction, const Topology& topology, std::uint32_t gpu,
                   const std::vector<std::uint32_t>& peers) {
  OpWork work;
  work.setup_s = prediction.launch_overhead_s;
  work.sm_vertex = topology.gpu_sm(gpu);
  work.sm_time_s = prediction.sm_time_s;
  work.sms_used = prediction.sms_used == 0 ? 1 : prediction.sms_used;
  const std::size_t sm = topology.gpu_sm(gpu);
  add_transfer(work, topology.gpu_memory(gpu), sm, prediction.dram_bytes);
  add_transfer(work, topology.gpu_l2(gpu), sm, prediction.l2_bytes);
  add_transfer(work, topology.host(), sm, prediction.sysmem_bytes);
  for (std::uint32_t peer : peers) {
    add_transfer(work, topology.gpu_memory(peer), sm, prediction.peer_bytes / peers.size());
  }
  return work;
}

OpWork memcpy_work(const Memcpy& copy, const Topology& topology, const platform::HostSpec& host) {
  OpWork work;
  const std::uint64_t bytes = copy.bytes();
  const std::uint32_t src = copy.has_src_device_id() ? copy.src_device_id() : copy.device_id();
  const std::uint32_t dst = copy.has_dst_device_id() ? copy.dst_device_id() : copy.device_id();
  switch (copy.kind()) {
    case Memcpy::HTOD: add_transfer(work, host_source(topology, copy.src_memory()), topology.gpu_memory(dst), bytes); break;
    case Memcpy::DTOH: add_transfer(work, topology.gpu_memory(src), host_destination(topology, copy.dst_memory()), bytes); break;
    case Memcpy::HTOH: add_transfer(work, topology.host_pageable(), topology.host(), bytes); break;
    case Memcpy::DTOD:
    case Memcpy::PTOP:
      if (src == dst) {
        add_transfer(work, topology.gpu_memory(src), topology.gpu_sm(src), 2 * bytes);
      } else {
        add_transfer(work, topology.gpu_memory(src), topology.gpu_memory(dst), bytes);
      }
      break;
    default: break;
  }
  if (copy.kind() == Memcpy::HTOD) add_fixed_cost(work, topology, host.copy_to_device_fixed_ns());
  if (copy.kind() == Memcpy::DTOH) add_fixed_cost(work, topology, host.copy_to_host_fixed_ns());
  return work;
}

OpWork memset_work(const Memset& memset, const Topology& topology, const platform::HostSpec& host) {
  OpWork work;
  work.setup_s = host.memset_fixed_ns() * 1e-9;
  add_transfer(work, topology.gpu_sm(memset.device_id()), topology.gpu_memory(memset.device_id()),
               memset.bytes());
  return work;
}

}  // namespace warpsim::replay
