// microbench_launch: launches of an empty kernel, the data the analytical wave model (seed 001, Kleimenov & Popova
// 2021) fits its launch time on: t_launch = gridSize * x1 + x0, one linear regression per block size.
// See README.md.
//
//   --mode sweep (default): every (threads, blocks) pair of --threads-list x --blocks-list, one warm-up launch
//       (not reported) then --repeat timed launches, each timed on its own with CUDA events.
//   --mode back-to-back: --count launches of one configuration (--threads, --blocks) with no synchronization in
//       between; reports the total time over the count. Also the workload that measures the tracer's overhead.

#include "gpu_resources.h"
#include "workload.h"

#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

/// Does nothing: all its time is launch, block scheduling and teardown. At global scope so the traced name is
/// exactly "empty_kernel". The compiler cannot drop a launch, whatever the body.
__global__ void empty_kernel() {}

namespace {

constexpr const char* kWorkload = "microbench_launch";
constexpr const char* kDefaultThreads = "32,64,128,256,512,1024";
// 1 block, then 1 to 128 blocks per SM of a 132-SM Hopper (H100 SXM / H200).
constexpr const char* kDefaultBlocks = "1,132,264,528,1056,2112,4224,8448,16896";

[[noreturn]] void usage(const char* program, const std::string& problem) {
  std::fprintf(stderr,
               "%s: %s\nusage: %s [--mode sweep|back-to-back]\n"
               "  sweep:        [--threads-list %s] [--blocks-list %s] [--repeat 5]\n"
               "  back-to-back: [--threads 256] [--blocks 132] [--count 2000]\n",
               program, problem.c_str(), program, kDefaultThreads, kDefaultBlocks);
  std::exit(2);
}

/// Parses a comma-separated list of positive ints; an empty or malformed item is a usage error.
std::vector<int> parse_list(const char* program, const char* name, const std::string& text) {
  std::vector<int> values;
  std::size_t begin = 0;
  while (true) {
    const std::size_t comma = text.find(',', begin);
    const std::string item = text.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin);
    char* end = nullptr;
    const long value = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || value <= 0 || value > INT_MAX)
      usage(program, std::string("bad item '") + item + "' in --" + name);
    values.push_back(static_cast<int>(value));
    if (comma == std::string::npos) return values;
    begin = comma + 1;
  }
}

int positive_int(const char* program, int argc, char** argv, const char* name, long fallback) {
  const long value = ws::arg_long(argc, argv, name, fallback);
  if (value <= 0 || value > INT_MAX) usage(program, std::string("--") + name + " must be a positive int");
  return static_cast<int>(value);
}

/// Launches one empty kernel and returns the launch's own error (bad configuration), clearing it.
cudaError_t launch(int blocks, int threads) {
  empty_kernel<<<static_cast<unsigned>(blocks), static_cast<unsigned>(threads)>>>();
  return cudaGetLastError();
}

std::string label(int threads, int blocks) {
  return "empty_kernel[b=" + std::to_string(threads) + ",g=" + std::to_string(blocks) + "]";
}

/// Records the first failing launch; the run goes on so that one bad configuration does not hide the others.
struct Failures {
  long count = 0;
  std::string first;
  void add(const std::string& where, cudaError_t status) {
    if (count++ == 0) first = where + ":" + cudaGetErrorString(status);
  }
};

