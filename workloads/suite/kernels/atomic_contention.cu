// atomic_contention: global-memory atomicAdd under three degrees of contention (plus a warp-aggregated variant),
// the classic atomic-throughput microbenchmark (as in histogramming with few vs many bins, CUDA Programming Guide
// "Atomic Functions"). Every thread adds a small integer to one counter picked by a hash of its index, 2^24 threads
// per launch except where noted:
//   atomic_one_address     - all threads hit counter 0 (full contention: every add serialises on one address);
//                            2^22 threads only, since it runs at ~1.4 adds/ns on H100 (2^24 adds took 12 ms)
//   atomic_64_addresses    - 64 adjacent counters (256 bytes, two 128-byte lines: heavy contention, few L2 slices)
//   atomic_65536_addresses - 65536 counters (256 KiB, spread over all L2 slices; a warp's 32 adds hit ~32 lines)
//   atomic_one_address_warp_aggregated - counter 0 written as a constant index: the compiler itself reduces each
//                            warp's adds (REDUX.SUM) and issues one RED per warp, 32x fewer atomics than the first
// The first three kernels are the same code with the counter mask as a run-time argument, so that each thread
// issues its own RED and nothing is merged at compile time.
//
// GPU behaviour exercised: REDG.E.ADD processing in the L2 atomic units: same-address serialisation, a warp's
// request split into one transaction per distinct line, and the spread across L2 slices; plus the compiler's warp
// aggregation. The adds are unsigned integers (result unused: RED, not ATOM) with per-thread values, so the sums
// are exact. One thread per add: 65536 blocks of 256 threads, 8-10 registers, full occupancy. Each launch's
// counters are zeroed with cudaMemset (untimed) before it. Measured on one H100 SXM (CUDA events): 2^24 adds to one
// address 12.3 ms (so this kernel runs 2^22: ~3 ms), to 64 addresses 4.85 ms, to 65536 addresses 0.24 ms,
// warp-aggregated 0.39 ms.
//
// Usage: ws_atomic_contention [--log2-adds L (10..26)] [--repeat R]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "atomic_contention";
constexpr int kThreads = 256;
constexpr unsigned kMaskOne = 0u;        // 1 counter
constexpr unsigned kMask64 = 63u;        // 64 counters
constexpr unsigned kMask65536 = 65535u;  // 65536 counters

using ws::DeviceBuffer;

/// The value thread i adds: 1..16, so that no two neighbouring adds are alike and the sums stay far below 2^32.
__host__ __device__ inline unsigned add_value(unsigned i) { return (i & 15u) + 1u; }

// ---------------------------------------------------------------------------------------------------------------
// Kernels. The first three share one body with the counter mask passed at run time: the compiler cannot see that
// the one-address kernel's address is uniform, so every thread issues its own RED (no warp aggregation) and the
// three differ only in where the adds land. The fourth hard-codes counter 0: nvcc then aggregates each warp's adds
// itself (REDUX.SUM, one RED per warp), the code a plain `atomicAdd(&total, v)` gets.

__device__ __forceinline__ void add_to_counter(unsigned* __restrict__ counters, unsigned mask, unsigned adds) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < adds) atomicAdd(&counters[ws::lowbias32(i) & mask], add_value(i));
}

__global__ void atomic_one_address(unsigned* __restrict__ counters, unsigned mask, unsigned adds) {
  add_to_counter(counters, mask, adds);
}

__global__ void atomic_64_addresses(unsigned* __restrict__ counters, unsigned mask, unsigned adds) {
  add_to_counter(counters, mask, adds);
}

__global__ void atomic_65536_addresses(unsigned* __restrict__ counters, unsigned mask, unsigned adds) {
  add_to_counter(counters, mask, adds);
}

/// Full contention with a compile-time uniform address (mask unused, kept for a common signature).
__global__ void atomic_one_address_warp_aggregated(unsigned* __restrict__ counters, unsigned /*mask*/,
                                                   unsigned adds) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < adds) atomicAdd(&counters[0], add_value(i));
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

using Kernel = void (*)(unsigned*, unsigned, unsigned);

/// Compares one kernel's counters with the CPU's; returns "" or a description of the first mismatch.
std::string compare(const char* name, const std::vector<unsigned>& got, const std::vector<unsigned>& want) {
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (got[i] != want[i]) {
      char text[160];
      std::snprintf(text, sizeof text, "%s counter[%zu]=%u want %u", name, i, got[i], want[i]);
      return text;
    }
  }
  return "";
}

int usage(const char* message) {
  std::fprintf(stderr, "ws_atomic_contention: %s\nusage: ws_atomic_contention [--log2-adds L (10..26)] [--repeat R]\n",
               message);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long log2_adds = ws::arg_long(argc, argv, "log2-adds", 24);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 3);
  if (log2_adds < 10 || log2_adds > 26) return usage("--log2-adds out of range");
  if (repeat_arg < 1 || repeat_arg > 10) return usage("--repeat must be 1..10");
  const unsigned adds = 1u << log2_adds;  // at most 2^26 * 16 in one counter: below 2^32
  const int repeat = static_cast<int>(repeat_arg);

  struct Variant {
    const char* name;
    Kernel kernel;
    unsigned mask;
    unsigned adds;
  };
  constexpr int kVariants = 4;
  const Variant variants[kVariants] = {{"atomic_one_address", atomic_one_address, kMaskOne, adds / 4u},
                                       {"atomic_64_addresses", atomic_64_addresses, kMask64, adds},
                                       {"atomic_65536_addresses", atomic_65536_addresses, kMask65536, adds},
                                       {"atomic_one_address_warp_aggregated", atomic_one_address_warp_aggregated,
                                        kMaskOne, adds}};

  DeviceBuffer<unsigned> counters_one(kMaskOne + 1);
  DeviceBuffer<unsigned> counters_64(kMask64 + 1);
  DeviceBuffer<unsigned> counters_65536(kMask65536 + 1);
  DeviceBuffer<unsigned> counters_aggregated(kMaskOne + 1);
  DeviceBuffer<unsigned>* buffers[kVariants] = {&counters_one, &counters_64, &counters_65536, &counters_aggregated};

  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    for (int v = 0; v < kVariants; ++v) {
      buffers[v]->zero();  // untimed: every launch starts from zero counters
      const unsigned blocks = (variants[v].adds + kThreads - 1) / kThreads;
      timer.start();
      variants[v].kernel<<<blocks, kThreads>>>(buffers[v]->get(), variants[v].mask, variants[v].adds);
      timer.stop(variants[v].name);
    }
  }

  // CPU reference: the same adds, in any order (integer sums are exact).
  std::vector<unsigned> want[kVariants];
  for (int v = 0; v < kVariants; ++v) want[v].assign(variants[v].mask + 1u, 0u);
  for (unsigned i = 0; i < adds; ++i) {
    const unsigned h = ws::lowbias32(i);
    const unsigned value = add_value(i);
    for (int v = 0; v < kVariants; ++v) {
      if (i < variants[v].adds) want[v][h & variants[v].mask] += value;
    }
  }
  std::string failure;
  for (int v = 0; v < kVariants && failure.empty(); ++v) {
    std::vector<unsigned> got;
    buffers[v]->download(got);
    failure = compare(variants[v].name, got, want[v]);
  }
  char detail[256];
  std::snprintf(detail, sizeof detail, "adds=%u counter0=%u %s", adds, want[0][0],
                failure.empty() ? "all counters exact" : failure.c_str());
  return ws::report_check(kWorkload, failure.empty(), detail);
}
