// Atomic throughput: global atomicAdd (int, at L2) from a full GPU over address patterns from one address to 2^20
// random lines, and shared-memory atomicAdd per SM over 1 address, 32 banks and 256 random bins (a microbenchmark for
// the platform files: the predictive rule allows platform numbers from these, never from the validation workloads'
// times).
//   ws_microbench_atomics [--clock-mhz F (default: the device's max clock)] [--repeat R (default 5)]
// Four blocks of 512 threads per SM (64 warps, a full SM), every thread issuing a fixed number of adds. The adds are
// inline PTX with a value the compiler cannot see:
//   red  = red.global.add.u32 (the old value unused: SASS REDG), the form of histograms and counters;
//   atom = atom.global.add.u32 with every old value consumed (SASS ATOMG), the form of slot allocation.
// ptxas folds a warp's adds to an address it can prove uniform into one add by one lane (VOTEU.ANY, POPC, then one
// predicated REDG/ATOMG/ATOMS), even from inline PTX. The `_uniform` patterns measure that code; every other pattern
// offsets its addresses by (thread & a runtime zero), so all 32 lanes really issue their adds.
// Global patterns, thread t's i-th add goes to:
//   same_address   one word (32 lanes to it);           same_address_uniform  one word, folded per warp (above);
//   same_line      word (lane) of one 128-byte line;    lines_64  line (t + i) mod 64, one word each;
//   lines_4096     line (t + i) mod 4096;               random_lines  a pseudo-random line of 2^20 (128 MiB, larger
//   than L2: most adds also wait on DRAM).
// Shared patterns (each block its own 256-word array; red.shared.add.u32, SASS ATOMS.ADD without a result):
//   same_address, same_address_uniform  as above;  distinct_banks  word (lane): 32 banks, no conflict;
//   random_bins     one of 256 bins chosen per thread and add by a hash (the histogram case: bank conflicts and
//                   same-bin lanes as random data gives them);
//   random_bins_inc the same bins through CUDA's atomicAdd(&bin, 1u), which nvcc compiles to ATOMS.POPC.INC (the
//                   idiomatic histogram).
// Output, the median of R runs, time by CUDA events, cycles at --clock-mhz:
//   atomics global <pattern>.<red|atom> <addresses> <G atomics/s> <atomics per cycle, whole GPU>
//   atomics shared <pattern> <addresses> <atomics per cycle per SM>
// Check: the counters' sum equals the adds issued, and exactly <addresses> words were touched.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "microbench.h"
#include "workload.h"

