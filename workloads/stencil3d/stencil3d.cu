// ws_stencil3d: the finite-difference 3D stencil of GPU-SM (Cabezas et al., GPGPU-8 2015, Section 6.1) on one GPU,
// or on several GPUs either "distributed" (halo planes exchanged with peer copies) or "GPU-SM" (neighbours' planes
// read remotely through peer pointers). See README.md.
//
// Checks: (a) always, a small single-GPU run against the CPU reference; (b) for the multi-GPU modes, the result
// against a single-GPU run of the same size on GPU 0 (a CPU reference at 256^3 with radius 16 would take minutes).

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cuda_raii.h"
#include "domain.h"
#include "multi_gpu.h"
#include "stencil_kernels.cuh"
#include "workload.h"

namespace {

using stencil::Extent3;
using stencil::RunConfig;
using stencil::RunResult;

constexpr const char* kWorkload = "stencil3d";
// Launches made only to check results are labelled apart, so that `timing stencil3d ...` lines are the measured run.
constexpr const char* kVerifyWorkload = "stencil3d_verify";
constexpr int kSmallEdge = 64;  // the CPU-checked domain (64^3, 3 iterations: well under a second on the CPU)
constexpr int kSmallIterations = 3;
constexpr float kRelTolerance = 1e-4f;
constexpr float kAbsTolerance = 1e-5f;  // values shrink towards 0 as the stencil smooths them

constexpr int kExitUsage = 2;
constexpr int kExitNoPeers = 3;

enum class Mode { kSingle, kDistributed, kGpusm };

struct Options {
  Mode mode;
  std::string mode_name;
  int gpus;  // resolved in main once the device count is known; -1 = default
  int radius;
  int axis;
  Extent3 dom;
  int iterations;
  bool reference;  // check (b)
};

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr,
               "ws_stencil3d: %s\n"
               "usage: ws_stencil3d [--mode single|distributed|gpusm] [--gpus G] [--radius 1..16] [--decomp x|y|z]\n"
               "                    [--nx N] [--ny N] [--nz N] [--iterations I] [--reference 0|1]\n",
               message.c_str());
  std::exit(kExitUsage);
}

int int_arg(int argc, char** argv, const char* name, long fallback, long min, long max) {
  const long value = ws::arg_long(argc, argv, name, fallback);
  if (value < min || value > max) {
    usage_error("--" + std::string(name) + " must be in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  }
  return static_cast<int>(value);
}

Options parse_options(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") usage_error("help");
  }
  Options opt{};
  opt.mode_name = ws::arg_string(argc, argv, "mode", "single");
  if (opt.mode_name == "single") {
    opt.mode = Mode::kSingle;
  } else if (opt.mode_name == "distributed") {
    opt.mode = Mode::kDistributed;
  } else if (opt.mode_name == "gpusm") {
    opt.mode = Mode::kGpusm;
  } else {
    usage_error("unknown --mode " + opt.mode_name);
  }
  opt.gpus = int_arg(argc, argv, "gpus", -1, -1, stencil::kMaxGpus);
  if (opt.gpus == 0) usage_error("--gpus must be at least 1");
  opt.radius = int_arg(argc, argv, "radius", 4, 1, stencil::kMaxRadius);
  const std::string decomp = ws::arg_string(argc, argv, "decomp", "z");
  if (decomp != "x" && decomp != "y" && decomp != "z") usage_error("--decomp must be x, y or z");
  opt.axis = decomp[0] - 'x';
  const int min_edge = 2 * opt.radius + 1;  // at least one point that is not boundary
  opt.dom.n[0] = int_arg(argc, argv, "nx", 256, min_edge, 4096);
  opt.dom.n[1] = int_arg(argc, argv, "ny", 256, min_edge, 4096);
  opt.dom.n[2] = int_arg(argc, argv, "nz", 256, min_edge, 4096);
  opt.iterations = int_arg(argc, argv, "iterations", 20, 1, 1000000);
  opt.reference = int_arg(argc, argv, "reference", 1, 0, 1) != 0;
  return opt;
}

/// Picks the GPU count and prepares peer access; exits with a message when the machine cannot run the request.
int resolve_gpus(const Options& opt) {
  int visible = 0;
  WS_CHECK(cudaGetDeviceCount(&visible));
  if (opt.mode == Mode::kSingle) {
    if (opt.gpus > 1) usage_error("--mode single runs on one GPU; use --mode distributed or gpusm for --gpus > 1");
    return 1;
  }
  const int gpus = opt.gpus > 0 ? opt.gpus : (visible < stencil::kMaxGpus ? visible : stencil::kMaxGpus);
  if (gpus > visible) {
    std::fprintf(stderr, "ws_stencil3d: --gpus %d asked but only %d GPU(s) visible\n", gpus, visible);
    std::exit(kExitNoPeers);
  }
  if (gpus > 1 && !stencil::enable_neighbour_peer_access(gpus)) {
    std::fprintf(stderr,
                 "ws_stencil3d: --mode %s needs peer access between neighbouring GPUs, and cudaDeviceCanAccessPeer "
                 "says no for some pair of GPUs 0..%d\n",
                 opt.mode == Mode::kGpusm ? "gpusm" : "distributed", gpus - 1);
    std::exit(kExitNoPeers);
  }
  return gpus;
}

/// Every slab must be at least `radius` planes thick: halos (and GPU-SM's remote reads) then come from the
/// adjacent GPUs only.
void check_slabs(const Options& opt, int gpus) {
  const int planes = opt.dom.n[opt.axis];
  if (planes / gpus < opt.radius) {
    usage_error("the decomposed axis has " + std::to_string(planes) + " planes: fewer than --radius " +
                std::to_string(opt.radius) + " per GPU with " + std::to_string(gpus) + " GPUs");
  }
}

/// `iterations` Jacobi steps of the whole domain on GPU 0 with stencil_single, one timed launch each.
RunResult run_single(const Extent3& dom, int radius, int iterations, const std::vector<float>& initial,
                     ws::KernelTimer& timer) {
  stencil::ScopedDevice guard(0);
  const stencil::Layout layout = stencil::slab_layout(dom, 2, 0, dom.n[2], 0);
  const stencil::Box3 box = stencil::full_box(dom);
  stencil::DeviceBuffer field[2] = {stencil::DeviceBuffer(0, initial.size()), stencil::DeviceBuffer(0, initial.size())};
  field[0].upload(initial);
  field[1].upload(initial);
  const stencil::Stream stream(0);
  const cudaStream_t s = stream.get();
  WS_CHECK(cudaDeviceSynchronize());
  const auto start = std::chrono::steady_clock::now();
  for (int t = 0; t < iterations; ++t) {
    timer.start(s);
    stencil::launch_single(s, field[t & 1].get(), field[(t + 1) & 1].get(), layout, box, dom, radius);
    timer.stop("stencil_single", s);
  }
  WS_CHECK(cudaDeviceSynchronize());
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return RunResult{field[iterations & 1].download(), ms};
}

struct Comparison {
  long first_mismatch;
  double max_abs_error;
};

Comparison compare(const std::vector<float>& got, const std::vector<float>& want) {
  Comparison c{ws::first_mismatch(got, want, kRelTolerance, kAbsTolerance), 0.0};
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double d = static_cast<double>(got[i]) - static_cast<double>(want[i]);
    if (d > c.max_abs_error || -d > c.max_abs_error) c.max_abs_error = d < 0 ? -d : d;
  }
  return c;
}

