// kmeans: Lloyd's k-means clustering (Rodinia's kmeans, after NU-MineBench): each iteration assigns every point to
// its nearest centroid (squared Euclidean distance) and then recomputes each centroid as the mean of its points.
//   kmeans_assign: one thread per point; the point's 32 features are read from a feature-major array
//     (features[f * npoints + p], so that a warp's loads of one feature are contiguous) into registers, the k = 16
//     centroids come from __constant__ memory (every lane reads the same centroid element: a broadcast), and the
//     index of the nearest centroid is written to `membership`.
//   kmeans_centroid_sum: each block accumulates per-cluster feature sums and counts of its points in shared memory
//     with shared atomics, then adds its 16 x 33 partials to the global sums with global atomics. The host divides
//     sums by counts and uploads the new centroids (Rodinia also finishes the centroids on the CPU).
// Points are 16 blobs (uniform noise) around random centres; the initial centroids are the first 16 points.
//
// Size: 2^21 points x 32 features (256 MiB), k = 16, 4 iterations of 2 kernels (8 launches).
// kmeans_assign reads 256 MiB and does 2^21 * 16 * 32 * 3 = 3.2 GFLOP (measured ~115-135 us on an H100);
// kmeans_centroid_sum reads 264 MiB and does 2^21 * 33 shared atomics in 1056 blocks of 256 threads (~8 points per
// thread). At each feature step all 32 lanes of a warp address s_sums[c * 32 + f], i.e. the same bank: lanes of
// different clusters conflict on the bank, lanes of the same cluster collide on the address. sm_90 has no
// shared-memory float add, so each atomicAdd on s_sums compiles to a compare-and-swap loop (ATOMS.CAST.SPIN) that
// retries under those collisions: measured ~3.8 ms per launch on an H100.
//
// GPU behaviour exercised: constant-cache broadcast operands in an FMA-heavy loop, 32 live feature registers per
// thread (40 registers), shared-memory float atomics (CAS loops) with intra-warp address collisions, and a modest
// number of contended global atomics (1056 blocks x 528 addresses).
//
// Usage: ws_kmeans [--points P] [--iterations I]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "kmeans";
constexpr int kFeatures = 32;
constexpr int kClusters = 16;
constexpr int kBlock = 256;
constexpr int kSumBlocks = 1056;  // 8 per SM on a 132-SM H100; grid-stride over the points

using ws::DeviceBuffer;

__constant__ float c_centroids[kClusters * kFeatures];

// ---------------------------------------------------------------------------------------------------------------
// Kernels.

/// membership[p] = argmin_c |x_p - centroid_c|^2 (the first of equal distances).
__global__ void kmeans_assign(const float* __restrict__ features, int* __restrict__ membership, int npoints) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= npoints) return;
  float x[kFeatures];
#pragma unroll
  for (int f = 0; f < kFeatures; ++f) x[f] = features[static_cast<long>(f) * npoints + p];
  int best = 0;
  float best_distance = 3.402823e38f;
  for (int c = 0; c < kClusters; ++c) {
    float distance = 0.0f;
#pragma unroll
    for (int f = 0; f < kFeatures; ++f) {
      const float d = x[f] - c_centroids[c * kFeatures + f];
      distance += d * d;
    }
    if (distance < best_distance) {
      best_distance = distance;
      best = c;
    }
  }
  membership[p] = best;
}

