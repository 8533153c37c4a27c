// nw: Needleman-Wunsch global alignment score matrix of two sequences (Needleman & Wunsch, J. Mol. Biol. 1970), as
// Rodinia's nw computes it: F[0][j] = -penalty * j, F[i][0] = -penalty * i, and
//   F[i][j] = max(F[i-1][j-1] + sub(a[i], b[j]), F[i-1][j] - penalty, F[i][j-1] - penalty)
// with a precomputed substitution-score matrix ref[i][j] = sub(a[i], b[j]) (a BLOSUM-like symmetric 24 x 24 table
// generated from a hash; gap penalty 10, Rodinia's default). Like Rodinia, the matrix is cut into square tiles and
// one launch computes one anti-diagonal of tiles (all its tiles are independent); inside a tile the block sweeps the
// tile's own anti-diagonals with a __syncthreads after each. Rodinia uses 16x16 tiles and so needs 2 * n / 16 - 1
// launches; this version uses 128x128 tiles (one thread per tile row, 4 warps) so that n = 1920 takes 15 x 15 tiles
// and 29 launches.
//
// Size: n = 1920 (score matrix 1921^2 ints, 14 MiB), 29 launches of 1..15 blocks of 128 threads, each block holding
// the tile of scores with its top/left halo and the tile of substitution scores in 131 KiB of dynamic shared memory
// (rows padded to 130 ints so that the 32 lanes of a warp, which sit on one anti-diagonal, hit 32 different banks):
// one block per SM by shared memory.
//
// GPU behaviour exercised: a latency-bound wavefront: at most 15 of the SMs busy, each block a dependent chain of 255
// shared-memory steps (3 loads, 2 max, 1 store, 1 barrier) with most lanes idle at the tile's corners; a strided
// (uncoalesced) load of the tile's left halo column; launch overhead comparable to the kernel time. Measured on an
// H100 (event timing): ~25-27 us per launch, nearly independent of the number of tiles in the diagonal.
//
// Usage: ws_nw [--tiles T (tiles per side, default 15)]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "nw";
constexpr int kTile = 128;             // tile side = threads per block (one thread per tile row)
constexpr int kPitch = kTile + 2;      // shared row pitch: lane t's cell on an anti-diagonal is at t * 129 + s
constexpr int kPenalty = 10;
constexpr int kAlphabet = 24;
constexpr std::size_t kSharedBytes = static_cast<std::size_t>(2 * kTile + 1) * kPitch * sizeof(int);

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernel. score is (n + 1) x (n + 1) row-major (row 0 and column 0 are the initial gap penalties); ref is n x n,
// ref[i * n + j] scoring cell (i + 1, j + 1) of score.

