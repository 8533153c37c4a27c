// ws_convolution: GPU-SM image filtering (Cabezas et al., GPGPU-8 2015, sections 3.3.2 and 6.2).
//
// The image is split in row bands, one per GPU. Each GPU computes its band's output and reads the halo rows it
// needs straight from its neighbours' bands through peer pointers (no halo copies), and reads the filter either
// from its own copy (replicated) or from GPU 0's copy (remote). Each GPU is driven by its own host thread, so a
// GPU's launches are timed with events on its own stream without waiting for the other GPUs.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "convolution.cuh"
#include "convolution_reference.h"
#include "gpu_resources.h"
#include "workload.h"

namespace {

constexpr const char* kWorkload = "convolution";
constexpr int kExitUsage = 2;
constexpr int kExitUnavailable = 3;  // the machine cannot run this configuration (GPUs, peer access)

struct Options {
  int filter = 3;
  int width = 8192;
  int height = 8192;
  int gpus = 1;
  bool remote_filter = false;
  bool cached = true;
  int repeat = 5;
};

void print_usage() {
  std::fprintf(stderr,
               "usage: ws_convolution [--filter 3|5] [--width W] [--height H] [--gpus G]\n"
               "                      [--filter-placement replicated|remote] [--cached 0|1] [--repeat R]\n"
               "defaults: --filter 3 --width 8192 --height 8192 --gpus 1 --filter-placement replicated --cached 1 "
               "--repeat 5\n");
}

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "ws_convolution: %s\n", message.c_str());
  print_usage();
  std::exit(kExitUsage);
}

/// Exits with the usage on --help, or with an error naming the first unknown option.
void reject_unknown_options(int argc, char** argv) {
  const std::optional<std::string> name = ws::first_unknown_option(argc, argv, {"filter", "width", "height", "gpus", "filter-placement", "cached", "repeat"});
  if (!name) return;
  if (*name == "help") {
    print_usage();
    std::exit(0);
  }
  usage_error("unknown option --" + *name);
}

