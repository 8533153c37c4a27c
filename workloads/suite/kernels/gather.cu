// gather: out[i] = in[idx[i]] over 2^26 floats, the indexed-load ("gather") pattern of sparse codes and embedding
// lookups (the GATHER kernel of the RAJAPerf / Spatter gather-scatter benchmarks). One kernel body, two launches
// that differ only in the index array:
//   gather_random     - idx[i] is a hash of i, uniform over [0, n): each warp's 32 loads of `in` hit ~32
//                       different 32-byte sectors (and lines) spread over the whole 256 MiB array, so a warp request
//                       costs ~32 sectors for 128 useful bytes, almost all from DRAM (the array is 5x the L2).
//   gather_sequential - idx[i] = i: the same instructions, fully coalesced (4 sectors per warp request).
// idx and out are read / written coalesced in both. One thread per element, 262144 blocks of 256 threads,
// ~10 registers, full occupancy.
//
// GPU behaviour exercised: uncoalesced loads (sector over-fetch, L2/DRAM transaction rate), against the same kernel
// at streaming bandwidth. Measured on one H100 SXM (CUDA events): gather_sequential 0.35 ms (768 MiB at ~2.3 TB/s),
// gather_random 2.2 ms (~2.5 GB of sectors: 64M x 32 B for `in`, plus idx and out).
//
// Usage: ws_gather [--log2-n L (10..26)] [--repeat R]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "gather";
constexpr int kThreads = 256;

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernels: one body; the two names give the two index patterns their own identity in the trace.

__device__ __forceinline__ void gather_body(const float* __restrict__ in, const unsigned* __restrict__ idx,
                                            float* __restrict__ out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[idx[i]];
}

__global__ void gather_random(const float* __restrict__ in, const unsigned* __restrict__ idx, float* __restrict__ out,
                              unsigned n) {
  gather_body(in, idx, out, n);
}

__global__ void gather_sequential(const float* __restrict__ in, const unsigned* __restrict__ idx,
                                  float* __restrict__ out, unsigned n) {
  gather_body(in, idx, out, n);
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

int usage(const char* message) {
  std::fprintf(stderr, "ws_gather: %s\nusage: ws_gather [--log2-n L (10..26)] [--repeat R]\n", message);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long log2_n = ws::arg_long(argc, argv, "log2-n", 26);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 3);
  if (log2_n < 10 || log2_n > 26) return usage("--log2-n out of range");
  if (repeat_arg < 1 || repeat_arg > 10) return usage("--repeat must be 1..10");
  const unsigned n = 1u << log2_n;
  const int repeat = static_cast<int>(repeat_arg);

  std::vector<float> host_in(n);
  ws::fill_random(host_in, 41u);
  std::vector<unsigned> host_idx_random(n);
  std::vector<unsigned> host_idx_sequential(n);
  for (unsigned i = 0; i < n; ++i) {
    host_idx_random[i] = ws::lowbias32(i) & (n - 1u);  // n is a power of two
    host_idx_sequential[i] = i;
  }

  DeviceBuffer<float> in(n);
  DeviceBuffer<unsigned> idx_random(n);
  DeviceBuffer<unsigned> idx_sequential(n);
  DeviceBuffer<float> out_random(n);
  DeviceBuffer<float> out_sequential(n);
  in.upload(host_in);
  idx_random.upload(host_idx_random);
  idx_sequential.upload(host_idx_sequential);
  WS_CHECK(cudaMemset(out_random.get(), 0xFF, out_random.bytes()));  // NaN: unwritten elements fail
  WS_CHECK(cudaMemset(out_sequential.get(), 0xFF, out_sequential.bytes()));

  const unsigned blocks = (n + kThreads - 1) / kThreads;
  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    timer.start();
    gather_random<<<blocks, kThreads>>>(in.get(), idx_random.get(), out_random.get(), n);
    timer.stop("gather_random");
    timer.start();
    gather_sequential<<<blocks, kThreads>>>(in.get(), idx_sequential.get(), out_sequential.get(), n);
    timer.stop("gather_sequential");
  }

  std::vector<float> got_random;
  std::vector<float> got_sequential;
  out_random.download(got_random);
  out_sequential.download(got_sequential);
  std::string failure;
  for (unsigned i = 0; i < n; ++i) {  // plain copies: exact
    const char* which = got_random[i] != host_in[host_idx_random[i]]
                            ? "gather_random"
                            : (got_sequential[i] != host_in[i] ? "gather_sequential" : nullptr);
    if (which != nullptr) {
      char text[160];
      std::snprintf(text, sizeof text, "%s out[%u] wrong (random %.7g, sequential %.7g)", which, i,
                    static_cast<double>(got_random[i]), static_cast<double>(got_sequential[i]));
      failure = text;
      break;
    }
  }
  char detail[256];
  std::snprintf(detail, sizeof detail, "n=%u %s", n, failure.empty() ? "all exact" : failure.c_str());
  return ws::report_check(kWorkload, failure.empty(), detail);
}
