// Binary LSD radix sort of uint32 keys (one bit per pass, 32 passes, each a stable split of the keys into those with
// the bit clear followed by those with it set), in three implementations that do the same work but differ in how
// much of it goes through shared memory. From the Petri-net paper (seeds 000), which validates its SM model with
// binary LSD radix sort written three ways that differ in shared vs global memory use.
//
//   global  per pass: flags -> chunk scan -> scan of chunk sums -> add offsets -> scatter; every intermediate lives
//           in global memory and no kernel declares __shared__ (the scan's partial sums are global arrays).
//   shared  per pass: split each 1024-key tile in shared memory (flags, block scan and local reorder) -> scan of the
//           per-tile zero counts in shared memory -> coalesced scatter of each reordered tile staged in shared memory.
//   hybrid  per pass: flags in global memory -> block scan of the flags in shared memory, ranks written to global ->
//           scan of the per-tile counts in shared memory -> scatter reading flags and ranks from global memory.
//
// Usage: ws_radix_sort [--n N] [--impl global|shared|hybrid|all]
// Prints one `timing` line per launch and one `check` line per implementation; exits non-zero if one is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr const char* kWorkload = "radix_sort";
constexpr int kBits = 32;            // one pass per key bit
constexpr int kThreads = 256;        // threads per block of the per-key and per-tile kernels
constexpr int kItems = 4;            // keys per thread in the tiled kernels
constexpr int kTileKeys = kThreads * kItems;  // 1024 keys per tile (shared, hybrid)
constexpr int kScanThreads = 1024;   // the single block that scans per-chunk or per-tile totals
constexpr int kScanItems = 4;        // totals per thread and round in that block (shared, hybrid)
constexpr int kChunk = 32;           // keys scanned sequentially by one thread in the global implementation
constexpr long kMaxN = 1L << 28;     // keeps every index and position inside uint32 and the buffers inside 4 GiB

using ws::DeviceBuffer;

__host__ __device__ constexpr unsigned ceil_div(unsigned a, unsigned b) { return (a + b - 1) / b; }

/// 1 when the key goes to the front half of this pass (its bit is clear), else 0.
__device__ __forceinline__ unsigned zero_flag(unsigned key, int bit) { return ((key >> bit) & 1u) ^ 1u; }

// ===============================================================================================================
// global: no __shared__ anywhere; every step reads its inputs from and writes its outputs to global memory.

/// flags[i] = 1 when key i has the pass's bit clear.
__global__ void radix_global_flags(const unsigned* __restrict__ keys, unsigned* __restrict__ flags, unsigned n,
                                   int bit) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) flags[i] = zero_flag(keys[i], bit);
}

/// Scan level 1: thread t scans chunk t (kChunk consecutive flags) sequentially, writing the exclusive prefix
/// within the chunk to ranks[] and the chunk's total to chunk_sums[t].
__global__ void radix_global_scan_chunks(const unsigned* __restrict__ flags, unsigned* __restrict__ ranks,
                                         unsigned* __restrict__ chunk_sums, unsigned n, unsigned chunks) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= chunks) return;
  const unsigned begin = t * kChunk;
  const unsigned end = min(begin + kChunk, n);
  unsigned sum = 0;
  for (unsigned i = begin; i < end; ++i) {
    ranks[i] = sum;
    sum += flags[i];
  }
  chunk_sums[t] = sum;
}

