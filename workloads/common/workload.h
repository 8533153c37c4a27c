#pragma once
// Shared by every workload: error checks, CUDA-event timing of each kernel launch, a uniform report, a tiny
// argument reader, and the integer hash pseudo-random indices use. Each workload checks its own result against a CPU reference and exits non-zero if it is wrong.
//
// Output (stdout), one line per measurement, easy to grep and to parse:
//   timing <workload> <kernel-label> <launch-index> <milliseconds>
//   check <workload> PASS|FAIL <detail>
// Kernel labels are the __global__ function names, so they match the trace's (demangled) kernel names.

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#define WS_CHECK(call)                                                                                  \
  do {                                                                                                  \
    cudaError_t ws_status_ = (call);                                                                    \
    if (ws_status_ != cudaSuccess) {                                                                    \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                         \
                   cudaGetErrorString(ws_status_));                                                     \
      std::exit(2);                                                                                     \
    }                                                                                                   \
  } while (0)

namespace ws {

/// A 32-bit integer hash (lowbias32): pseudo-random addresses that device code and the host's checks agree on.
__host__ __device__ inline unsigned lowbias32(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

/// Reads "--name=value" or "--name value" from argv; returns `fallback` when absent.
inline long arg_long(int argc, char** argv, const char* name, long fallback) {
  const std::size_t n = std::strlen(name);
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--", 2) != 0 || std::strncmp(argv[i] + 2, name, n) != 0) continue;
    const char* rest = argv[i] + 2 + n;
    if (*rest == '=') return std::strtol(rest + 1, nullptr, 10);
    if (*rest == '\0' && i + 1 < argc) return std::strtol(argv[i + 1], nullptr, 10);
  }
  return fallback;
}

/// The first "--name" of argv (before any "=value") that is not in `known`, "help" included (callers print their usage
/// for it); nullopt when every option is known. ws::arg_* ignore unknown options: a typo should not silently run
/// another experiment than intended.
inline std::optional<std::string> first_unknown_option(int argc, char** argv,
                                                       std::initializer_list<const char*> known) {
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--", 2) != 0) continue;
    std::string name(argv[i] + 2, std::strcspn(argv[i] + 2, "="));
    bool found = false;
    for (const char* k : known) found = found || name == k;
    if (!found) return name;
  }
  return std::nullopt;
}

inline std::string arg_string(int argc, char** argv, const char* name, const char* fallback) {
  const std::size_t n = std::strlen(name);
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--", 2) != 0 || std::strncmp(argv[i] + 2, name, n) != 0) continue;
    const char* rest = argv[i] + 2 + n;
    if (*rest == '=') return rest + 1;
    if (*rest == '\0' && i + 1 < argc) return argv[i + 1];
  }
  return fallback;
}

/// Times kernel launches with CUDA events on one stream and prints one `timing` line per launch.
/// Usage: timer.start(stream); kernel<<<...,stream>>>(...); timer.stop(stream, "kernel_name");
class KernelTimer {
 public:
  explicit KernelTimer(const char* workload) : workload_(workload) {
    WS_CHECK(cudaEventCreate(&begin_));
    WS_CHECK(cudaEventCreate(&end_));
  }
  ~KernelTimer() {
    cudaEventDestroy(begin_);
    cudaEventDestroy(end_);
  }
  void start(cudaStream_t stream = nullptr) { WS_CHECK(cudaEventRecord(begin_, stream)); }
  /// Waits for the launch to finish and reports its time in milliseconds.
  float stop(const char* kernel, cudaStream_t stream = nullptr) {
    WS_CHECK(cudaEventRecord(end_, stream));
    WS_CHECK(cudaEventSynchronize(end_));
    WS_CHECK(cudaGetLastError());
    float ms = 0.0f;
    WS_CHECK(cudaEventElapsedTime(&ms, begin_, end_));
    std::printf("timing %s %s %d %.6f\n", workload_, kernel, launches_++, static_cast<double>(ms));
    return ms;
  }

 private:
  const char* workload_;
  cudaEvent_t begin_{};
  cudaEvent_t end_{};
  int launches_ = 0;
};

/// Prints the `check` line; returns the process exit status to use (0 on success).
inline int report_check(const char* workload, bool ok, const std::string& detail) {
  std::printf("check %s %s %s\n", workload, ok ? "PASS" : "FAIL", detail.c_str());
  return ok ? 0 : 1;
}

/// Relative-and-absolute tolerance comparison of float arrays; returns the index of the first mismatch or -1.
inline long first_mismatch(const std::vector<float>& got, const std::vector<float>& want, float rel = 1e-3f,
                           float abs_tol = 1e-4f) {
  for (std::size_t i = 0; i < got.size(); ++i) {
    const float diff = got[i] > want[i] ? got[i] - want[i] : want[i] - got[i];
    const float scale = want[i] > 0 ? want[i] : -want[i];
    if (diff > abs_tol + rel * scale || got[i] != got[i]) return static_cast<long>(i);
  }
  return -1;
}

/// Deterministic pseudo-random floats in [-1, 1) (no <random> differences between hosts).
inline void fill_random(std::vector<float>& values, unsigned seed) {
  unsigned state = seed * 2654435761u + 1u;
  for (float& v : values) {
    state = state * 1664525u + 1013904223u;
    v = static_cast<float>(state >> 8) / static_cast<float>(1u << 23) - 1.0f;
  }
}

}  // namespace ws
