#include "topology.h"

#include <fmt/format.h>

#include <functional>
#include <limits>
#include <map>
#include <queue>
#include <stdexcept>
#include <utility>

namespace warpsim::replay {

std::size_t Topology::add_vertex(std::string name, VertexKind kind, int gpu) {
  vertices_.push_back({std::move(name), kind, gpu});
  links_at_.emplace_back();
  routes_.clear();
  return vertices_.size() - 1;
}

void Topology::add_link(TopologyLink link) {
  links_at_.at(link.a).push_back(links_.size());
  links_at_.at(link.b).push_back(links_.size());
  links_.push_back(std::move(link));
  routes_.clear();
}

void Topology::add_gpu(std::uint32_t gpu, const platform::GpuSpec& spec) {
  const int id = static_cast<int>(gpu);
  const std::string prefix = fmt::format("gpu{}", gpu);
  GpuVertices v;
  v.memory = add_vertex(prefix + ".memory", VertexKind::kGpuMemory, id);
  v.sm = add_vertex(prefix + ".sm", VertexKind::kGpuSm, id);
  v.l2 = add_vertex(prefix + ".l2", VertexKind::kGpuL2, id);
  vertices_[v.sm].cores = static_cast<int>(spec.sm_count());
  const auto& memory = spec.memory();
  // DRAM reads and writes share one bus: a shared link at the bandwidth a streaming kernel reaches.
  add_link({prefix + ".dram", v.memory, v.sm, memory.dram_bandwidth_gb_per_s() * memory.dram_efficiency(), 0,
            LinkSharing::kShared});
  add_link({prefix + ".l2", v.l2, v.sm, memory.l2_bandwidth_gb_per_s(), 0, LinkSharing::kShared});
  if (gpu_vertices_.size() <= gpu) gpu_vertices_.resize(gpu + 1);
  gpu_vertices_[gpu] = v;
}

void Topology::add_host(const platform::HostSpec& host) {
  host_ = add_vertex("host", VertexKind::kHost);
  host_pageable_ = add_vertex("host.pageable", VertexKind::kHostPageable);
  host_pageable_destination_ = add_vertex("host.pageable.in", VertexKind::kHostPageable);
  // Pageable copies are staged by the driver through a pinned buffer: that staging caps them, at a rate of its own
  // in each direction where the node has one.
  auto rate = [&host](double direction) { return direction > 0 ? direction : host.pageable_copy_bandwidth_gb_per_s(); };
  add_link({"host.staging", host_pageable_, host_, rate(host.pageable_copy_to_device_gb_per_s()), 0,
            LinkSharing::kShared});
  add_link({"host.staging.in", host_, host_pageable_destination_, rate(host.pageable_copy_to_host_gb_per_s()), 0,
            LinkSharing::kShared});
}

void Topology::add_pcie(const platform::NodeSpec& node) {
  std::map<std::string, std::size_t> switches;
  for (const auto& sw : node.pcie_switches()) switches[sw.name()] = add_vertex("pcie." + sw.name(), VertexKind::kSwitch);
  auto attach_point = [&](const std::string& name) { return name.empty() ? host_ : switches.at(name); };
  for (const auto& sw : node.pcie_switches()) {
    add_link({"pcie." + sw.name() + ".uplink", switches.at(sw.name()), attach_point(sw.parent()),
              platform::pcie_bandwidth_gb_per_s(sw.uplink()), sw.uplink().latency_ns(), LinkSharing::kFullDuplex});
  }
  for (const auto& gpu : node.gpus()) {
    add_link({fmt::format("gpu{}.pcie", gpu.id()), gpu_memory(gpu.id()), attach_point(gpu.attach()),
              platform::pcie_bandwidth_gb_per_s(gpu.pcie()), gpu.pcie().latency_ns(), LinkSharing::kFullDuplex});
  }
}

void Topology::add_nvlinks(const platform::NodeSpec& node) {
  for (const auto& nv : node.nvlinks()) {
    add_link({fmt::format("nvlink.{}-{}", nv.gpu_a(), nv.gpu_b()), gpu_memory(nv.gpu_a()), gpu_memory(nv.gpu_b()),
              nv.link_count() * nv.per_link_bandwidth_gb_per_s(), nv.latency_ns(), LinkSharing::kFullDuplex});
  }
  const auto& fabric = node.nvswitch();
  if (fabric.gpus_size() == 0 || fabric.links_per_gpu() == 0) return;
  const std::size_t sw = add_vertex("nvswitch", VertexKind::kSwitch);
  for (std::uint32_t gpu : fabric.gpus()) {
    // Half the switch latency on each port, so a GPU-to-GPU route through the switch pays it once.
    add_link({fmt::format("nvswitch.port{}", gpu), gpu_memory(gpu), sw,
              fabric.links_per_gpu() * fabric.per_link_bandwidth_gb_per_s(), fabric.latency_ns() / 2,
              LinkSharing::kFullDuplex});
  }
}

Topology Topology::from_platform(const platform::Platform& platform) {
  Topology topology;
  topology.add_host(platform.node.host());
  for (std::uint32_t gpu = 0; gpu < platform.gpus.size(); ++gpu) topology.add_gpu(gpu, platform.gpus[gpu]);
  topology.add_pcie(platform.node);
  topology.add_nvlinks(platform.node);
  return topology;
}

bool Topology::may_pass_through(std::size_t vertex, std::size_t from, std::size_t to) const {
  const TopologyVertex& v = vertices_[vertex];
  if (v.kind == VertexKind::kSwitch || v.kind == VertexKind::kHost) return true;
  // A GPU's memory vertex is where its SMs and L2 meet the outside: routes to or from them pass it.
  return v.kind == VertexKind::kGpuMemory && (v.gpu == vertices_[from].gpu || v.gpu == vertices_[to].gpu);
}

std::vector<Hop> Topology::route(std::size_t from, std::size_t to) const {
  auto hops = find_route(from, to);
  if (!hops) throw std::runtime_error(fmt::format("no route from {} to {}", vertices_[from].name, vertices_[to].name));
  return *hops;
}

std::optional<std::vector<Hop>> Topology::find_route(std::size_t from, std::size_t to) const {
  return routes_.find(from, to, [&] { return search_route(from, to); });
}

std::optional<std::vector<Hop>> Topology::search_route(std::size_t from, std::size_t to) const {
  // Dijkstra on (seconds per byte, hops): the path a transfer of many bytes finishes first on, unloaded.
  using Cost = std::pair<double, std::size_t>;
  const Cost infinite{std::numeric_limits<double>::infinity(), 0};
  std::vector<Cost> best(vertices_.size(), infinite);
  std::vector<Hop> via(vertices_.size());
  using Entry = std::pair<Cost, std::size_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  best[from] = {0.0, 0};
  queue.push({best[from], from});
  while (!queue.empty()) {
    auto [cost, vertex] = queue.top();
    queue.pop();
    if (cost > best[vertex]) continue;
    if (vertex == to) break;
    if (vertex != from && !may_pass_through(vertex, from, to)) continue;
    for (std::size_t l : links_at_[vertex]) {
      const TopologyLink& link = links_[l];
      const bool a_to_b = link.a == vertex;
      const std::size_t next = a_to_b ? link.b : link.a;
      const Cost candidate{cost.first + 1.0 / link.bandwidth_gb_per_s, cost.second + 1};
      if (candidate < best[next]) {
        best[next] = candidate;
        via[next] = {l, a_to_b};
        queue.push({candidate, next});
      }
    }
  }
  if (best[to] == infinite) return std::nullopt;
  std::vector<Hop> hops;
  for (std::size_t v = to; v != from;) {
    const Hop hop = via[v];
    hops.insert(hops.begin(), hop);
    v = hop.a_to_b ? links_[hop.link].a : links_[hop.link].b;
  }
  return hops;
}

}  // namespace warpsim::replay