/// Scan level 2, one block of kScanThreads threads: turns chunk_sums[] into exclusive chunk offsets in place and
/// writes the grand total (the number of keys with the bit clear). Each thread sums a segment of chunk sums, the
/// segment totals are scanned Hillis-Steele style in two global ping-pong arrays (partial_a/partial_b, kScanThreads
/// each; __syncthreads makes a block's global writes visible to the whole block), then each thread rewrites its
/// segment as exclusive offsets. partial_a/partial_b are not __restrict__ because the ping-pong pointers alternate
/// between them.
__global__ void __launch_bounds__(kScanThreads)
    radix_global_scan_sums(unsigned* __restrict__ chunk_sums, unsigned* partial_a, unsigned* partial_b,
                           unsigned* __restrict__ total, unsigned chunks) {
  const unsigned t = threadIdx.x;
  const unsigned per_thread = ceil_div(chunks, kScanThreads);
  const unsigned begin = min(t * per_thread, chunks);
  const unsigned end = min(begin + per_thread, chunks);

  unsigned segment = 0;
  for (unsigned i = begin; i < end; ++i) segment += chunk_sums[i];
  partial_a[t] = segment;
  __syncthreads();

  unsigned* in = partial_a;
  unsigned* out = partial_b;
  for (unsigned offset = 1; offset < kScanThreads; offset <<= 1) {
    out[t] = in[t] + (t >= offset ? in[t - offset] : 0u);
    __syncthreads();  // every read of `in` is done before the next step writes into it
    unsigned* swap = in;
    in = out;
    out = swap;
  }
  unsigned running = in[t] - segment;  // inclusive scan minus own total: the exclusive prefix of this segment
  if (t == kScanThreads - 1) *total = in[t];

  for (unsigned i = begin; i < end; ++i) {
    const unsigned value = chunk_sums[i];
    chunk_sums[i] = running;
    running += value;
  }
}

/// Scan level 3: ranks[i] += offset of its chunk, giving the exclusive scan of all flags.
__global__ void radix_global_scan_add(unsigned* __restrict__ ranks, const unsigned* __restrict__ chunk_offsets,
                                      unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) ranks[i] += chunk_offsets[i / kChunk];
}

/// Stable split: a key with the bit clear goes to its rank among such keys; one with the bit set goes after all
/// of those, at its rank among the set ones (i - rank).
__global__ void radix_global_scatter(const unsigned* __restrict__ keys_in, unsigned* __restrict__ keys_out,
                                     const unsigned* __restrict__ flags, const unsigned* __restrict__ ranks,
                                     const unsigned* __restrict__ total, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned rank = ranks[i];
  keys_out[flags[i] ? rank : *total + (i - rank)] = keys_in[i];
}

// ===============================================================================================================
// Shared-memory building blocks (shared and hybrid implementations).

/// Exclusive scan, in place, of THREADS * ITEMS values in shared memory (thread t owns the ITEMS consecutive values
/// from t * ITEMS); `sums` is shared scratch of 2 * THREADS. Returns the total to every thread. All THREADS
/// threads of the block must call it; it synchronizes before returning, so the tile may be read at once and the
/// tile and scratch may be rewritten after the caller's next __syncthreads.
template <int THREADS, int ITEMS>
__device__ unsigned block_exclusive_scan(unsigned* tile, unsigned* sums) {
  const int t = static_cast<int>(threadIdx.x);
  unsigned* mine = tile + t * ITEMS;
  unsigned own = 0;
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) own += mine[k];

  // Hillis-Steele over the per-thread totals, double-buffered so that one barrier per step suffices.
  unsigned* in = sums;
  unsigned* out = sums + THREADS;
  in[t] = own;
  __syncthreads();
  for (int offset = 1; offset < THREADS; offset <<= 1) {
    out[t] = in[t] + (t >= offset ? in[t - offset] : 0u);
    __syncthreads();
    unsigned* swap = in;
    in = out;
    out = swap;
  }
  unsigned running = in[t] - own;
  const unsigned total = in[THREADS - 1];

#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    const unsigned value = mine[k];
    mine[k] = running;
    running += value;
  }
  __syncthreads();
  return total;
}

