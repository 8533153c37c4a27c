#include "op_work.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace warpsim::replay {
namespace {

void add_transfer(OpWork& work, std::size_t from, std::size_t to, std::uint64_t bytes, bool remote = false) {
  if (bytes > 0) work.transfers.push_back({from, to, bytes, remote});
}

bool has_remote_and_local(const OpWork& work) {
  const auto remote = [](const Transfer& t) { return t.remote; };
  const bool any_remote = std::any_of(work.transfers.begin(), work.transfers.end(), remote);
  const bool any_local = work.sm_time_s > 0 || !std::all_of(work.transfers.begin(), work.transfers.end(), remote);
  return any_remote && any_local;
}

double route_gb_per_s(const Topology& topology, std::size_t from, std::size_t to) {
  double slowest = std::numeric_limits<double>::infinity();
  for (const Hop& hop : topology.route(from, to)) {
    slowest = std::min(slowest, topology.links()[hop.link].bandwidth_gb_per_s);
  }
  return slowest;
}

// Work of a GPU's own engine (memset, copy within the GPU or to a peer) on its route, which kernels share. The
// engine was measured at `engine_gb_per_s`, faster or slower than the route's rate: it is charged the bytes that take
// the route as long, so it lasts bytes / engine_gb_per_s alone and takes its share of the route beside kernels.
// 0: unmeasured, `bytes` as they are.
void add_engine_transfer(OpWork& work, const Topology& topology, std::size_t from, std::size_t to, std::uint64_t bytes,
                         double engine_gb_per_s) {
  double charged = static_cast<double>(bytes);
  if (engine_gb_per_s > 0) charged *= route_gb_per_s(topology, from, to) / engine_gb_per_s;
  add_transfer(work, from, to, static_cast<std::uint64_t>(std::llround(charged)));
}

// A host-to-GPU copy: from pinned memory on the pinned route; from pageable memory, the first chunk (which the driver
// staged before the DMA began) on the pinned route too, the rest through the staging buffer.
void add_copy_to_device(OpWork& work, const Topology& topology, const Memcpy& copy, std::uint32_t gpu,
                        const platform::HostSpec& host) {
  std::uint64_t direct = copy.bytes();
  if (copy.src_memory() == MEMORY_KIND_PAGEABLE) direct = std::min(direct, host.pageable_first_chunk_to_device_bytes());
  add_transfer(work, topology.host(), topology.gpu_memory(gpu), direct);
  add_transfer(work, topology.host_pageable(), topology.gpu_memory(gpu), copy.bytes() - direct);
}

void add_copy_to_host(OpWork& work, const Topology& topology, const Memcpy& copy, std::uint32_t gpu,
                      const platform::HostSpec& host) {
  std::uint64_t direct = copy.bytes();
  if (copy.dst_memory() == MEMORY_KIND_PAGEABLE) direct = std::min(direct, host.pageable_first_chunk_to_host_bytes());
  add_transfer(work, topology.gpu_memory(gpu), topology.host(), direct);
  add_transfer(work, topology.gpu_memory(gpu), topology.host_pageable_destination(), copy.bytes() - direct);
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

std::vector<std::pair<std::size_t, std::size_t>> transfer_routes(const std::vector<OpWork>& work) {
  std::vector<std::pair<std::size_t, std::size_t>> routes;
  for (const OpWork& op : work) {
    for (const Transfer& transfer : op.transfers) routes.emplace_back(transfer.from, transfer.to);
  }
  std::sort(routes.begin(), routes.end());
  routes.erase(std::unique(routes.begin(), routes.end()), routes.end());
  return routes;
}

OpWork kernel_op_work(const models::KernelPrediction& prediction, const Topology& topology, std::uint32_t gpu,
                      const std::vector<std::uint32_t>& peers, double serial_share,
                      std::optional<double> local_sm_time_s) {
  OpWork work;
  work.setup_s = prediction.launch_overhead_s;
  work.sm_vertex = topology.gpu_sm(gpu);
  work.sm_time_s = prediction.sm_time_s;
  work.sms_used = prediction.sms_used == 0 ? 1 : prediction.sms_used;
  const std::size_t sm = topology.gpu_sm(gpu);
  add_transfer(work, topology.gpu_memory(gpu), sm, prediction.dram_bytes);
  add_transfer(work, topology.gpu_l2(gpu), sm, prediction.l2_bytes);
  add_transfer(work, topology.host(), sm, prediction.sysmem_bytes, true);
  add_transfer(work, sm, topology.host(), prediction.sysmem_write_bytes, true);  // stores over PCIe, the other way
  for (std::uint32_t peer : peers) {
    add_transfer(work, topology.gpu_memory(peer), sm, prediction.peer_bytes / peers.size(), true);
  }
  if (!has_remote_and_local(work)) return work;
  work.serial_share = std::clamp(serial_share, 0.0, 1.0);
  if (local_sm_time_s) work.local_sm_time_s = std::min(*local_sm_time_s, work.sm_time_s);
  return work;
}

OpWork memcpy_work(const Memcpy& copy, const Topology& topology, const platform::Platform& platform) {
  OpWork work;
  const platform::HostSpec& host = platform.node.host();
  const std::uint64_t bytes = copy.bytes();
  const std::uint32_t src = copy.has_src_device_id() ? copy.src_device_id() : copy.device_id();
  const std::uint32_t dst = copy.has_dst_device_id() ? copy.dst_device_id() : copy.device_id();
  switch (copy.kind()) {
    case Memcpy::HTOD:
      add_copy_to_device(work, topology, copy, dst, host);
      add_fixed_cost(work, topology, host.copy_to_device_fixed_ns());
      break;
    case Memcpy::DTOH:
      add_copy_to_host(work, topology, copy, src, host);
      add_fixed_cost(work, topology, host.copy_to_host_fixed_ns());
      break;
    case Memcpy::HTOH: add_transfer(work, topology.host_pageable(), topology.host(), bytes); break;
    case Memcpy::DTOD:
    case Memcpy::PTOP:
      if (src == dst) {
        // Reads and writes: twice the bytes, at twice the measured copy rate.
        add_engine_transfer(work, topology, topology.gpu_memory(src), topology.gpu_sm(src), 2 * bytes,
                            2 * platform.gpus.at(src).memory().device_copy_bandwidth_gb_per_s());
        work.setup_s = host.device_copy_fixed_ns() * 1e-9;
      } else {
        // The source GPU's copy engine, over the route between the two memories.
        add_engine_transfer(work, topology, topology.gpu_memory(src), topology.gpu_memory(dst), bytes,
                            platform.gpus.at(src).memory().peer_copy_bandwidth_gb_per_s());
        add_fixed_cost(work, topology, host.peer_copy_fixed_ns());
      }
      break;
    default: break;
  }
  return work;
}

OpWork memset_work(const Memset& memset, const Topology& topology, const platform::Platform& platform) {
  OpWork work;
  const std::uint32_t gpu = memset.device_id();
  work.setup_s = platform.node.host().memset_fixed_ns() * 1e-9;
  add_engine_transfer(work, topology, topology.gpu_memory(gpu), topology.gpu_sm(gpu), memset.bytes(),
                      platform.gpus.at(gpu).memory().memset_bandwidth_gb_per_s());
  return work;
}

}  // namespace warpsim::replay
