// The section 3.2 microbenchmark kernel: read one datum per thread (locally or through a peer pointer), apply a chain
// of dependent FMAs, write the result locally. Loads are plain (no __ldg, no __restrict__): the streamed data is
// read once, and the paper's remote-access numbers are for the ordinary load path.

#include "remote_access.cuh"
#include "workload.h"

namespace {

template <int F>
__device__ __forceinline__ float fma_chain(float x) {
#pragma unroll
  for (int k = 0; k < F; ++k) x = fmaf(x, kFmaScale, kFmaOffset);
  return x;
}

/// Fully unrolled chains for the usual intensities (no loop overhead in the instruction mix); a counted loop
/// otherwise. `flops` is uniform across the grid, so the switch never diverges.
__device__ __forceinline__ float apply_flops(float x, int flops) {
  switch (flops) {
    case 1: return fma_chain<1>(x);
    case 2: return fma_chain<2>(x);
    case 4: return fma_chain<4>(x);
    case 8: return fma_chain<8>(x);
    case 10: return fma_chain<10>(x);
    case 16: return fma_chain<16>(x);
    case 32: return fma_chain<32>(x);
    case 64: return fma_chain<64>(x);
    default:
      for (int k = 0; k < flops; ++k) x = fmaf(x, kFmaScale, kFmaOffset);
      return x;
  }
}

}  // namespace

// Not a template, so that the trace's demangled name starts with "remote_read_kernel" like the timing labels.
__global__ void remote_read_kernel(RemoteReadArgs a) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= a.n) return;
  // One load instruction whichever array is read: only the address differs between local and remote blocks.
  const float* src = is_remote_block(a, blockIdx.x) ? a.remote_in : a.local_in;
  a.out[i] = apply_flops(src[i], a.flops);
}

// The write direction: every block reads its datum locally; remote blocks store the result through the remote
// pointer (one store instruction whichever array is written: only the address differs).
__global__ void remote_write_kernel(RemoteReadArgs a) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= a.n) return;
  float* dst = is_remote_block(a, blockIdx.x) ? a.remote_out : a.out;
  dst[i] = apply_flops(a.local_in[i], a.flops);
}

unsigned remote_read_blocks(long long n) {
  return static_cast<unsigned>((n + kThreadsPerBlock - 1) / kThreadsPerBlock);
}

void launch_remote_access(const RemoteReadArgs& args, Direction direction, int smem_bytes, cudaStream_t stream) {
  const auto kernel = direction == Direction::kWrite ? remote_write_kernel : remote_read_kernel;
  kernel<<<remote_read_blocks(args.n), kThreadsPerBlock, static_cast<size_t>(smem_bytes), stream>>>(args);
  WS_CHECK(cudaGetLastError());
}

int prepare_occupancy(int smem_bytes, Direction direction) {
  const auto kernel = direction == Direction::kWrite ? remote_write_kernel : remote_read_kernel;
  // Above 48 KB per block the kernel must opt in; the memory is never touched, it only limits resident blocks.
  WS_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
  int blocks = 0;
  WS_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, kThreadsPerBlock,
                                                         static_cast<size_t>(smem_bytes)));
  return blocks;
}