/// Exclusive scan of counts[0, m) into offsets[0, m) by one block of kScanThreads threads, in rounds of
/// kScanThreads * kScanItems values staged in shared memory, carrying the running total between rounds; writes
/// the grand total to *total.
__device__ void scan_counts_in_shared(const unsigned* __restrict__ counts, unsigned* __restrict__ offsets,
                                      unsigned* __restrict__ total, unsigned m) {
  constexpr unsigned kRound = kScanThreads * kScanItems;
  __shared__ unsigned tile[kRound];
  __shared__ unsigned sums[2 * kScanThreads];
  unsigned carry = 0;
  for (unsigned base = 0; base < m; base += kRound) {
    // Strided loads and stores (consecutive threads, consecutive addresses) keep the global accesses coalesced.
    for (unsigned j = threadIdx.x; j < kRound; j += kScanThreads) tile[j] = base + j < m ? counts[base + j] : 0u;
    __syncthreads();
    const unsigned round_total = block_exclusive_scan<kScanThreads, kScanItems>(tile, sums);
    for (unsigned j = threadIdx.x; j < kRound && base + j < m; j += kScanThreads) offsets[base + j] = carry + tile[j];
    carry += round_total;
    __syncthreads();  // the next round overwrites the tile
  }
  if (threadIdx.x == 0) *total = carry;
}

// ===============================================================================================================
// shared: per tile, everything between the global load and the global store happens in shared memory.

/// Loads a 1024-key tile into shared memory, computes the flags and their block scan there, reorders the tile
/// locally (bit-clear keys first, both groups in their original order) and writes the reordered tile to tiles_out
/// and its number of bit-clear keys to tile_zeros.
__global__ void radix_shared_split_block(const unsigned* __restrict__ keys_in, unsigned* __restrict__ tiles_out,
                                         unsigned* __restrict__ tile_zeros, unsigned n, int bit) {
  __shared__ unsigned keys[kTileKeys];
  __shared__ unsigned ranks[kTileKeys];
  __shared__ unsigned sums[2 * kThreads];
  __shared__ unsigned split[kTileKeys];
  const unsigned base = blockIdx.x * kTileKeys;
  const unsigned valid = min(static_cast<unsigned>(kTileKeys), n - base);

  for (unsigned j = threadIdx.x; j < kTileKeys; j += kThreads) {
    const unsigned key = j < valid ? keys_in[base + j] : 0u;
    keys[j] = key;
    ranks[j] = j < valid ? zero_flag(key, bit) : 0u;  // padding counts as bit set, so it sorts to the tile's end
  }
  __syncthreads();
  const unsigned zeros = block_exclusive_scan<kThreads, kItems>(ranks, sums);

  // ranks[j] = bit-clear keys before j. A bit-clear key goes to that position; any other key (padding included)
  // goes after all bit-clear keys, at j - ranks[j] (the other keys before it). Padding keeps positions >= valid.
  for (unsigned j = threadIdx.x; j < kTileKeys; j += kThreads) {
    const unsigned key = keys[j];
    const bool clear = j < valid && zero_flag(key, bit) != 0u;
    split[clear ? ranks[j] : zeros + (j - ranks[j])] = key;
  }
  __syncthreads();
  for (unsigned j = threadIdx.x; j < valid; j += kThreads) tiles_out[base + j] = split[j];
  if (threadIdx.x == 0) tile_zeros[blockIdx.x] = zeros;
}

/// One block: exclusive scan of the per-tile zero counts, giving each tile's first bit-clear output position.
__global__ void __launch_bounds__(kScanThreads)
    radix_shared_scan_offsets(const unsigned* __restrict__ tile_zeros, unsigned* __restrict__ tile_offsets,
                           unsigned* __restrict__ total, unsigned tiles) {
  scan_counts_in_shared(tile_zeros, tile_offsets, total, tiles);
}

