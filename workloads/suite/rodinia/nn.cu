// nn: k-nearest-neighbour search over a table of (latitude, longitude) records (Rodinia's nn, which searches
// hurricane records): the kernel nn_distance computes every record's Euclidean distance (in degrees) to the query
// point, one thread per record, records stored as an array of (lat, lng) float pairs; the host then selects the
// k = 16 records with the smallest distances (as Rodinia does on the CPU).
//
// Size: 2^24 records (128 MiB of records in, 64 MiB of distances out), 65536 blocks of 256 threads; the kernel
// sequence runs 3 times (--repeat). ~192 MiB per launch: measured ~105 us on an H100 (event timing).
//
// GPU behaviour exercised: a pure streaming kernel with 8-byte (float2) coalesced loads and 4-byte stores, a few
// flops and a sqrt per element: DRAM-bandwidth bound with a read:write ratio of 2:1.
//
// Usage: ws_nn [--records N] [--repeat R]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "nn";
constexpr int kBlock = 256;
constexpr int kNeighbours = 16;
constexpr float kQueryLat = 30.0f;   // Rodinia's default query point
constexpr float kQueryLng = 90.0f;

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernel.

/// distance[i] = |record[i] - query| with record[i] = (lat, lng).
__global__ void nn_distance(const float2* __restrict__ records, float* __restrict__ distance, int count, float lat,
                            float lng) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const float2 r = records[i];
  const float dlat = r.x - lat;
  const float dlng = r.y - lng;
  distance[i] = sqrtf(dlat * dlat + dlng * dlng);
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

/// Indices of the k smallest distances, nearest first (ties by index).
std::vector<int> k_nearest(const std::vector<float>& distance, int k) {
  std::vector<int> index(distance.size());
  std::iota(index.begin(), index.end(), 0);
  const auto closer = [&distance](int a, int b) {
    const float da = distance[static_cast<std::size_t>(a)];
    const float db = distance[static_cast<std::size_t>(b)];
    return da < db || (da == db && a < b);
  };
  std::partial_sort(index.begin(), index.begin() + k, index.end(), closer);
  index.resize(static_cast<std::size_t>(k));
  return index;
}

int usage(const char* message) {
  std::fprintf(stderr, "ws_nn: %s\nusage: ws_nn [--records N (%d..2^26)] [--repeat R (1..10)]\n", message,
               kNeighbours);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long records_arg = ws::arg_long(argc, argv, "records", 1L << 24);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 3);
  if (records_arg < kNeighbours || records_arg > (1L << 26)) return usage("--records out of range");
  if (repeat_arg < 1 || repeat_arg > 10) return usage("--repeat out of range");
  const int count = static_cast<int>(records_arg);
  const int repeat = static_cast<int>(repeat_arg);
  const std::size_t n = static_cast<std::size_t>(count);

  // Latitudes in [-90, 90), longitudes in [-180, 180).
  std::vector<float> raw(2 * n);
  ws::fill_random(raw, 41u);
  std::vector<float2> host_records(n);
  for (std::size_t i = 0; i < n; ++i) host_records[i] = make_float2(90.0f * raw[2 * i], 180.0f * raw[2 * i + 1]);

  DeviceBuffer<float2> records(n);
  DeviceBuffer<float> distance(n);
  records.upload(host_records);
  WS_CHECK(cudaMemset(distance.get(), 0xFF, distance.bytes()));  // NaN: an element never written fails

  const unsigned blocks = static_cast<unsigned>((count + kBlock - 1) / kBlock);
  ws::KernelTimer timer(kWorkload);
  std::vector<float> got;
  std::vector<int> got_nearest;
  for (int r = 0; r < repeat; ++r) {
    timer.start();
    nn_distance<<<blocks, kBlock>>>(records.get(), distance.get(), count, kQueryLat, kQueryLng);
    timer.stop("nn_distance");
    distance.download(got);
    got_nearest = k_nearest(got, kNeighbours);
  }

  // Reference distances in float (sqrt is correctly rounded on both sides; the GPU may fuse one multiply-add, so
  // allow a relative 1e-5); then the k nearest distances must agree (indices may differ only between equal
  // distances).
  std::vector<float> want(n);
  for (std::size_t i = 0; i < n; ++i) {
    const float dlat = host_records[i].x - kQueryLat;
    const float dlng = host_records[i].y - kQueryLng;
    want[i] = std::sqrt(dlat * dlat + dlng * dlng);
  }
  std::string failure;
  const long bad = ws::first_mismatch(got, want, 1e-5f, 1e-5f);
  if (bad >= 0) {
    char text[160];
    std::snprintf(text, sizeof text, "distance[%ld]=%.8g want %.8g", bad,
                  static_cast<double>(got[static_cast<std::size_t>(bad)]),
                  static_cast<double>(want[static_cast<std::size_t>(bad)]));
    failure = text;
  }
  const std::vector<int> want_nearest = k_nearest(want, kNeighbours);
  for (int j = 0; j < kNeighbours && failure.empty(); ++j) {
    const float g = want[static_cast<std::size_t>(got_nearest[static_cast<std::size_t>(j)])];
    const float w = want[static_cast<std::size_t>(want_nearest[static_cast<std::size_t>(j)])];
    if (!(std::fabs(g - w) <= 1e-5f * w + 1e-5f)) {
      char text[160];
      std::snprintf(text, sizeof text, "neighbour %d: record %d at %.8g, want record %d at %.8g", j,
                    got_nearest[static_cast<std::size_t>(j)], static_cast<double>(g),
                    want_nearest[static_cast<std::size_t>(j)], static_cast<double>(w));
      failure = text;
    }
  }
  char detail[256];
  std::snprintf(detail, sizeof detail, "records=%d k=%d nearest=%d at %.6g, %dth at %.6g %s", count, kNeighbours,
                want_nearest[0], static_cast<double>(want[static_cast<std::size_t>(want_nearest[0])]), kNeighbours,
                static_cast<double>(want[static_cast<std::size_t>(want_nearest[kNeighbours - 1])]),
                failure.empty() ? "all within tolerance" : failure.c_str());
  return ws::report_check(kWorkload, failure.empty(), detail);
}