int run_sweep(const std::vector<int>& threads_list, const std::vector<int>& blocks_list, int repeats) {
  ws::KernelTimer timer(kWorkload);
  Failures failures;
  long launches = 0;
  for (const int threads : threads_list) {
    for (const int blocks : blocks_list) {
      const std::string name = label(threads, blocks);
      // Warm-up: the first launch of a configuration (and of the kernel: lazy module loading) is slower.
      ++launches;
      if (const cudaError_t status = launch(blocks, threads); status != cudaSuccess) {
        failures.add(name, status);
        continue;
      }
      WS_CHECK(cudaDeviceSynchronize());
      for (int rep = 0; rep < repeats; ++rep) {
        timer.start();
        ++launches;
        if (const cudaError_t status = launch(blocks, threads); status != cudaSuccess) {
          failures.add(name, status);
          break;
        }
        timer.stop(name.c_str());  // synchronizes, so each launch is timed alone
      }
    }
  }
  const cudaError_t status = cudaDeviceSynchronize();
  if (status != cudaSuccess) failures.add("final-synchronize", status);
  std::string detail = "mode=sweep configurations=" + std::to_string(threads_list.size() * blocks_list.size()) +
                       " repeats=" + std::to_string(repeats) + " launches=" + std::to_string(launches) +
                       " failed=" + std::to_string(failures.count);
  if (failures.count > 0) detail += " first_failure=" + failures.first;
  return ws::report_check(kWorkload, failures.count == 0, detail);
}

using ws::Event;

int run_back_to_back(int threads, int blocks, int count) {
  Failures failures;
  // Warm-up, not counted: loads the kernel and sets up the configuration.
  if (const cudaError_t status = launch(blocks, threads); status != cudaSuccess) failures.add("warm-up", status);
  WS_CHECK(cudaDeviceSynchronize());

  Event begin;
  Event end;
  const auto host_begin = std::chrono::steady_clock::now();
  WS_CHECK(cudaEventRecord(begin.get()));
  // No per-launch error check: the runtime keeps the last launch error until cudaGetLastError reads it, so one
  // check after the loop sees any failure without adding host work between launches.
  for (int i = 0; i < count; ++i) empty_kernel<<<static_cast<unsigned>(blocks), static_cast<unsigned>(threads)>>>();
  WS_CHECK(cudaEventRecord(end.get()));
  WS_CHECK(cudaEventSynchronize(end.get()));
  const auto host_end = std::chrono::steady_clock::now();
  if (const cudaError_t status = cudaGetLastError(); status != cudaSuccess)
    failures.add(label(threads, blocks), status);
  if (const cudaError_t status = cudaDeviceSynchronize(); status != cudaSuccess)
    failures.add("final-synchronize", status);

  float total_ms = 0.0f;
  WS_CHECK(cudaEventElapsedTime(&total_ms, begin.get(), end.get()));
  const double per_launch_ms = static_cast<double>(total_ms) / count;
  const double host_ms = std::chrono::duration<double, std::milli>(host_end - host_begin).count();
  std::printf("timing %s empty_kernel_back_to_back 0 %.6f\n", kWorkload, per_launch_ms);
  // Host wall time as well, for information only (stderr keeps stdout to timing/check lines).
  std::fprintf(stderr,
               "%s: %d back-to-back launches <<<%d, %d>>>: events %.3f ms, host wall %.3f ms (%.6f ms/launch)\n",
               kWorkload, count, blocks, threads, static_cast<double>(total_ms), host_ms, host_ms / count);

  std::string detail = "mode=back-to-back threads=" + std::to_string(threads) + " blocks=" + std::to_string(blocks) +
                       " count=" + std::to_string(count) + " launches=" + std::to_string(count + 1);
  if (failures.count > 0) detail += " first_failure=" + failures.first;
  return ws::report_check(kWorkload, failures.count == 0, detail);
}

}  // namespace

int main(int argc, char** argv) {
  const char* program = argv[0];
  const std::string mode = ws::arg_string(argc, argv, "mode", "sweep");
  if (mode == "sweep") {
    const std::vector<int> threads =
        parse_list(program, "threads-list", ws::arg_string(argc, argv, "threads-list", kDefaultThreads));
    const std::vector<int> blocks =
        parse_list(program, "blocks-list", ws::arg_string(argc, argv, "blocks-list", kDefaultBlocks));
    return run_sweep(threads, blocks, positive_int(program, argc, argv, "repeat", 5));
  }
  if (mode == "back-to-back") {
    const int threads = positive_int(program, argc, argv, "threads", 256);
    const int blocks = positive_int(program, argc, argv, "blocks", 132);
    return run_back_to_back(threads, blocks, positive_int(program, argc, argv, "count", 2000));
  }
  usage(program, "unknown --mode '" + mode + "'");
}