/// Stages a reordered tile in shared memory and writes its two runs to their global positions: bit-clear keys from
/// tile_offsets[tile], bit-set keys from total zeros + (bit-set keys in earlier tiles). Both runs are contiguous,
/// so the stores are coalesced.
__global__ void radix_shared_scatter(const unsigned* __restrict__ tiles_in, unsigned* __restrict__ keys_out,
                                     const unsigned* __restrict__ tile_zeros,
                                     const unsigned* __restrict__ tile_offsets, const unsigned* __restrict__ total,
                                     unsigned n) {
  __shared__ unsigned keys[kTileKeys];
  __shared__ unsigned zeros_here;
  __shared__ unsigned zeros_before;
  __shared__ unsigned ones_start;
  const unsigned base = blockIdx.x * kTileKeys;
  const unsigned valid = min(static_cast<unsigned>(kTileKeys), n - base);
  if (threadIdx.x == 0) {
    zeros_here = tile_zeros[blockIdx.x];
    zeros_before = tile_offsets[blockIdx.x];
    ones_start = *total + (base - zeros_before);  // keys before this tile that have the bit set: base - zeros_before
  }
  for (unsigned j = threadIdx.x; j < valid; j += kThreads) keys[j] = tiles_in[base + j];
  __syncthreads();
  for (unsigned j = threadIdx.x; j < valid; j += kThreads) {
    keys_out[j < zeros_here ? zeros_before + j : ones_start + (j - zeros_here)] = keys[j];
  }
}

// ===============================================================================================================
// hybrid: the scans run in shared memory, the flags, ranks and scatter go through global memory.

/// flags[i] = 1 when key i has the pass's bit clear (global memory only).
__global__ void radix_hybrid_flags(const unsigned* __restrict__ keys, unsigned* __restrict__ flags, unsigned n,
                                   int bit) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) flags[i] = zero_flag(keys[i], bit);
}

/// Loads a tile of flags into shared memory, scans it there and writes each key's rank within the tile to ranks[]
/// and the tile's total to tile_zeros.
__global__ void radix_hybrid_scan_block(const unsigned* __restrict__ flags, unsigned* __restrict__ ranks,
                                        unsigned* __restrict__ tile_zeros, unsigned n) {
  __shared__ unsigned tile[kTileKeys];
  __shared__ unsigned sums[2 * kThreads];
  const unsigned base = blockIdx.x * kTileKeys;
  const unsigned valid = min(static_cast<unsigned>(kTileKeys), n - base);
  for (unsigned j = threadIdx.x; j < kTileKeys; j += kThreads) tile[j] = j < valid ? flags[base + j] : 0u;
  __syncthreads();
  const unsigned zeros = block_exclusive_scan<kThreads, kItems>(tile, sums);
  for (unsigned j = threadIdx.x; j < valid; j += kThreads) ranks[base + j] = tile[j];
  if (threadIdx.x == 0) tile_zeros[blockIdx.x] = zeros;
}

/// One block: exclusive scan of the per-tile counts in shared memory.
__global__ void __launch_bounds__(kScanThreads)
    radix_hybrid_scan_offsets(const unsigned* __restrict__ tile_zeros, unsigned* __restrict__ tile_offsets,
                           unsigned* __restrict__ total, unsigned tiles) {
  scan_counts_in_shared(tile_zeros, tile_offsets, total, tiles);
}

/// One thread per key, global memory only: global rank = tile offset + rank in tile; stable split as in the
/// global implementation.
__global__ void radix_hybrid_scatter(const unsigned* __restrict__ keys_in, unsigned* __restrict__ keys_out,
                                     const unsigned* __restrict__ flags, const unsigned* __restrict__ ranks,
                                     const unsigned* __restrict__ tile_offsets, const unsigned* __restrict__ total,
                                     unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned rank = tile_offsets[i / kTileKeys] + ranks[i];
  keys_out[flags[i] ? rank : *total + (i - rank)] = keys_in[i];
}

// ===============================================================================================================
// Host side.

