// Copy microbenchmark for platform parameters: for each copy kind and size, the median host wall time of a
// synchronous copy (cudaMemcpy; device-to-device and peer copies followed by a device synchronize), then a least-squares fit
// time = fixed + bytes / bandwidth over the sizes of each kind. Also cudaMemset at the same sizes.
//   ws_microbench_copy [--repeat R (default 7)] [--max-mib M (default 256)] [--step K (sizes x K, default 16)]
//                      [--fresh-pageable 1]
// --fresh-pageable 1: each pageable copy uses pages as a program's do, freshly mapped, written by the CPU just before
// a copy to the device (its input) and untouched before a copy back (its result), instead of one buffer reused (which
// the CPU's caches and the page tables then hold warm).
// Recorded with `warpsim record --mode timeline`, its trace gives the same copies as the GPU sees them (CUPTI
// durations); scripts/copy-constants.py derives the node's copy and memset constants from that trace.
// Output: `copy <kind> <bytes> <median_us> <GB/s>` per size, `fit <kind> fixed_us=<x> bandwidth_gb_per_s=<y>` per kind.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <sys/mman.h>

#include "workload.h"

namespace {

struct Buffers {
  void* device = nullptr;
  void* peer = nullptr;  // on GPU 1 when there is one with peer access
  void* pinned = nullptr;
  void* pageable = nullptr;
};

// Pageable memory as a program has it: mapped just now, written by the CPU or not yet touched.
class FreshPages {
 public:
  FreshPages(std::size_t bytes, bool written) : bytes_(bytes) {
    data_ = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (data_ == MAP_FAILED) {
      std::fprintf(stderr, "mmap of %zu bytes failed\n", bytes);
      std::exit(1);
    }
    if (written) std::fill_n(static_cast<char*>(data_), bytes, 1);
  }
  FreshPages(const FreshPages&) = delete;
  FreshPages& operator=(const FreshPages&) = delete;
  ~FreshPages() { munmap(data_, bytes_); }
  void* data() const { return data_; }

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

// `prepare` runs before each copy, outside the timed region.
double median_us(const std::function<void()>& copy, int repeat, const std::function<void()>& prepare) {
  prepare();
  copy();  // warm-up: first-touch and driver staging buffers
  std::vector<double> times;
  for (int i = 0; i < repeat; ++i) {
    prepare();
    const auto start = std::chrono::steady_clock::now();
    copy();
    times.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// Least squares t = a + b * bytes; bandwidth = 1 / b.
void print_fit(const char* kind, const std::vector<double>& bytes, const std::vector<double>& us) {
  const double n = static_cast<double>(bytes.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    sx += bytes[i], sy += us[i], sxx += bytes[i] * bytes[i], sxy += bytes[i] * us[i];
  }
  const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);  // us per byte
  const double fixed = (sy - slope * sx) / n;
  std::printf("fit %s fixed_us=%.2f bandwidth_gb_per_s=%.2f\n", kind, fixed, 1e-3 / slope);
}

void measure(const char* kind, const std::vector<std::size_t>& sizes, int repeat,
             const std::function<void(std::size_t)>& copy,
             const std::function<void(std::size_t)>& prepare = [](std::size_t) {}) {
  std::vector<double> bytes, us;
  for (std::size_t size : sizes) {
    const double t = median_us([&] { copy(size); }, repeat, [&] { prepare(size); });
    std::printf("copy %s %zu %.2f %.2f\n", kind, size, t, static_cast<double>(size) / t * 1e-3);
    bytes.push_back(static_cast<double>(size));
    us.push_back(t);
  }
  print_fit(kind, bytes, us);
}

bool enable_peer() {
  int count = 0, can = 0;
  WS_CHECK(cudaGetDeviceCount(&count));
  if (count < 2) return false;
  WS_CHECK(cudaDeviceCanAccessPeer(&can, 0, 1));
  if (!can) return false;
  WS_CHECK(cudaSetDevice(0));
  WS_CHECK(cudaDeviceEnablePeerAccess(1, 0));
  WS_CHECK(cudaSetDevice(1));
  WS_CHECK(cudaDeviceEnablePeerAccess(0, 0));
  WS_CHECK(cudaSetDevice(0));
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const int repeat = static_cast<int>(ws::arg_long(argc, argv, "repeat", 7));
  const std::size_t max_bytes = static_cast<std::size_t>(ws::arg_long(argc, argv, "max-mib", 256)) << 20;
  const std::size_t step = static_cast<std::size_t>(std::max(2L, ws::arg_long(argc, argv, "step", 16)));
  std::vector<std::size_t> sizes;
  for (std::size_t s = 4; s <= max_bytes; s *= step) sizes.push_back(s);
  const bool peer = enable_peer();
  Buffers b;
  WS_CHECK(cudaMalloc(&b.device, 2 * max_bytes));
  WS_CHECK(cudaMallocHost(&b.pinned, max_bytes));
  b.pageable = std::malloc(max_bytes);
  std::fill_n(static_cast<char*>(b.pageable), max_bytes, 1);
  std::fill_n(static_cast<char*>(b.pinned), max_bytes, 1);
  if (peer) {
    WS_CHECK(cudaSetDevice(1));
    WS_CHECK(cudaMalloc(&b.peer, max_bytes));
    WS_CHECK(cudaSetDevice(0));
  }
  char* device = static_cast<char*>(b.device);
  measure("HtoD_pinned", sizes, repeat, [&](std::size_t n) { WS_CHECK(cudaMemcpy(device, b.pinned, n, cudaMemcpyHostToDevice)); });
  measure("DtoH_pinned", sizes, repeat, [&](std::size_t n) { WS_CHECK(cudaMemcpy(b.pinned, device, n, cudaMemcpyDeviceToHost)); });
  if (ws::arg_long(argc, argv, "fresh-pageable", 0) != 0) {
    std::unique_ptr<FreshPages> fresh;
    // Unmap the last copy's pages before mapping the next, so at most one buffer is held.
    auto map_fresh = [&](std::size_t n, bool written) {
      fresh.reset();
      fresh = std::make_unique<FreshPages>(n, written);
    };
    measure("HtoD_pageable", sizes, repeat,
            [&](std::size_t n) { WS_CHECK(cudaMemcpy(device, fresh->data(), n, cudaMemcpyHostToDevice)); },
            [&](std::size_t n) { map_fresh(n, true); });
    measure("DtoH_pageable", sizes, repeat,
            [&](std::size_t n) { WS_CHECK(cudaMemcpy(fresh->data(), device, n, cudaMemcpyDeviceToHost)); },
            [&](std::size_t n) { map_fresh(n, false); });
  } else {
    measure("HtoD_pageable", sizes, repeat, [&](std::size_t n) { WS_CHECK(cudaMemcpy(device, b.pageable, n, cudaMemcpyHostToDevice)); });
    measure("DtoH_pageable", sizes, repeat, [&](std::size_t n) { WS_CHECK(cudaMemcpy(b.pageable, device, n, cudaMemcpyDeviceToHost)); });
  }
  // Device-to-device and peer copies may return before they finish: synchronize inside the timed region.
  measure("DtoD", sizes, repeat, [&](std::size_t n) {
    WS_CHECK(cudaMemcpy(device + max_bytes, device, n, cudaMemcpyDeviceToDevice));
    WS_CHECK(cudaDeviceSynchronize());
  });
  measure("memset", sizes, repeat, [&](std::size_t n) {  // cudaMemset on device memory may return early too
    WS_CHECK(cudaMemset(device, 0, n));
    WS_CHECK(cudaDeviceSynchronize());
  });
  if (peer) {
    measure("PtoP_0to1", sizes, repeat, [&](std::size_t n) {
      WS_CHECK(cudaMemcpyPeer(b.peer, 1, device, 0, n));
      WS_CHECK(cudaDeviceSynchronize());
    });
    measure("PtoP_1to0", sizes, repeat, [&](std::size_t n) {
      WS_CHECK(cudaMemcpyPeer(device, 0, b.peer, 1, n));
      WS_CHECK(cudaDeviceSynchronize());
    });
  }
  std::printf("check microbench_copy PASS peer=%d\n", peer ? 1 : 0);
  return 0;
}
