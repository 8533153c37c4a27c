#pragma once
// The remote-access kernel's interface, and the two rules both the GPU and the CPU reference follow: which thread
// blocks read the remote array, and the chain of dependent FMAs applied to each datum.

#include <cuda_runtime.h>

#include <cmath>

/// batch: the first P% of thread blocks read remotely, so all remote traffic comes at the start of the kernel
/// (the paper's "rows are remote"); spread: P of every 100 consecutive blocks read remotely, evenly interleaved with
/// local blocks over the whole kernel (the paper's "columns are remote").
enum class Pattern : int { kBatch = 0, kSpread = 1 };

constexpr int kThreadsPerBlock = 256;  // 8 warps; 8 resident blocks give the paper's 100% occupancy (64 warps)

/// read: remote blocks read their datum from the remote array (the paper's experiment); write: every block reads
/// locally and remote blocks write their result to the remote array (the paper's "writes are 8-10% slower").
enum class Direction : int { kRead = 0, kWrite = 1 };

struct RemoteReadArgs {
  const float* local_in = nullptr;   ///< on the local GPU
  const float* remote_in = nullptr;  ///< on the remote GPU (peer pointer) or mapped host memory; null when never read
  float* out = nullptr;              ///< on the local GPU
  float* remote_out = nullptr;       ///< write direction: where remote blocks write (peer or mapped host memory)
  long long n = 0;
  int remote_pct = 0;
  Pattern pattern = Pattern::kBatch;
  unsigned batch_remote_blocks = 0;  ///< batch only: blocks [0, this) are remote, = ceil(pct * blocks / 100)
  int flops = 1;                     ///< dependent FMAs per datum
};

/// Whether thread block `block` reads the remote array. Whole blocks are remote or local (never single elements),
/// so remote and local loads are equally coalesced and batch and spread differ only in when remote blocks run.
__host__ __device__ inline bool is_remote_block(const RemoteReadArgs& a, unsigned block) {
  if (a.pattern == Pattern::kBatch) return block < a.batch_remote_blocks;
  // (block * pct) mod 100 < pct holds for exactly pct of any 100 consecutive blocks, for every pct in 0..100.
  const unsigned pct = static_cast<unsigned>(a.remote_pct);
  return (block % 100u) * pct % 100u < pct;
}

// Each FMA maps x in [-1, 1] into [-1, 1], so any chain length stays finite.
constexpr float kFmaScale = 0.999f;
constexpr float kFmaOffset = 0.0005f;

/// The CPU side of the chain: the same correctly rounded FMAs in the same order, hence bit-identical results.
inline float fma_chain_host(float x, int flops) {
  for (int k = 0; k < flops; ++k) x = std::fma(x, kFmaScale, kFmaOffset);
  return x;
}

/// The kernels' real names; sweep labels start with them so that they match the trace's kernel names.
constexpr const char* kKernelName = "remote_read_kernel";
constexpr const char* kWriteKernelName = "remote_write_kernel";

/// Launches remote_read_kernel (or, writing, remote_write_kernel) over all `n` elements with `smem_bytes` of
/// (unused) dynamic shared memory per block.
void launch_remote_access(const RemoteReadArgs& args, Direction direction, int smem_bytes, cudaStream_t stream);

/// Number of thread blocks for `n` elements.
unsigned remote_read_blocks(long long n);

/// Allows `smem_bytes` of dynamic shared memory per block on the current device; returns the resulting resident
/// blocks per SM of the direction's kernel (0 if the request cannot run at all).
int prepare_occupancy(int smem_bytes, Direction direction);