int int_option(int argc, char** argv, const char* name, long fallback, long lo, long hi) {
  const long v = ws::arg_long(argc, argv, name, fallback);
  if (v < lo || v > hi) {
    std::string message = "--";
    message += name;
    usage_error(message + " must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  return static_cast<int>(v);
}

Options parse_options(int argc, char** argv) {
  reject_unknown_options(argc, argv);
  Options o;
  o.filter = int_option(argc, argv, "filter", 3, 3, 5);
  if (o.filter != 3 && o.filter != 5) usage_error("--filter must be 3 or 5");
  o.width = int_option(argc, argv, "width", 8192, 1, 1 << 20);
  o.height = int_option(argc, argv, "height", 8192, 1, 1 << 20);
  o.gpus = int_option(argc, argv, "gpus", 1, 1, 64);
  o.cached = int_option(argc, argv, "cached", 1, 0, 1) == 1;
  o.repeat = int_option(argc, argv, "repeat", 5, 1, 1000);
  const std::string placement = ws::arg_string(argc, argv, "filter-placement", "replicated");
  if (placement != "replicated" && placement != "remote") usage_error("--filter-placement must be replicated or remote");
  o.remote_filter = placement == "remote";
  return o;
}

/// Balanced row bands: band g holds rows [starts[g], starts[g+1]).
std::vector<int> band_starts(const Options& o) {
  std::vector<int> starts;
  for (int g = 0; g <= o.gpus; ++g) {
    starts.push_back(static_cast<int>(static_cast<long long>(g) * o.height / o.gpus));
  }
  return starts;
}

void check_bands(const Options& o, const std::vector<int>& starts) {
  const int radius = o.filter / 2;
  for (int g = 0; g < o.gpus; ++g) {
    const int rows = starts[static_cast<size_t>(g) + 1] - starts[static_cast<size_t>(g)];
    // The kernel looks for halo rows only in the two adjacent bands.
    if (o.gpus > 1 && rows < radius) usage_error("image too short: each band needs at least filter/2 rows");
    if (rows > 65535 * kConvBlockY) usage_error("band too tall for one launch (grid.y limit)");
  }
}

/// Every pair (device, peer) whose memory the device reads: both neighbours' bands, and GPU 0's filter when remote.
std::vector<std::pair<int, int>> needed_peers(const Options& o) {
  std::vector<std::pair<int, int>> pairs;
  for (int g = 0; g < o.gpus; ++g) {
    if (g > 0) pairs.emplace_back(g, g - 1);
    if (g + 1 < o.gpus) pairs.emplace_back(g, g + 1);
    if (o.remote_filter && g > 1) pairs.emplace_back(g, 0);  // g == 1 already maps GPU 0 as its neighbour
  }
  return pairs;
}

void require_devices(const Options& o) {
  int count = 0;
  WS_CHECK(cudaGetDeviceCount(&count));
  if (o.gpus > count) {
    std::fprintf(stderr, "ws_convolution: --gpus %d needs %d GPUs but only %d are visible\n", o.gpus, o.gpus, count);
    std::exit(kExitUnavailable);
  }
  for (const auto& [device, peer] : needed_peers(o)) {
    if (!ws::enable_peer_access(device, peer)) {
      std::fprintf(stderr,
                   "ws_convolution: GPU %d cannot access GPU %d's memory (cudaDeviceCanAccessPeer = 0); the GPU-SM "
                   "multi-GPU mode needs peer access between neighbouring GPUs\n",
                   device, peer);
      std::exit(kExitUnavailable);
    }
  }
}

/// One GPU's share: its input and output bands, its filter copy (absent when it reads GPU 0's), its stream.
struct GpuBand {
  int device = 0;
  int row_begin = 0;
  int row_end = 0;
  ws::DeviceFloats input;
  ws::DeviceFloats output;
  ws::DeviceFloats filter;
  ws::Stream stream;
};

std::size_t band_floats(const GpuBand& b, int width) {
  return static_cast<std::size_t>(b.row_end - b.row_begin) * static_cast<std::size_t>(width);
}

std::vector<GpuBand> upload_bands(const Options& o, const std::vector<int>& starts, const std::vector<float>& image,
                                  const std::vector<float>& filter) {
  std::vector<GpuBand> bands(static_cast<size_t>(o.gpus));
  for (int g = 0; g < o.gpus; ++g) {
    const ws::ScopedDevice on(g);  // copies and allocations below belong to GPU g
    GpuBand& b = bands[static_cast<size_t>(g)];
    b.device = g;
    b.row_begin = starts[static_cast<size_t>(g)];
    b.row_end = starts[static_cast<size_t>(g) + 1];
    const std::size_t n = band_floats(b, o.width);
    b.input = ws::device_floats(g, n);
    b.output = ws::device_floats(g, n);
    b.stream = ws::make_stream(g);
    const float* src = image.data() + static_cast<std::size_t>(b.row_begin) * static_cast<std::size_t>(o.width);
    WS_CHECK(cudaMemcpy(b.input.get(), src, n * sizeof(float), cudaMemcpyHostToDevice));
    if (!o.remote_filter || g == 0) {
      b.filter = ws::device_floats(g, filter.size());
      WS_CHECK(cudaMemcpy(b.filter.get(), filter.data(), filter.size() * sizeof(float), cudaMemcpyHostToDevice));
    }
  }
  return bands;
}

ConvArgs band_args(const Options& o, const std::vector<GpuBand>& bands, int g) {
  const GpuBand& b = bands[static_cast<size_t>(g)];
  ConvArgs a;
  a.self = b.input.get();
  if (g > 0) {
    a.above = bands[static_cast<size_t>(g) - 1].input.get();
    a.above_begin = bands[static_cast<size_t>(g) - 1].row_begin;
  }
  if (g + 1 < o.gpus) a.below = bands[static_cast<size_t>(g) + 1].input.get();
  a.row_begin = b.row_begin;
  a.row_end = b.row_end;
  a.width = o.width;
  a.height = o.height;
  a.filter = o.remote_filter ? bands[0].filter.get() : b.filter.get();
  a.radius = o.filter / 2;
  a.out = b.output.get();
  return a;
}

/// One GPU's host thread: `repeat` timed launches, each started together with the other GPUs' launches.
void run_gpu(const Options& o, const GpuBand& band, const ConvArgs& args, ws::Barrier& barrier) {
  WS_CHECK(cudaSetDevice(band.device));
  std::string label = convolution_kernel_name(o.cached);
  if (o.gpus > 1) label += "@gpu" + std::to_string(band.device);
  load_convolution_kernels();
  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < o.repeat; ++r) {
    barrier.arrive_and_wait();
    timer.start(band.stream.get());
    launch_convolution(args, o.cached, band.stream.get());
    timer.stop(label.c_str(), band.stream.get());
  }
}

void run_all(const Options& o, const std::vector<GpuBand>& bands) {
  ws::Barrier barrier(o.gpus);
  std::vector<std::thread> threads;
  for (int g = 0; g < o.gpus; ++g) {
    threads.emplace_back(run_gpu, std::cref(o), std::cref(bands[static_cast<size_t>(g)]), band_args(o, bands, g),
                         std::ref(barrier));
  }
  for (std::thread& t : threads) t.join();
}

std::vector<float> download(const Options& o, const std::vector<GpuBand>& bands) {
  std::vector<float> out(static_cast<std::size_t>(o.width) * static_cast<std::size_t>(o.height));
  for (const GpuBand& b : bands) {
    const ws::ScopedDevice on(b.device);
    float* dst = out.data() + static_cast<std::size_t>(b.row_begin) * static_cast<std::size_t>(o.width);
    WS_CHECK(cudaMemcpy(dst, b.output.get(), band_floats(b, o.width) * sizeof(float), cudaMemcpyDeviceToHost));
  }
  return out;
}

int check(const Options& o, const std::vector<int>& starts, const std::vector<float>& image,
          const std::vector<float>& filter, const std::vector<float>& out) {
  const std::vector<int> boundaries(starts.begin() + 1, starts.end() - 1);
  const auto samples = conv::sample_pixels(o.width, o.height, boundaries);
  std::vector<float> got;
  std::vector<float> want;
  for (const auto& [x, y] : samples) {
    got.push_back(out[static_cast<std::size_t>(y) * static_cast<std::size_t>(o.width) + static_cast<std::size_t>(x)]);
    want.push_back(conv::reference_pixel(image, o.width, o.height, filter, o.filter / 2, x, y));
  }
  const long bad = ws::first_mismatch(got, want);
  std::string detail = std::to_string(samples.size()) + " sampled pixels";
  if (bad >= 0) {
    const auto& [x, y] = samples[static_cast<std::size_t>(bad)];
    detail += "; first mismatch at (x=" + std::to_string(x) + ", y=" + std::to_string(y) +
              "): got " + std::to_string(got[static_cast<std::size_t>(bad)]) + ", want " +
              std::to_string(want[static_cast<std::size_t>(bad)]);
  }
  return ws::report_check(kWorkload, bad < 0, detail);
}

void print_setup(const Options& o, const std::vector<GpuBand>& bands) {
  std::printf("# convolution %dx%d, filter %dx%d, %d GPU(s), filter %s, %s loads, %d repeat(s)\n", o.width, o.height,
              o.filter, o.filter, o.gpus, o.remote_filter ? "remote (GPU 0's copy)" : "replicated",
              o.cached ? "__ldg (read-only cache)" : "plain", o.repeat);
  for (const GpuBand& b : bands) {
    cudaDeviceProp prop{};
    WS_CHECK(cudaGetDeviceProperties(&prop, b.device));
    std::printf("# gpu%d %s: rows [%d, %d)\n", b.device, prop.name, b.row_begin, b.row_end);
  }
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  const std::vector<int> starts = band_starts(o);
  check_bands(o, starts);
  require_devices(o);

  std::vector<float> image(static_cast<std::size_t>(o.width) * static_cast<std::size_t>(o.height));
  std::vector<float> filter(static_cast<std::size_t>(o.filter) * static_cast<std::size_t>(o.filter));
  ws::fill_random(image, 1u);
  ws::fill_random(filter, 2u);

  std::vector<GpuBand> bands = upload_bands(o, starts, image, filter);
  print_setup(o, bands);
  run_all(o, bands);
  const std::vector<float> out = download(o, bands);
  return check(o, starts, image, filter, out);
}
