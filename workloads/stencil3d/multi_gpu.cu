// Multi-GPU drivers. GPU g owns the slab [bounds[g], bounds[g + 1]) of the decomposed axis. Work on different GPUs
// is ordered only with events (cudaStreamWaitEvent accepts an event of another device), never with host
// synchronisation, so the GPUs run concurrently, and the trace shows the streams, events and peer copies.

#include "multi_gpu.h"

#include <chrono>
#include <cstdio>
#include <utility>

#include "cuda_raii.h"
#include "stencil_kernels.cuh"
#include "workload.h"

namespace stencil {
namespace {

constexpr int kLow = 0;   // side towards GPU g - 1
constexpr int kHigh = 1;  // side towards GPU g + 1

/// Brackets each launch with a pair of timing events and reads them only after the loop, so that timing does not
/// make the host wait for one GPU while it should be feeding the others.
class LaunchLog {
 public:
  LaunchLog(const char* workload, int gpus)
      : workload_(workload), slots_(static_cast<std::size_t>(gpus)), used_(static_cast<std::size_t>(gpus), 0) {}

  /// Creates the events ahead of the loop, so that the loop only records them.
  void reserve(int gpu, std::size_t launches) {
    std::vector<Slot>& slots = slots_[static_cast<std::size_t>(gpu)];
    slots.reserve(launches);
    while (slots.size() < launches) slots.push_back(Slot{Event(gpu, true), Event(gpu, true)});
  }

  /// Runs `launch` (one kernel launch on `stream`, current device `gpu`) between two recorded events.
  template <typename Launch>
  void timed(int gpu, cudaStream_t stream, const char* kernel, Launch&& launch) {
    const std::size_t slot = used_[static_cast<std::size_t>(gpu)]++;
    reserve(gpu, slot + 1);  // no-op unless the estimate given to reserve() was short
    const Slot& s = slots_[static_cast<std::size_t>(gpu)][slot];
    WS_CHECK(cudaEventRecord(s.begin.get(), stream));
    std::forward<Launch>(launch)();
    WS_CHECK(cudaEventRecord(s.end.get(), stream));
    records_.push_back(Record{gpu, slot, kernel});
  }

  /// Prints the `timing` lines in launch order; every GPU must have finished.
  void print() const {
    std::vector<int> index(slots_.size(), 0);
    for (const Record& r : records_) {
      ScopedDevice guard(r.gpu);
      const Slot& s = slots_[static_cast<std::size_t>(r.gpu)][r.slot];
      float ms = 0.0f;
      WS_CHECK(cudaEventElapsedTime(&ms, s.begin.get(), s.end.get()));
      std::printf("timing %s %s@gpu%d %d %.6f\n", workload_, r.kernel, r.gpu, index[static_cast<std::size_t>(r.gpu)]++,
                  static_cast<double>(ms));
    }
  }

 private:
  struct Slot {
    Event begin;
    Event end;
  };
  struct Record {
    int gpu;
    std::size_t slot;
    const char* kernel;
  };
  const char* workload_;
  std::vector<std::vector<Slot>> slots_;
  std::vector<std::size_t> used_;
  std::vector<Record> records_;
};

void wait_for(cudaStream_t stream, const Event& event) { WS_CHECK(cudaStreamWaitEvent(stream, event.get(), 0)); }
void record(const Event& event, cudaStream_t stream) { WS_CHECK(cudaEventRecord(event.get(), stream)); }

void synchronize_all(int gpus) {
  for (int g = 0; g < gpus; ++g) {
    ScopedDevice guard(g);
    WS_CHECK(cudaDeviceSynchronize());
  }
}

double elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since).count();
}

// ---------------------------------------------------------------------------------------------------------------
// Distributed version (the paper's Listing 2).

