#pragma once
// The node as a graph: what the replay builds in SimGrid, kept free of SimGrid so routes can be tested alone.
//
//   host.pageable --staging-- host (memory + root complex) --pcie-- [switch --pcie--] gpuN.memory --dram-- gpuN.sm
//                                                                                    gpuN.l2 --------l2-- gpuN.sm
//   gpuA.memory --nvlink-- gpuB.memory            gpuN.memory --nvswitch port-- nvswitch
//
// Vertices that are SimGrid hosts (activities start and end there): host, host.pageable, gpuN.sm, gpuN.memory,
// gpuN.l2. Switches are only points routes pass through. DRAM, L2 and the pageable staging buffer are shared by both
// directions; PCIe and NVLink are full duplex.
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "platform.h"

namespace warpsim::replay {

enum class VertexKind { kHost, kHostPageable, kSwitch, kGpuMemory, kGpuSm, kGpuL2 };
enum class LinkSharing { kShared, kFullDuplex };

struct TopologyVertex {
  std::string name;
  VertexKind kind;
  int gpu = -1;    // the node GPU a GPU vertex belongs to
  int cores = 1;   // SM vertices: one core per SM, so kernels on few SMs run side by side
  bool is_simgrid_host() const { return kind != VertexKind::kSwitch; }
};

struct TopologyLink {
  std::string name;
  std::size_t a = 0, b = 0;  // vertex indices
  double bandwidth_gb_per_s = 0;  // per direction for full-duplex links
  double latency_ns = 0;
  LinkSharing sharing = LinkSharing::kShared;
};

struct Hop {
  std::size_t link = 0;
  bool a_to_b = true;  // the direction a full-duplex link is used in
};

/// Routes searched so far, safe to consult from two threads (the replay's reading thread prepares copies while the
/// SimGrid thread builds the node). A copy starts empty: it is only a cache.
class RouteCache {
 public:
  using Route = std::optional<std::vector<Hop>>;
  RouteCache() = default;
  RouteCache(const RouteCache&) {}
  RouteCache& operator=(const RouteCache&) { return *this; }
  /// The route cached for (from, to), else `search()`'s, cached.
  template <typename Search>
  Route find(std::size_t from, std::size_t to, Search search) {
    const std::lock_guard lock(mutex_);
    const auto [cached, added] = routes_.try_emplace({from, to});
    if (added) cached->second = search();
    return cached->second;
  }
  /// Forgets every route (the topology changed).
  void clear() {
    const std::lock_guard lock(mutex_);
    routes_.clear();
  }

 private:
  std::mutex mutex_;
  std::map<std::pair<std::size_t, std::size_t>, Route> routes_;
};

class Topology {
 public:
  static Topology from_platform(const platform::Platform& platform);

  std::size_t host() const { return host_; }
  /// Pageable host memory as the source of a copy (staged to the device) and as its destination (staged back).
  std::size_t host_pageable() const { return host_pageable_; }
  std::size_t host_pageable_destination() const { return host_pageable_destination_; }
  std::size_t gpu_memory(std::uint32_t gpu) const { return gpu_vertices_.at(gpu).memory; }
  std::size_t gpu_sm(std::uint32_t gpu) const { return gpu_vertices_.at(gpu).sm; }
  std::size_t gpu_l2(std::uint32_t gpu) const { return gpu_vertices_.at(gpu).l2; }
  std::uint32_t gpu_count() const { return static_cast<std::uint32_t>(gpu_vertices_.size()); }

  const std::vector<TopologyVertex>& vertices() const { return vertices_; }
  const std::vector<TopologyLink>& links() const { return links_; }

  /// The fastest path (least time per byte; fewest hops on ties) from one vertex to another, passing only through
  /// switches, the host's root complex, and the memory of the two ends' own GPUs (GPUs do not forward traffic).
  /// Throws std::runtime_error when there is none.
  std::vector<Hop> route(std::size_t from, std::size_t to) const;
  /// The same, or nothing when there is no path (e.g. between two GPUs' L2 caches).
  std::optional<std::vector<Hop>> find_route(std::size_t from, std::size_t to) const;

  // Building (from_platform and tests).
  std::size_t add_vertex(std::string name, VertexKind kind, int gpu = -1);
  void add_link(TopologyLink link);
  void add_gpu(std::uint32_t gpu, const platform::GpuSpec& spec);

 private:
  struct GpuVertices {
    std::size_t memory = 0, sm = 0, l2 = 0;
  };
  bool may_pass_through(std::size_t vertex, std::size_t from, std::size_t to) const;
  std::optional<std::vector<Hop>> search_route(std::size_t from, std::size_t to) const;
  void add_host(const platform::HostSpec& host);
  void add_pcie(const platform::NodeSpec& node);
  void add_nvlinks(const platform::NodeSpec& node);

  std::vector<TopologyVertex> vertices_;
  std::vector<TopologyLink> links_;
  std::vector<std::vector<std::size_t>> links_at_;  // per vertex: its links
  std::vector<GpuVertices> gpu_vertices_;
  std::size_t host_ = 0, host_pageable_ = 0, host_pageable_destination_ = 0;
  // Routes searched so far: every copy's and kernel's work asks for its routes, twice in a simulation, and a search
  // on a 1,000-GPU node visits thousands of vertices.
  mutable RouteCache routes_;
};

}  // namespace warpsim::replay