/// Launches a kernel, waits for it and prints its `timing` line labelled with the kernel's own name.
#define RADIX_LAUNCH(timer, kernel, grid, block, ...)   \
  do {                                                  \
    (timer).start();                                    \
    kernel<<<(grid), (block)>>>(__VA_ARGS__);           \
    WS_CHECK(cudaGetLastError());                       \
    (timer).stop(#kernel);                              \
  } while (0)

/// Device buffers shared by the three implementations: two key buffers (each pass reads one, writes the other;
/// after the even number of passes the sorted keys are back in `keys`) and the per-pass scratch.
struct Buffers {
  explicit Buffers(unsigned n)
      : keys(n),
        other(n),
        flags(n),
        ranks(n),
        group_sums(std::max(ceil_div(n, kChunk), ceil_div(n, kTileKeys))),
        group_offsets(ceil_div(n, kTileKeys)),
        partial_a(kScanThreads),
        partial_b(kScanThreads),
        total(1) {}
  DeviceBuffer<unsigned> keys;
  DeviceBuffer<unsigned> other;
  DeviceBuffer<unsigned> flags;          // global, hybrid: 0/1 per key
  DeviceBuffer<unsigned> ranks;          // global, hybrid: rank of each key; shared: reordered tiles
  DeviceBuffer<unsigned> group_sums;     // per-chunk (global) or per-tile (shared, hybrid) counts or offsets
  DeviceBuffer<unsigned> group_offsets;  // per-tile offsets (shared, hybrid)
  DeviceBuffer<unsigned> partial_a;      // global: the scan-of-sums ping-pong arrays
  DeviceBuffer<unsigned> partial_b;
  DeviceBuffer<unsigned> total;          // number of bit-clear keys in the pass
};

void sort_global(Buffers& buf, unsigned n, ws::KernelTimer& timer) {
  const unsigned key_blocks = ceil_div(n, kThreads);
  const unsigned chunks = ceil_div(n, kChunk);
  const unsigned chunk_blocks = ceil_div(chunks, kThreads);
  unsigned* in = buf.keys.get();
  unsigned* out = buf.other.get();
  for (int bit = 0; bit < kBits; ++bit) {
    RADIX_LAUNCH(timer, radix_global_flags, key_blocks, kThreads, in, buf.flags.get(), n, bit);
    RADIX_LAUNCH(timer, radix_global_scan_chunks, chunk_blocks, kThreads, buf.flags.get(), buf.ranks.get(),
                 buf.group_sums.get(), n, chunks);
    RADIX_LAUNCH(timer, radix_global_scan_sums, 1, kScanThreads, buf.group_sums.get(), buf.partial_a.get(),
                 buf.partial_b.get(), buf.total.get(), chunks);
    RADIX_LAUNCH(timer, radix_global_scan_add, key_blocks, kThreads, buf.ranks.get(), buf.group_sums.get(), n);
    RADIX_LAUNCH(timer, radix_global_scatter, key_blocks, kThreads, in, out, buf.flags.get(), buf.ranks.get(),
                 buf.total.get(), n);
    std::swap(in, out);
  }
}

void sort_shared(Buffers& buf, unsigned n, ws::KernelTimer& timer) {
  const unsigned tiles = ceil_div(n, kTileKeys);
  unsigned* in = buf.keys.get();
  unsigned* out = buf.other.get();
  for (int bit = 0; bit < kBits; ++bit) {
    RADIX_LAUNCH(timer, radix_shared_split_block, tiles, kThreads, in, buf.ranks.get(), buf.group_sums.get(), n, bit);
    RADIX_LAUNCH(timer, radix_shared_scan_offsets, 1, kScanThreads, buf.group_sums.get(), buf.group_offsets.get(),
                 buf.total.get(), tiles);
    RADIX_LAUNCH(timer, radix_shared_scatter, tiles, kThreads, buf.ranks.get(), out, buf.group_sums.get(),
                 buf.group_offsets.get(), buf.total.get(), n);
    std::swap(in, out);
  }
}

void sort_hybrid(Buffers& buf, unsigned n, ws::KernelTimer& timer) {
  const unsigned key_blocks = ceil_div(n, kThreads);
  const unsigned tiles = ceil_div(n, kTileKeys);
  unsigned* in = buf.keys.get();
  unsigned* out = buf.other.get();
  for (int bit = 0; bit < kBits; ++bit) {
    RADIX_LAUNCH(timer, radix_hybrid_flags, key_blocks, kThreads, in, buf.flags.get(), n, bit);
    RADIX_LAUNCH(timer, radix_hybrid_scan_block, tiles, kThreads, buf.flags.get(), buf.ranks.get(),
                 buf.group_sums.get(), n);
    RADIX_LAUNCH(timer, radix_hybrid_scan_offsets, 1, kScanThreads, buf.group_sums.get(), buf.group_offsets.get(),
                 buf.total.get(), tiles);
    RADIX_LAUNCH(timer, radix_hybrid_scatter, key_blocks, kThreads, in, out, buf.flags.get(), buf.ranks.get(),
                 buf.group_offsets.get(), buf.total.get(), n);
    std::swap(in, out);
  }
}

static_assert(kBits % 2 == 0, "the sorted keys must end in Buffers::keys");

using SortFn = void (*)(Buffers&, unsigned, ws::KernelTimer&);

struct Implementation {
  const char* name;
  SortFn sort;
};

/// Deterministic keys over the full 32-bit range (an integer LCG; the top bits of its state are the best mixed).
std::vector<unsigned> make_keys(unsigned n) {
  std::vector<unsigned> keys(n);
  unsigned long long state = 0x9E3779B97F4A7C15ull;
  for (unsigned& key : keys) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    key = static_cast<unsigned>(state >> 32);
  }
  return keys;
}