/// One GPU of the distributed version: its slab with `radius` halo planes on both sides, two fields (Jacobi
/// ping-pong), one stream for the boundary planes, one for the interior and one for communication, and per stream
/// two sets of events (this iteration's and the previous one's, as events_cur / events_prev in the paper).
struct DistributedGpu {
  DistributedGpu(const RunConfig& config, const std::vector<int>& bounds, int g)
      : device(g),
        lo(bounds[static_cast<std::size_t>(g)]),
        hi(bounds[static_cast<std::size_t>(g) + 1]),
        has_neighbour{g > 0, g + 1 < config.gpus},
        layout(slab_layout(config.dom, config.axis, lo, hi, config.radius)),
        field{DeviceBuffer(g, static_cast<std::size_t>(layout.count())),
              DeviceBuffer(g, static_cast<std::size_t>(layout.count()))},
        boundary_stream(g),
        interior_stream(g),
        comm_stream(g),
        boundary_done{Event(g, false), Event(g, false)},
        interior_done{Event(g, false), Event(g, false)},
        sent{Event(g, false), Event(g, false)},
        comm_done{Event(g, false), Event(g, false)} {}

  int device;
  int lo, hi;
  bool has_neighbour[2];
  Layout layout;
  DeviceBuffer field[2];
  DeviceBuffer send[2], recv[2];  // contiguous halo buffers, X/Y decompositions only
  Stream boundary_stream, interior_stream, comm_stream;
  Event boundary_done[2];  // boundary planes computed (and packed)
  Event interior_done[2];  // interior computed
  Event sent[2];           // this GPU's boundary planes have landed in its neighbours' memory
  Event comm_done[2];      // all communication work of the iteration on this GPU (unpacks included) is over
};

class Distributed {
 public:
  Distributed(const RunConfig& config, const std::vector<float>& initial)
      : config_(config), log_("stencil3d", config.gpus) {
    const std::vector<int> bounds = split_bounds(config.dom.n[config.axis], config.gpus);
    gpus_.reserve(static_cast<std::size_t>(config.gpus));
    for (int g = 0; g < config.gpus; ++g) gpus_.emplace_back(config, bounds, g);
    for (DistributedGpu& gpu : gpus_) setup(gpu, initial);
  }

  RunResult run() {
    synchronize_all(config_.gpus);
    const auto start = std::chrono::steady_clock::now();
    for (int t = 0; t < config_.iterations; ++t) {
      // All GPUs' compute is issued before any copy, and all copies before any unpack, so that every event a
      // stream waits on has already been recorded by the host for the iteration it stands for.
      for (DistributedGpu& gpu : gpus_) issue_compute(gpu, t);
      for (DistributedGpu& gpu : gpus_) issue_send(gpu, t);
      for (DistributedGpu& gpu : gpus_) issue_receive(gpu, t);
    }
    synchronize_all(config_.gpus);
    RunResult result{std::vector<float>(static_cast<std::size_t>(config_.dom.count())), elapsed_ms(start)};
    for (const DistributedGpu& gpu : gpus_) {
      from_layout(gpu.field[config_.iterations & 1].download(), gpu.layout, owned(gpu), config_.dom, result.field);
    }
    log_.print();
    return result;
  }

 private:
  bool packed() const { return config_.axis != 2; }  // Z planes are contiguous; X and Y planes are strided
  Box3 planes(int a, int b) const { return slab_box(config_.dom, config_.axis, a, b); }
  Box3 owned(const DistributedGpu& gpu) const { return planes(gpu.lo, gpu.hi); }
  /// The owned planes that the neighbour on `side` needs as its halo.
  Box3 sent_planes(const DistributedGpu& gpu, int side) const {
    return side == kLow ? planes(gpu.lo, gpu.lo + config_.radius) : planes(gpu.hi - config_.radius, gpu.hi);
  }
  /// The halo planes that the neighbour on `side` fills.
  Box3 halo_planes(const DistributedGpu& gpu, int side) const {
    return side == kLow ? planes(gpu.lo - config_.radius, gpu.lo) : planes(gpu.hi, gpu.hi + config_.radius);
  }
  int depth(const DistributedGpu& gpu, int side) const { return gpu.has_neighbour[side] ? config_.radius : 0; }
  /// Boundary planes computed first on `side` (clipped so that both sides never overlap on a thin slab).
  Box3 boundary_planes(const DistributedGpu& gpu, int side) const {
    if (side == kLow) return planes(gpu.lo, std::min(gpu.lo + config_.radius, gpu.hi));
    return planes(std::max(gpu.hi - config_.radius, gpu.lo + depth(gpu, kLow)), gpu.hi);
  }
  Box3 interior_planes(const DistributedGpu& gpu) const {
    return planes(gpu.lo + depth(gpu, kLow), gpu.hi - depth(gpu, kHigh));
  }
  DistributedGpu& neighbour(const DistributedGpu& gpu, int side) {
    return gpus_[static_cast<std::size_t>(side == kLow ? gpu.device - 1 : gpu.device + 1)];
  }