/// Computes the tiles (bi, bj) with bi + bj = diagonal: block b takes bi = max(0, diagonal - tiles + 1) + b.
__global__ void nw_diagonal(int* __restrict__ score, const int* __restrict__ ref, int n, int tiles, int diagonal,
                            int penalty) {
  extern __shared__ int smem[];
  int* s = smem;                        // (kTile + 1) rows: the tile's scores plus its top halo row / left column
  int* r = smem + (kTile + 1) * kPitch; // kTile rows: substitution scores
  const int t = threadIdx.x;
  const int bi = max(0, diagonal - tiles + 1) + static_cast<int>(blockIdx.x);
  const int bj = diagonal - bi;
  const int row0 = bi * kTile;          // score row / column of the tile's halo corner
  const int col0 = bj * kTile;
  const long pitch = n + 1;

  for (int row = 0; row < kTile; ++row) r[row * kPitch + t] = ref[static_cast<long>(row0 + row) * n + col0 + t];
  s[t + 1] = score[row0 * pitch + col0 + 1 + t];               // top halo row
  if (t == 0) s[0] = score[row0 * pitch + col0];               // halo corner
  s[(t + 1) * kPitch] = score[(row0 + 1 + t) * pitch + col0];  // left halo column (strided)
  __syncthreads();

  // Step k handles the tile's anti-diagonal k: thread t computes cell (t, k - t) from its three finished neighbours.
  for (int k = 0; k < 2 * kTile - 1; ++k) {
    const int c = k - t;
    if (c >= 0 && c < kTile) {
      const int diag = s[t * kPitch + c] + r[t * kPitch + c];
      const int up = s[t * kPitch + c + 1] - penalty;
      const int left = s[(t + 1) * kPitch + c] - penalty;
      s[(t + 1) * kPitch + c + 1] = max(diag, max(up, left));
    }
    __syncthreads();
  }

  for (int row = 0; row < kTile; ++row) {
    score[(row0 + 1 + row) * pitch + col0 + 1 + t] = s[(row + 1) * kPitch + t + 1];
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

std::uint32_t mix(std::uint32_t h) {
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h;
}

/// Symmetric substitution table: matches score 4..11, mismatches -4..1 (BLOSUM62's ranges).
std::vector<int> make_table() {
  std::vector<int> table(kAlphabet * kAlphabet);
  for (int a = 0; a < kAlphabet; ++a) {
    for (int b = 0; b < kAlphabet; ++b) {
      const int lo = std::min(a, b);
      const int hi = std::max(a, b);
      const std::uint32_t h = mix(static_cast<std::uint32_t>(lo * kAlphabet + hi + 1));
      table[a * kAlphabet + b] = a == b ? 4 + static_cast<int>(h % 8u) : -4 + static_cast<int>(h % 6u);
    }
  }
  return table;
}

int usage(const char* message) {
  std::fprintf(stderr, "ws_nw: %s\nusage: ws_nw [--tiles T (1..32; n = 128 T, 2T - 1 launches)]\n", message);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long tiles_arg = ws::arg_long(argc, argv, "tiles", 15);
  if (tiles_arg < 1 || tiles_arg > 32) return usage("--tiles out of range");
  const int tiles = static_cast<int>(tiles_arg);
  const int n = tiles * kTile;
  const std::size_t pitch = static_cast<std::size_t>(n) + 1;

  // Two random sequences over the alphabet and their substitution-score matrix.
  const std::vector<int> table = make_table();
  std::vector<int> seq_a(static_cast<std::size_t>(n));
  std::vector<int> seq_b(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    seq_a[static_cast<std::size_t>(i)] = static_cast<int>(mix(static_cast<std::uint32_t>(2 * i + 7)) % kAlphabet);
    seq_b[static_cast<std::size_t>(i)] = static_cast<int>(mix(static_cast<std::uint32_t>(2 * i + 8)) % kAlphabet);
  }
  std::vector<int> host_ref(static_cast<std::size_t>(n) * n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      host_ref[static_cast<std::size_t>(i) * n + j] =
          table[seq_a[static_cast<std::size_t>(i)] * kAlphabet + seq_b[static_cast<std::size_t>(j)]];
    }
  }
  // Initial score matrix: gap penalties on row 0 and column 0, a sentinel elsewhere (a cell never written fails).
  std::vector<int> host_score(pitch * pitch, INT32_MIN / 2);
  for (std::size_t i = 0; i < pitch; ++i) {
    host_score[i] = -kPenalty * static_cast<int>(i);
    host_score[i * pitch] = -kPenalty * static_cast<int>(i);
  }

  DeviceBuffer<int> score(pitch * pitch);
  DeviceBuffer<int> ref(host_ref.size());
  score.upload(host_score);
  ref.upload(host_ref);
  WS_CHECK(cudaFuncSetAttribute(nw_diagonal, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                static_cast<int>(kSharedBytes)));

  ws::KernelTimer timer(kWorkload);
  for (int diagonal = 0; diagonal < 2 * tiles - 1; ++diagonal) {
    const int blocks = std::min(diagonal, tiles - 1) - std::max(0, diagonal - tiles + 1) + 1;
    timer.start();
    nw_diagonal<<<blocks, kTile, kSharedBytes>>>(score.get(), ref.get(), n, tiles, diagonal, kPenalty);
    timer.stop("nw_diagonal");
  }
  std::vector<int> got;
  score.download(got);

  // Reference: the plain row-by-row recurrence; integers compared exactly.
  std::vector<int> want(host_score);
  for (std::size_t i = 1; i < pitch; ++i) {
    for (std::size_t j = 1; j < pitch; ++j) {
      const int diag = want[(i - 1) * pitch + j - 1] + host_ref[(i - 1) * n + j - 1];
      const int up = want[(i - 1) * pitch + j] - kPenalty;
      const int left = want[i * pitch + j - 1] - kPenalty;
      want[i * pitch + j] = std::max(diag, std::max(up, left));
    }
  }
  long bad = -1;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i] != want[i]) {
      bad = static_cast<long>(i);
      break;
    }
  }
  char detail[200];
  if (bad < 0) {
    std::snprintf(detail, sizeof detail, "n=%d tiles=%d launches=%d final_score=%d all cells exact", n, tiles,
                  2 * tiles - 1, want.back());
  } else {
    std::snprintf(detail, sizeof detail, "n=%d tiles=%d F[%ld][%ld]=%d want %d", n, tiles,
                  bad / static_cast<long>(pitch), bad % static_cast<long>(pitch), got[static_cast<std::size_t>(bad)],
                  want[static_cast<std::size_t>(bad)]);
  }
  return ws::report_check(kWorkload, bad < 0, detail);
}