std::string describe(const char* what, const Comparison& c) {
  const bool ok = c.first_mismatch < 0;
  char error[32];
  std::snprintf(error, sizeof(error), "%.3g", c.max_abs_error);
  std::string text = std::string(what) + "=" + (ok ? "ok" : "MISMATCH") + "(max_abs_err=" + error;
  if (!ok) text += ",first_at=" + std::to_string(c.first_mismatch);
  return text + ")";
}

/// Check (a): stencil_single on a 64^3 domain against the CPU reference.
Comparison check_small_domain(int radius, ws::KernelTimer& timer) {
  const Extent3 dom{{kSmallEdge, kSmallEdge, kSmallEdge}};
  std::vector<float> initial(static_cast<std::size_t>(dom.count()));
  ws::fill_random(initial, 64);
  const RunResult gpu = run_single(dom, radius, kSmallIterations, initial, timer);
  const std::vector<float> cpu =
      stencil::cpu_reference(initial, dom, radius, stencil::make_coefficients(radius), kSmallIterations);
  return compare(gpu.field, cpu);
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse_options(argc, argv);
  const int gpus = resolve_gpus(opt);
  if (opt.mode != Mode::kSingle) check_slabs(opt, gpus);
  const char* decomp_names[] = {"x", "y", "z"};
  std::printf("info %s mode=%s gpus=%d radius=%d decomp=%s n=%dx%dx%d iterations=%d\n", kWorkload,
              opt.mode_name.c_str(), gpus, opt.radius, decomp_names[opt.axis], opt.dom.n[0], opt.dom.n[1], opt.dom.n[2],
              opt.iterations);

  WS_CHECK(cudaSetDevice(0));
  stencil::upload_coefficients(stencil::make_coefficients(opt.radius));  // GPU 0: single and reference runs
  ws::KernelTimer verify_timer(kVerifyWorkload);

  const Comparison small = check_small_domain(opt.radius, verify_timer);
  std::string detail = "mode=" + opt.mode_name + " gpus=" + std::to_string(gpus) +
                       " radius=" + std::to_string(opt.radius) + " decomp=" + decomp_names[opt.axis] + " " +
                       describe("small_vs_cpu", small);
  bool ok = small.first_mismatch < 0;

  std::vector<float> initial(static_cast<std::size_t>(opt.dom.count()));
  ws::fill_random(initial, 2015);
  const RunConfig config{opt.dom, opt.radius, opt.axis, gpus, opt.iterations};

  if (opt.mode == Mode::kSingle) {
    ws::KernelTimer timer(kWorkload);
    const RunResult run = run_single(opt.dom, opt.radius, opt.iterations, initial, timer);
    std::printf("timing %s total_iterations 0 %.6f\n", kWorkload, run.loop_ms);
  } else {
    const RunResult run = opt.mode == Mode::kDistributed ? stencil::run_distributed(config, initial)
                                                         : stencil::run_gpusm(config, initial);
    std::printf("timing %s total_iterations 0 %.6f\n", kWorkload, run.loop_ms);
    if (opt.reference) {
      const RunResult single = run_single(opt.dom, opt.radius, opt.iterations, initial, verify_timer);
      const Comparison multi = compare(run.field, single.field);
      detail += " " + describe("multi_vs_single", multi);
      ok = ok && multi.first_mismatch < 0;
    } else {
      detail += " multi_vs_single=skipped";
    }
  }
  return ws::report_check(kWorkload, ok, detail);
}