  void setup(DistributedGpu& gpu, const std::vector<float>& initial) {
    ScopedDevice guard(gpu.device);
    upload_coefficients(make_coefficients(config_.radius));
    const std::vector<float> local = to_layout(initial, config_.dom, gpu.layout);
    gpu.field[0].upload(local);
    gpu.field[1].upload(local);  // defined values everywhere, halo planes at the domain edge included
    std::size_t launches = interior_planes(gpu).empty() ? 0 : 1;
    for (int side : {kLow, kHigh}) {
      if (!gpu.has_neighbour[side]) continue;
      launches += packed() ? 3u : 1u;  // boundary (+ pack + unpack)
      if (packed()) {
        const auto count = static_cast<std::size_t>(halo_planes(gpu, side).count());
        gpu.send[side] = DeviceBuffer(gpu.device, count);
        gpu.recv[side] = DeviceBuffer(gpu.device, count);
      }
    }
    log_.reserve(gpu.device, launches * static_cast<std::size_t>(config_.iterations));
    // "Previous iteration" events for t = 0, already complete.
    for (int parity = 0; parity < 2; ++parity) {
      record(gpu.boundary_done[parity], gpu.boundary_stream.get());
      record(gpu.interior_done[parity], gpu.interior_stream.get());
      record(gpu.sent[parity], gpu.comm_stream.get());
      record(gpu.comm_done[parity], gpu.comm_stream.get());
    }
  }

  // 1. Boundary planes first (and pack them), then the interior on its own stream.
  void issue_compute(DistributedGpu& gpu, int t) {
    ScopedDevice guard(gpu.device);
    // Parity `cur`: this iteration's events and its input field. Parity `prev`: the last iteration's events, and
    // the output field (which was the last iteration's input).
    const int cur = t & 1, prev = cur ^ 1;
    const float* in = gpu.field[cur].get();
    float* out = gpu.field[prev].get();
    const cudaStream_t bs = gpu.boundary_stream.get();
    const cudaStream_t is = gpu.interior_stream.get();
    const int g = gpu.device;

    // Boundary planes read the halo (filled by the neighbours' copies or by this GPU's unpacks of t-1) and the
    // planes next to them (written by t-1's interior); they overwrite what t-1's copies and packs read.
    wait_for(bs, gpu.interior_done[prev]);
    wait_for(bs, gpu.comm_done[prev]);
    for (int side : {kLow, kHigh}) {
      if (gpu.has_neighbour[side]) wait_for(bs, neighbour(gpu, side).sent[prev]);
    }
    for (int side : {kLow, kHigh}) {
      if (!gpu.has_neighbour[side]) continue;
      const Box3 box = boundary_planes(gpu, side);
      if (box.empty()) continue;
      log_.timed(g, bs, "stencil_boundary",
                 [&] { launch_boundary(bs, in, out, gpu.layout, box, config_.dom, config_.radius); });
    }
    if (packed()) {
      for (int side : {kLow, kHigh}) {
        if (!gpu.has_neighbour[side]) continue;
        const Box3 box = sent_planes(gpu, side);
        float* buffer = gpu.send[side].get();
        log_.timed(g, bs, "stencil_pack_halo", [&] { launch_pack(bs, out, gpu.layout, box, buffer); });
      }
    }
    record(gpu.boundary_done[cur], bs);

    // The interior touches neither halo nor send buffers: it only needs t-1's boundary planes, so it can overlap
    // with the exchange.
    wait_for(is, gpu.boundary_done[prev]);
    const Box3 interior = interior_planes(gpu);
    if (!interior.empty()) {
      log_.timed(g, is, "stencil_interior",
                 [&] { launch_interior(is, in, out, gpu.layout, interior, config_.dom, config_.radius); });
    }
    record(gpu.interior_done[cur], is);
  }