/// sums[c * kFeatures + f] += sum of feature f over the points of cluster c; counts[c] += their number.
__global__ void kmeans_centroid_sum(const float* __restrict__ features, const int* __restrict__ membership,
                                    float* __restrict__ sums, int* __restrict__ counts, int npoints) {
  __shared__ float s_sums[kClusters * kFeatures];
  __shared__ int s_counts[kClusters];
  for (int i = threadIdx.x; i < kClusters * kFeatures; i += blockDim.x) s_sums[i] = 0.0f;
  if (threadIdx.x < kClusters) s_counts[threadIdx.x] = 0;
  __syncthreads();
  for (int p = blockIdx.x * blockDim.x + threadIdx.x; p < npoints; p += gridDim.x * blockDim.x) {
    const int c = membership[p];
    for (int f = 0; f < kFeatures; ++f) {
      atomicAdd(&s_sums[c * kFeatures + f], features[static_cast<long>(f) * npoints + p]);
    }
    atomicAdd(&s_counts[c], 1);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < kClusters * kFeatures; i += blockDim.x) atomicAdd(&sums[i], s_sums[i]);
  if (threadIdx.x < kClusters) atomicAdd(&counts[threadIdx.x], s_counts[threadIdx.x]);
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

int usage(const char* message) {
  std::fprintf(stderr, "ws_kmeans: %s\nusage: ws_kmeans [--points P (1024..2^23)] [--iterations I (1..15)]\n",
               message);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long points_arg = ws::arg_long(argc, argv, "points", 1L << 21);
  const long iterations_arg = ws::arg_long(argc, argv, "iterations", 4);
  if (points_arg < 1024 || points_arg > (1L << 23)) return usage("--points out of range");
  if (iterations_arg < 1 || iterations_arg > 15) return usage("--iterations out of range");  // 2 launches each
  const int npoints = static_cast<int>(points_arg);
  const int iterations = static_cast<int>(iterations_arg);
  const std::size_t np = static_cast<std::size_t>(npoints);

  // Blob centres in [2, 10)^32; each point = its blob's centre + noise in [-1.5, 1.5) per feature, so every feature
  // is positive. The blob of point p is a hash of p, so the first 16 points (the initial centroids) come from a mix
  // of blobs.
  std::vector<float> centres(kClusters * kFeatures);
  ws::fill_random(centres, 31u);
  for (float& v : centres) v = 6.0f + 4.0f * v;
  std::vector<float> host_features(np * kFeatures);
  ws::fill_random(host_features, 32u);
  // Host loops walk the feature-major array one feature row at a time: a walk across features for each point
  // would stride by 8 MiB, which maps every access of a point to the same cache set.
  const auto blob_of = [](std::size_t p) { return (static_cast<unsigned>(p) * 2654435761u >> 16) % kClusters; };
  for (int f = 0; f < kFeatures; ++f) {
    float* row = host_features.data() + static_cast<std::size_t>(f) * np;
    for (std::size_t p = 0; p < np; ++p) row[p] = centres[blob_of(p) * kFeatures + f] + 1.5f * row[p];
  }
  std::vector<float> centroids(kClusters * kFeatures);
  for (int c = 0; c < kClusters; ++c) {
    for (int f = 0; f < kFeatures; ++f) {
      centroids[c * kFeatures + f] = host_features[static_cast<std::size_t>(f) * np + c];
    }
  }

  DeviceBuffer<float> features(np * kFeatures);
  DeviceBuffer<int> membership(np);
  DeviceBuffer<float> sums(kClusters * kFeatures);
  DeviceBuffer<int> counts(kClusters);
  features.upload(host_features);

  const unsigned assign_blocks = static_cast<unsigned>((npoints + kBlock - 1) / kBlock);
  std::vector<float> host_sums;
  std::vector<int> host_counts;
  std::vector<float> last_centroids;  // the centroids the final assignment used
  ws::KernelTimer timer(kWorkload);
  for (int it = 0; it < iterations; ++it) {
    WS_CHECK(cudaMemcpyToSymbol(c_centroids, centroids.data(), centroids.size() * sizeof(float)));
    last_centroids = centroids;
    timer.start();
    kmeans_assign<<<assign_blocks, kBlock>>>(features.get(), membership.get(), npoints);
    timer.stop("kmeans_assign");
    sums.zero();
    counts.zero();
    timer.start();
    kmeans_centroid_sum<<<kSumBlocks, kBlock>>>(features.get(), membership.get(), sums.get(), counts.get(), npoints);
    timer.stop("kmeans_centroid_sum");
    sums.download(host_sums);
    counts.download(host_counts);
    for (int c = 0; c < kClusters; ++c) {
      if (host_counts[static_cast<std::size_t>(c)] == 0) continue;  // an empty cluster keeps its centroid
      for (int f = 0; f < kFeatures; ++f) {
        centroids[c * kFeatures + f] = host_sums[static_cast<std::size_t>(c * kFeatures + f)] /
                                       static_cast<float>(host_counts[static_cast<std::size_t>(c)]);
      }
    }
  }
  std::vector<int> got_membership;
  membership.download(got_membership);

  // Check of the last iteration, on its own inputs (float atomics make the sums' rounding order-dependent, so
  // earlier iterations' centroids are taken from the GPU run rather than replayed):
  // 1. the assigned centroid is the nearest one in double, up to 1e-4 relative (float distance rounding can swap
  //    near-ties), for every fourth chunk of 256 points (a quarter of the points, to bound the CPU time);
  // 2. counts are exact, and every feature sum is within 1e-4 of its double reference over all points (all features
  //    are positive, so that is relative to the sum's magnitude; float accumulation of ~2000 points per block and
  //    1056 partials stays near 1e-6).
  std::string failure;
  long near_ties = 0;
  long checked = 0;
  std::vector<double> want_sums(kClusters * kFeatures, 0.0);
  std::vector<long> want_counts(kClusters, 0);
  // Host loops walk the feature-major array one feature row at a time (points innermost: contiguous, vectorisable).
  constexpr std::size_t kChunk = 256;
  std::vector<double> distance(kClusters * kChunk);
  for (std::size_t p0 = 0; p0 < np && failure.empty(); p0 += kChunk) {
    const std::size_t len = std::min(kChunk, np - p0);
    const int* m = got_membership.data() + p0;
    for (std::size_t q = 0; q < len && failure.empty(); ++q) {
      if (m[q] < 0 || m[q] >= kClusters) {
        char text[80];
        std::snprintf(text, sizeof text, "membership[%zu]=%d", p0 + q, m[q]);
        failure = text;
      } else {
        ++want_counts[static_cast<std::size_t>(m[q])];
      }
    }
    if (!failure.empty()) break;
    for (int f = 0; f < kFeatures; ++f) {
      const float* x = host_features.data() + static_cast<std::size_t>(f) * np + p0;
      for (std::size_t q = 0; q < len; ++q) want_sums[static_cast<std::size_t>(m[q] * kFeatures + f)] += x[q];
    }
    if ((p0 / kChunk) % 4 != 0) continue;
    std::fill(distance.begin(), distance.end(), 0.0);
    for (int f = 0; f < kFeatures; ++f) {
      const float* x = host_features.data() + static_cast<std::size_t>(f) * np + p0;
      for (int c = 0; c < kClusters; ++c) {
        const double centre = last_centroids[c * kFeatures + f];
        double* dist = distance.data() + static_cast<std::size_t>(c) * kChunk;
        for (std::size_t q = 0; q < len; ++q) {
          const double d = static_cast<double>(x[q]) - centre;
          dist[q] += d * d;
        }
      }
    }
    for (std::size_t q = 0; q < len; ++q) {
      double best = 1e300;
      for (int c = 0; c < kClusters; ++c) best = std::min(best, distance[static_cast<std::size_t>(c) * kChunk + q]);
      const double mine = distance[static_cast<std::size_t>(m[q]) * kChunk + q];
      ++checked;
      if (!(mine <= best * (1.0 + 1e-4) + 1e-6)) {
        char text[160];
        std::snprintf(text, sizeof text, "membership[%zu]=%d at distance %.6g, nearest at %.6g", p0 + q, m[q], mine,
                      best);
        failure = text;
        break;
      }
      if (mine != best) ++near_ties;
    }
  }
  for (int c = 0; c < kClusters && failure.empty(); ++c) {
    if (host_counts[static_cast<std::size_t>(c)] != want_counts[static_cast<std::size_t>(c)]) {
      char text[120];
      std::snprintf(text, sizeof text, "count[%d]=%d want %ld", c, host_counts[static_cast<std::size_t>(c)],
                    want_counts[static_cast<std::size_t>(c)]);
      failure = text;
    }
    for (int f = 0; f < kFeatures && failure.empty(); ++f) {
      const std::size_t i = static_cast<std::size_t>(c * kFeatures + f);
      const double error = std::fabs(static_cast<double>(host_sums[i]) - want_sums[i]);
      if (!(error <= 1e-4 * std::fabs(want_sums[i]) + 1e-3)) {
        char text[120];
        std::snprintf(text, sizeof text, "sum[%d][%d]=%.8g want %.8g", c, f, static_cast<double>(host_sums[i]),
                      want_sums[i]);
        failure = text;
      }
    }
  }
  const long smallest = *std::min_element(want_counts.begin(), want_counts.end());
  char detail[256];
  std::snprintf(detail, sizeof detail,
                "points=%d features=%d k=%d iterations=%d smallest_cluster=%ld nearest_checked=%ld near_ties=%ld %s",
                npoints, kFeatures, kClusters, iterations, smallest, checked, near_ties,
                failure.empty() ? "all within tolerance" : failure.c_str());
  return ws::report_check(kWorkload, failure.empty(), detail);
}