namespace {

constexpr int kThreads = 512;
constexpr int kBlocksPerSm = 4;
constexpr int kGlobalAdds = 256;     // per thread and run
constexpr int kSharedAdds = 4096;    // per thread and run
constexpr unsigned kLineWords = 32;  // 128-byte lines of 4-byte counters
constexpr unsigned kRandomLines = 1u << 20;
constexpr unsigned kBins = 256;

enum GlobalPattern { kSameAddress, kSameLine, kLines64, kLines4096, kRandomLinesPattern, kSameAddressUniform };
enum SharedPattern { kSharedSame, kSharedBanks, kSharedRandom, kSharedRandomInc, kSharedSameUniform };

__device__ inline void red_global(unsigned* p, unsigned v) {
  asm volatile("red.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ inline unsigned atom_global(unsigned* p, unsigned v) {
  unsigned old;
  asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}
__device__ inline void red_shared(unsigned address, unsigned v) {  // a shared-window address
  asm volatile("red.shared.add.u32 [%0], %1;" ::"r"(address), "r"(v) : "memory");
}

// The counter word thread `tid` adds to on its i-th add (the same function serves the host's check).
template <int kPattern>
__host__ __device__ inline unsigned global_word(unsigned tid, unsigned i, unsigned& state) {
  switch (kPattern) {
    case kSameAddress:
    case kSameAddressUniform: return 0;
    case kSameLine: return tid % 32;
    case kLines64: return (tid + i) % 64 * kLineWords;
    case kLines4096: return (tid + i) % 4096 * kLineWords;
    default:
      state = state * 1664525u + 1013904223u;  // LCG from a hashed seed: the top 20 bits pick the line
      return (state >> 12) * kLineWords;
  }
}

// `zero` is 0 at run time: offsetting by (tid & zero) hides from ptxas that an address is the same for all lanes.
template <int kPattern, bool kAtom>
__global__ void __launch_bounds__(kThreads, kBlocksPerSm)
    global_atomics(unsigned* counters, unsigned add, unsigned zero, unsigned* sink) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned* base = kPattern == kSameAddressUniform ? counters : counters + (tid & zero);
  unsigned state = ws::lowbias32(tid);
  unsigned olds = 0;
#pragma unroll 8
  for (int i = 0; i < kGlobalAdds; ++i) {
    unsigned* p = base + global_word<kPattern>(tid, static_cast<unsigned>(i), state);
    if (kAtom) {
      olds += atom_global(p, add);
    } else {
      red_global(p, add);
    }
  }
  if (kAtom && olds == 0xffffffffu) sink[tid % 1024] = olds;  // consumes every old value
}

// Thread `tid`'s bin for its j-th add of every 16 (16 bins per thread, reused: a hash of the thread and j).
__host__ __device__ inline unsigned random_bin(unsigned tid, unsigned j) {
  return ws::lowbias32(tid * 16 + j + 1) % kBins;
}

template <int kPattern>
__global__ void __launch_bounds__(kThreads, kBlocksPerSm)
    shared_atomics(unsigned long long* totals, unsigned add, unsigned zero) {
  __shared__ unsigned bins[kBins];
  for (unsigned i = threadIdx.x; i < kBins; i += blockDim.x) bins[i] = 0;
  __syncthreads();
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (kPattern == kSharedRandomInc) {
    unsigned* mine[16];  // this thread's 16 bins, before the loop
#pragma unroll
    for (unsigned j = 0; j < 16; ++j) mine[j] = &bins[random_bin(tid, j)];
#pragma unroll 1
    for (int i = 0; i < kSharedAdds; i += 16) {
#pragma unroll
      for (int j = 0; j < 16; ++j) atomicAdd(mine[j], 1u);
    }
  } else {
    unsigned mine[16];  // this thread's 16 targets (shared addresses), before the loop: no arithmetic inside it
    const unsigned hide = kPattern == kSharedSameUniform ? 0 : (threadIdx.x & zero) * 4;
#pragma unroll
    for (unsigned j = 0; j < 16; ++j) {
      const unsigned bin = kPattern == kSharedSame || kPattern == kSharedSameUniform ? 0
                           : kPattern == kSharedBanks                                ? threadIdx.x % 32
                                                                                     : random_bin(tid, j);
      mine[j] = static_cast<unsigned>(__cvta_generic_to_shared(&bins[bin])) + hide;
    }
#pragma unroll 1
    for (int i = 0; i < kSharedAdds; i += 16) {
#pragma unroll
      for (int j = 0; j < 16; ++j) red_shared(mine[j], add);
    }
  }
  __syncthreads();
  for (unsigned i = threadIdx.x; i < kBins; i += blockDim.x) {
    if (bins[i] != 0) atomicAdd(&totals[i], static_cast<unsigned long long>(bins[i]));
  }
}

// Sum and number of non-zero words of a device array of counters.
template <typename T>
void tally(const T* dev, size_t words, unsigned long long& sum, unsigned long long& touched) {
  std::vector<T> host(words);
  WS_CHECK(cudaMemcpy(host.data(), dev, words * sizeof(T), cudaMemcpyDeviceToHost));
  sum = 0;
  touched = 0;
  for (T v : host) {
    sum += v;
    touched += v != 0;
  }
}

struct Context {
  int sms;
  int blocks;
  double clock_mhz;
  int repeat;
  unsigned* counters;          // kRandomLines lines
  unsigned long long* totals;  // kBins
  unsigned* sink;
  bool ok = true;
  std::string detail;
};

template <int kPattern, bool kAtom>
void run_global(Context& c, const char* label, unsigned addresses) {
  const size_t words = size_t{kRandomLines} * kLineWords;
  WS_CHECK(cudaMemset(c.counters, 0, words * sizeof(unsigned)));
  const float ms = ws::median_launch_ms(
      [&] { global_atomics<kPattern, kAtom><<<c.blocks, kThreads>>>(c.counters, 1, 0, c.sink); }, c.repeat);
  const double adds = static_cast<double>(c.blocks) * kThreads * kGlobalAdds;
  const double per_s = adds / (ms * 1e-3);
  const std::string name = std::string(label) + (kAtom ? ".atom" : ".red");
  std::printf("atomics global %s %u %.2f %.1f\n", name.c_str(), addresses, per_s * 1e-9, per_s / (c.clock_mhz * 1e6));
  unsigned long long sum = 0, touched = 0;
  tally(c.counters, words, sum, touched);
  const unsigned long long want = static_cast<unsigned long long>(adds) * (c.repeat + 1);
  if (sum != want || touched != addresses) {
    c.ok = false;
    c.detail += " global_" + name + "_sum_" + std::to_string(sum) + "_want_" + std::to_string(want) + "_touched_" +
                std::to_string(touched);
  }
}

template <int kPattern>
void run_shared(Context& c, const char* label, unsigned addresses) {
  WS_CHECK(cudaMemset(c.totals, 0, kBins * sizeof(unsigned long long)));
  const float ms =
      ws::median_launch_ms([&] { shared_atomics<kPattern><<<c.blocks, kThreads>>>(c.totals, 1, 0); }, c.repeat);
  const double adds = static_cast<double>(c.blocks) * kThreads * kSharedAdds;
  const double per_cycle_per_sm = adds / (ms * 1e-3) / c.sms / (c.clock_mhz * 1e6);
  std::printf("atomics shared %s %u %.2f\n", label, addresses, per_cycle_per_sm);
  unsigned long long sum = 0, touched = 0;
  tally(c.totals, kBins, sum, touched);
  const unsigned long long want = static_cast<unsigned long long>(adds) * (c.repeat + 1);
  if (sum != want || touched != addresses) {
    c.ok = false;
    c.detail += std::string(" shared_") + label + "_sum_" + std::to_string(sum) + "_want_" + std::to_string(want) +
                "_touched_" + std::to_string(touched);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const cudaDeviceProp prop = ws::device_properties();
  Context c{};
  c.clock_mhz = ws::clock_mhz_arg(argc, argv);
  c.repeat = ws::repeat_arg(argc, argv);
  c.sms = prop.multiProcessorCount;
  c.blocks = c.sms * kBlocksPerSm;
  WS_CHECK(cudaMalloc(&c.counters, size_t{kRandomLines} * kLineWords * sizeof(unsigned)));
  WS_CHECK(cudaMalloc(&c.totals, kBins * sizeof(unsigned long long)));
  WS_CHECK(cudaMalloc(&c.sink, 1024 * sizeof(unsigned)));
  std::printf("device %s sms %d clock_mhz %.0f\n", prop.name, c.sms, c.clock_mhz);

  // The random pattern must touch every one of its 2^20 lines for the check: count the host's own walk.
  {
    std::vector<unsigned char> hit(kRandomLines, 0);
    const unsigned threads = static_cast<unsigned>(c.blocks) * kThreads;
    unsigned long long touched = 0;
    for (unsigned t = 0; t < threads; ++t) {
      unsigned state = ws::lowbias32(t);
      for (unsigned i = 0; i < kGlobalAdds; ++i) {
        const unsigned line = global_word<kRandomLinesPattern>(t, i, state) / kLineWords;
        touched += hit[line] == 0;
        hit[line] = 1;
      }
    }
    if (touched != kRandomLines) std::printf("note random_lines touches %llu of %u lines\n", touched, kRandomLines);
    run_global<kRandomLinesPattern, false>(c, "random_lines", static_cast<unsigned>(touched));
    run_global<kRandomLinesPattern, true>(c, "random_lines", static_cast<unsigned>(touched));
  }
  run_global<kSameAddress, false>(c, "same_address", 1);
  run_global<kSameAddress, true>(c, "same_address", 1);
  run_global<kSameAddressUniform, false>(c, "same_address_uniform", 1);
  run_global<kSameAddressUniform, true>(c, "same_address_uniform", 1);
  run_global<kSameLine, false>(c, "same_line", 32);
  run_global<kSameLine, true>(c, "same_line", 32);
  run_global<kLines64, false>(c, "lines_64", 64);
  run_global<kLines64, true>(c, "lines_64", 64);
  run_global<kLines4096, false>(c, "lines_4096", 4096);
  run_global<kLines4096, true>(c, "lines_4096", 4096);

  // Shared: the bins random_bin picks over the whole grid (all 256 unless the hash misses some).
  unsigned random_bins = 0;
  {
    std::vector<unsigned char> hit(kBins, 0);
    for (unsigned t = 0; t < static_cast<unsigned>(c.blocks) * kThreads; ++t) {
      for (unsigned j = 0; j < 16; ++j) hit[random_bin(t, j)] = 1;
    }
    for (unsigned char h : hit) random_bins += h;
  }
  run_shared<kSharedSame>(c, "same_address", 1);
  run_shared<kSharedSameUniform>(c, "same_address_uniform", 1);
  run_shared<kSharedBanks>(c, "distinct_banks", 32);
  run_shared<kSharedRandom>(c, "random_bins", random_bins);
  run_shared<kSharedRandomInc>(c, "random_bins_inc", random_bins);

  WS_CHECK(cudaFree(c.sink));
  WS_CHECK(cudaFree(c.totals));
  WS_CHECK(cudaFree(c.counters));
  return ws::report_check("microbench_atomics", c.ok, "global_patterns 6 shared_patterns 5" + c.detail);
}