  // 2. Push the freshly computed boundary planes into each neighbour's memory (peer copies on the comm stream).
  void issue_send(DistributedGpu& gpu, int t) {
    ScopedDevice guard(gpu.device);
    const int cur = t & 1, prev = cur ^ 1;
    const cudaStream_t cs = gpu.comm_stream.get();
    wait_for(cs, gpu.boundary_done[cur]);
    for (int side : {kLow, kHigh}) {
      if (!gpu.has_neighbour[side]) continue;
      DistributedGpu& peer = neighbour(gpu, side);
      // The destination (the peer's halo planes, or its receive buffer) was read at t-1 by the peer's boundary
      // kernels (or its unpack): wait until they are done. (The first wait is also implied by boundary_done[cur],
      // which waited for the peer's sends of t-1, but it states the hazard it guards.)
      wait_for(cs, peer.boundary_done[prev]);
      wait_for(cs, peer.comm_done[prev]);
      if (packed()) {
        const DeviceBuffer& src = gpu.send[side];
        WS_CHECK(cudaMemcpyPeerAsync(peer.recv[1 - side].get(), peer.device, src.get(), gpu.device, src.bytes(), cs));
      } else {
        // Whole Z planes are contiguous, and both sides hold them at the same global coordinates. Source and
        // destination are the output fields of iteration t (parity `prev`, as in issue_compute).
        const Box3 box = sent_planes(gpu, side);
        const long long src_at = gpu.layout.index(box.lo[0], box.lo[1], box.lo[2]);
        const long long dst_at = peer.layout.index(box.lo[0], box.lo[1], box.lo[2]);
        const auto bytes = static_cast<std::size_t>(box.count()) * sizeof(float);
        WS_CHECK(cudaMemcpyPeerAsync(peer.field[prev].get() + dst_at, peer.device, gpu.field[prev].get() + src_at,
                                     gpu.device, bytes, cs));
      }
    }
    record(gpu.sent[cur], cs);
  }

  // 3. X/Y decompositions: unpack what the neighbours sent into this GPU's halo planes.
  void issue_receive(DistributedGpu& gpu, int t) {
    ScopedDevice guard(gpu.device);
    const int cur = t & 1, prev = cur ^ 1;
    const cudaStream_t cs = gpu.comm_stream.get();
    if (packed()) {
      for (int side : {kLow, kHigh}) {
        if (!gpu.has_neighbour[side]) continue;
        wait_for(cs, neighbour(gpu, side).sent[cur]);
        const Box3 box = halo_planes(gpu, side);
        const float* buffer = gpu.recv[side].get();
        float* out = gpu.field[prev].get();  // iteration t's output: the next iteration's input
        log_.timed(gpu.device, cs, "stencil_unpack_halo", [&] { launch_unpack(cs, buffer, out, gpu.layout, box); });
      }
    }
    record(gpu.comm_done[cur], cs);
  }

  RunConfig config_;
  LaunchLog log_;
  std::vector<DistributedGpu> gpus_;
};

// ---------------------------------------------------------------------------------------------------------------
// GPU-SM version (the paper's Listings 3 and 4): one stream per GPU, no copies.

struct GpusmGpu {
  GpusmGpu(const RunConfig& config, const std::vector<int>& bounds, int g)
      : device(g),
        lo(bounds[static_cast<std::size_t>(g)]),
        hi(bounds[static_cast<std::size_t>(g) + 1]),
        layout(slab_layout(config.dom, config.axis, lo, hi, 0)),
        field{DeviceBuffer(g, static_cast<std::size_t>(layout.count())),
              DeviceBuffer(g, static_cast<std::size_t>(layout.count()))},
        stream(g),
        done{Event(g, false), Event(g, false)} {}

  int device;
  int lo, hi;
  Layout layout;  // the slab alone
  DeviceBuffer field[2];
  Stream stream;
  Event done[2];  // this GPU's kernel of an iteration (by parity) has finished
};

}  // namespace

