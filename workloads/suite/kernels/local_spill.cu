// local_spill: two kernels whose per-thread state does not live in registers, the "local memory" case of the CUDA
// Programming Guide (Device Memory Accesses: arrays indexed with non-constant indices, and register spilling).
//   local_array_shuffle - each thread keeps float a[64] and updates it at data-dependent indices drawn from a
//                         per-element LCG (a[k1] = a[k2] + c), so the array cannot be kept in registers: it is
//                         placed in a 256-byte per-thread local-memory stack frame (STL/LDL). Every thread writes its
//                         64 entries, does 12 random read-modify-writes and reads all 64 back; the random ones
//                         put the 32 lanes of a warp at different offsets, so they are uncoalesced (on H100 each
//                         round costs ~0.3 ms, the coalesced writes and reads of the array ~0.4 ms).
//   register_spill      - 48 live 32-bit values updated round after round with fully unrolled (constant) indices,
//                         compiled under __launch_bounds__(256, 8), which caps the kernel at 32 registers: ptxas
//                         spills part of the state to local memory and reloads it every round.
// Both process 2^22 elements, one thread each (16384 blocks of 256 threads).
//
// GPU behaviour exercised: local-memory traffic. Local memory is per-thread, interleaved so that a warp's accesses
// to the same local offset are coalesced, and cached in L1 and L2; here the footprint per SM (256 B x up to 2048
// threads = 512 KiB for the array kernel) exceeds L1, so part of the traffic goes to L2. ptxas -v for sm_90
// (CUDA 13.0; cuobjdump -res-usage shows the stack frames as STACK):
//   local_array_shuffle: 30 registers, 256 bytes stack frame, no spills -> full occupancy (8 blocks of 256 per SM)
//   register_spill:      32 registers, 160 bytes stack frame, 332 bytes spill stores, 280 bytes spill loads (static
//                        counts, mostly inside the round loop) -> 8 blocks (64 warps) per SM
// Measured on one H100 SXM (CUDA events): local_array_shuffle 3.85 ms, register_spill 2.25 ms (0.29 ms with no
// rounds). Results are exact: the array kernel's floats are small integers, the spill kernel works modulo 2^32.
//
// Usage: ws_local_spill [--log2-n L (10..24)] [--rounds-array R] [--rounds-spill R] [--repeat R]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "local_spill";
constexpr int kThreads = 256;
constexpr int kArray = 64;         // floats in local_array_shuffle's per-thread array
constexpr int kLive = 48;          // values live across rounds in register_spill
constexpr int kMinBlocksPerSm = 8; // 65536 registers / (256 threads x 8 blocks) = 32 registers per thread
constexpr int kCheckStride = 7;    // elements checked on the CPU: every 7th

using ws::DeviceBuffer;

// `#pragma unroll` for the functions shared with the host (where the pragma is unknown and would warn).
#if defined(__CUDA_ARCH__)
#define WS_UNROLL _Pragma("unroll")
#else
#define WS_UNROLL
#endif

__host__ __device__ inline unsigned lcg(unsigned s) { return s * 1664525u + 1013904223u; }

/// local_array_shuffle's per-element work (also the CPU reference). Entries start at 0..7 and each round adds at
/// most 3, so all values (and the weighted sum, < 2^15) are small integers, exact in float in any order.
__host__ __device__ inline float array_shuffle(unsigned key, int rounds) {
  float a[kArray];
WS_UNROLL
  for (int k = 0; k < kArray; ++k) a[k] = static_cast<float>((key >> (k & 15)) & 7u);
  unsigned s = key;
  for (int r = 0; r < rounds; ++r) {
    s = lcg(s);
    const unsigned k1 = s >> 26;  // 0..63, data-dependent: forces a[] into local memory
    s = lcg(s);
    const unsigned k2 = s >> 26;
    a[k1] = a[k2] + static_cast<float>(r & 3);
  }
  float sum = 0.0f;
WS_UNROLL
  for (int k = 0; k < kArray; ++k) sum += a[k] * static_cast<float>((k & 3) + 1);
  return sum;
}

/// register_spill's per-element work (also the CPU reference): kLive values, each round every value is
/// multiplied and mixed with its (not yet updated) neighbour, so all kLive stay live from round to round.
__host__ __device__ inline unsigned spill_mix(unsigned key, int rounds) {
  unsigned v[kLive];
WS_UNROLL
  for (int k = 0; k < kLive; ++k) v[k] = key ^ (static_cast<unsigned>(k) * 0x9E3779B9u);
  for (int r = 0; r < rounds; ++r) {
WS_UNROLL
    for (int k = 0; k < kLive; ++k) v[k] = v[k] * 1664525u + (v[(k + 1) % kLive] ^ static_cast<unsigned>(r));
  }
  unsigned h = 0;
WS_UNROLL
  for (int k = 0; k < kLive; ++k) h = h * 31u + v[k];
  return h;
}