/// Sorts a fresh copy of the input with one implementation and checks it against std::sort, key for key.
int run_implementation(const Implementation& impl, Buffers& buf, const std::vector<unsigned>& input,
                       const std::vector<unsigned>& want, ws::KernelTimer& timer) {
  const unsigned n = static_cast<unsigned>(input.size());
  buf.keys.upload(input);
  WS_CHECK(cudaMemset(buf.other.get(), 0, buf.other.bytes()));  // no result of an earlier implementation survives
  impl.sort(buf, n, timer);
  std::vector<unsigned> got;
  buf.keys.download(got);

  const auto diff = std::mismatch(got.begin(), got.end(), want.begin());
  const bool ok = diff.first == got.end();
  char detail[192];
  if (ok) {
    std::snprintf(detail, sizeof detail, "impl=%s n=%u bits=%d sorted, equal to std::sort", impl.name, n, kBits);
  } else {
    const long index = static_cast<long>(diff.first - got.begin());
    std::snprintf(detail, sizeof detail, "impl=%s n=%u first mismatch at %ld: got %u want %u", impl.name, n, index,
                  *diff.first, *diff.second);
  }
  return ws::report_check(kWorkload, ok, detail);
}

int usage(const char* message) {
  std::fprintf(stderr, "ws_radix_sort: %s\nusage: ws_radix_sort [--n N (1..%ld)] [--impl global|shared|hybrid|all]\n",
               message, kMaxN);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long n_arg = ws::arg_long(argc, argv, "n", 1L << 22);
  const std::string which = ws::arg_string(argc, argv, "impl", "all");
  if (n_arg < 1 || n_arg > kMaxN) return usage("--n out of range");
  const Implementation all[] = {{"global", sort_global}, {"shared", sort_shared}, {"hybrid", sort_hybrid}};
  std::vector<Implementation> chosen;
  for (const Implementation& impl : all) {
    if (which == "all" || which == impl.name) chosen.push_back(impl);
  }
  if (chosen.empty()) return usage("--impl must be global, shared, hybrid or all");

  const unsigned n = static_cast<unsigned>(n_arg);
  const std::vector<unsigned> input = make_keys(n);
  std::vector<unsigned> want = input;
  std::sort(want.begin(), want.end());

  Buffers buf(n);
  ws::KernelTimer timer(kWorkload);
  int status = 0;
  for (const Implementation& impl : chosen) {
    if (run_implementation(impl, buf, input, want, timer) != 0) status = 1;
  }
  return status;
}