bool enable_neighbour_peer_access(int gpus) {
  for (int g = 0; g + 1 < gpus; ++g) {
    int forward = 0, backward = 0;
    WS_CHECK(cudaDeviceCanAccessPeer(&forward, g, g + 1));
    WS_CHECK(cudaDeviceCanAccessPeer(&backward, g + 1, g));
    if (forward == 0 || backward == 0) return false;
  }
  for (int g = 0; g < gpus; ++g) {
    ScopedDevice guard(g);
    for (int peer : {g - 1, g + 1}) {
      if (peer < 0 || peer >= gpus) continue;
      const cudaError_t status = cudaDeviceEnablePeerAccess(peer, 0);
      if (status == cudaErrorPeerAccessAlreadyEnabled) {
        (void)cudaGetLastError();  // harmless; clear it so later launch checks do not see it
      } else {
        WS_CHECK(status);
      }
    }
  }
  return true;
}

RunResult run_distributed(const RunConfig& config, const std::vector<float>& initial) {
  Distributed distributed(config, initial);
  return distributed.run();
}

RunResult run_gpusm(const RunConfig& config, const std::vector<float>& initial) {
  const std::vector<int> bounds = split_bounds(config.dom.n[config.axis], config.gpus);
  LaunchLog log("stencil3d", config.gpus);
  std::vector<GpusmGpu> gpus;
  gpus.reserve(static_cast<std::size_t>(config.gpus));
  for (int g = 0; g < config.gpus; ++g) gpus.emplace_back(config, bounds, g);

  // One peer-pointer table per parity: table p lists every GPU's field[p], the input of iterations with t % 2 == p.
  PeerSlabs tables[2] = {};
  for (int p = 0; p < 2; ++p) {
    tables[p].gpus = config.gpus;
    tables[p].axis = config.axis;
    for (int g = 0; g <= config.gpus; ++g) tables[p].bound[g] = bounds[static_cast<std::size_t>(g)];
    for (int g = 0; g < config.gpus; ++g) tables[p].in[g] = gpus[static_cast<std::size_t>(g)].field[p].get();
  }
  for (GpusmGpu& gpu : gpus) {
    ScopedDevice guard(gpu.device);
    upload_coefficients(make_coefficients(config.radius));
    const std::vector<float> local = to_layout(initial, config.dom, gpu.layout);
    gpu.field[0].upload(local);
    gpu.field[1].upload(local);
    log.reserve(gpu.device, static_cast<std::size_t>(config.iterations));
    for (const Event& e : gpu.done) record(e, gpu.stream.get());
  }

  synchronize_all(config.gpus);
  const auto start = std::chrono::steady_clock::now();
  for (int t = 0; t < config.iterations; ++t) {
    const int cur = t & 1, prev = cur ^ 1;
    for (GpusmGpu& gpu : gpus) {
      ScopedDevice guard(gpu.device);
      const cudaStream_t s = gpu.stream.get();
      // The neighbours' step t-1 must be over: it wrote the planes read remotely now, and it read (remotely) the
      // field this step overwrites. This GPU's own step t-1 is ordered by the stream.
      for (int peer : {gpu.device - 1, gpu.device + 1}) {
        if (peer >= 0 && peer < config.gpus) wait_for(s, gpus[static_cast<std::size_t>(peer)].done[prev]);
      }
      float* out = gpu.field[prev].get();
      log.timed(gpu.device, s, "stencil_gpusm",
                [&] { launch_gpusm(s, tables[cur], gpu.device, out, config.dom, config.radius); });
      record(gpu.done[cur], s);
    }
  }
  synchronize_all(config.gpus);
  RunResult result{std::vector<float>(static_cast<std::size_t>(config.dom.count())), elapsed_ms(start)};
  for (const GpusmGpu& gpu : gpus) {
    from_layout(gpu.field[config.iterations & 1].download(), gpu.layout,
                slab_box(config.dom, config.axis, gpu.lo, gpu.hi), config.dom, result.field);
  }
  log.print();
  return result;
}

}  // namespace stencil