// ---------------------------------------------------------------------------------------------------------------
// Kernels: one thread per element.

__global__ void __launch_bounds__(kThreads) local_array_shuffle(const unsigned* __restrict__ keys,
                                                                float* __restrict__ out, int n, int rounds) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = array_shuffle(keys[i], rounds);
}

__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm) register_spill(const unsigned* __restrict__ keys,
                                                                            unsigned* __restrict__ out, int n,
                                                                            int rounds) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = spill_mix(keys[i], rounds);
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

int usage(const char* message) {
  std::fprintf(stderr,
               "ws_local_spill: %s\nusage: ws_local_spill [--log2-n L (10..24)] [--rounds-array R (0..4096)] "
               "[--rounds-spill R (0..4096)] [--repeat R]\n",
               message);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long log2_n = ws::arg_long(argc, argv, "log2-n", 22);
  const long rounds_array_arg = ws::arg_long(argc, argv, "rounds-array", 12);
  const long rounds_spill_arg = ws::arg_long(argc, argv, "rounds-spill", 16);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 3);
  if (log2_n < 10 || log2_n > 24) return usage("--log2-n out of range");
  if (rounds_array_arg < 0 || rounds_array_arg > 4096) return usage("--rounds-array out of range");
  if (rounds_spill_arg < 0 || rounds_spill_arg > 4096) return usage("--rounds-spill out of range");
  if (repeat_arg < 1 || repeat_arg > 10) return usage("--repeat must be 1..10");
  const int n = 1 << log2_n;
  const int rounds_array = static_cast<int>(rounds_array_arg);
  const int rounds_spill = static_cast<int>(rounds_spill_arg);
  const int repeat = static_cast<int>(repeat_arg);

  std::vector<unsigned> host_keys(static_cast<std::size_t>(n));
  unsigned state = 2024u;
  for (unsigned& key : host_keys) {
    state = lcg(state);
    key = state ^ (state >> 13);
  }

  DeviceBuffer<unsigned> keys(static_cast<std::size_t>(n));
  DeviceBuffer<float> out_array(static_cast<std::size_t>(n));
  DeviceBuffer<unsigned> out_spill(static_cast<std::size_t>(n));
  keys.upload(host_keys);
  WS_CHECK(cudaMemset(out_array.get(), 0xFF, out_array.bytes()));  // NaN / 0xFFFFFFFF: unwritten elements fail
  WS_CHECK(cudaMemset(out_spill.get(), 0xFF, out_spill.bytes()));

  const int blocks = n / kThreads;  // n is a power of two >= 1024
  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    timer.start();
    local_array_shuffle<<<blocks, kThreads>>>(keys.get(), out_array.get(), n, rounds_array);
    timer.stop("local_array_shuffle");
    timer.start();
    register_spill<<<blocks, kThreads>>>(keys.get(), out_spill.get(), n, rounds_spill);
    timer.stop("register_spill");
  }

  std::vector<float> got_array;
  std::vector<unsigned> got_spill;
  out_array.download(got_array);
  out_spill.download(got_spill);
  // Every 7th element (all lane positions and all blocks, ~600k elements, ~0.3 s of CPU) and the last one.
  std::vector<std::size_t> checked;
  for (std::size_t i = 0; i < static_cast<std::size_t>(n); i += kCheckStride) checked.push_back(i);
  checked.push_back(static_cast<std::size_t>(n) - 1);
  std::string failure;
  for (const std::size_t i : checked) {
    const float want_array = array_shuffle(host_keys[i], rounds_array);
    const unsigned want_spill = spill_mix(host_keys[i], rounds_spill);
    char text[160];
    if (got_array[i] != want_array) {
      std::snprintf(text, sizeof text, "local_array_shuffle out[%zu]=%.9g want %.9g", i,
                    static_cast<double>(got_array[i]), static_cast<double>(want_array));
      failure = text;
      break;
    }
    if (got_spill[i] != want_spill) {
      std::snprintf(text, sizeof text, "register_spill out[%zu]=%u want %u", i, got_spill[i], want_spill);
      failure = text;
      break;
    }
  }
  char detail[256];
  std::snprintf(detail, sizeof detail, "n=%d checked_every=%d rounds_array=%d rounds_spill=%d %s", n, kCheckStride,
                rounds_array, rounds_spill, failure.empty() ? "all exact" : failure.c_str());
  return ws::report_check(kWorkload, failure.empty(), detail);
}
