// A small program for checking the tracer on a GPU (scripts in build-diag, results in workloads/traces/README.md):
//   - forks first (before any CUDA call): the child launches `child_kernel` once, so a recording with %p in -o must
//     leave one trace per process;
//   - the parent launches `before_capture`, then cudaProfilerStart, `inside_capture` twice inside an NVTX range
//     "capture", cudaProfilerStop, then `after_capture`. With --capture-range cudaProfilerApi only the two
//     `inside_capture` launches belong in the trace; without it all four, and the NVTX range as a marker.
// Each process checks its kernels' result and prints `check tracer_features PASS|FAIL`.
#include <cuda_profiler_api.h>
#include <nvtx3/nvToolsExt.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

#include "workload.h"

namespace {

__global__ void before_capture(int* value) { atomicAdd(value, 1); }
__global__ void inside_capture(int* value) { atomicAdd(value, 10); }
__global__ void after_capture(int* value) { atomicAdd(value, 100); }
__global__ void child_kernel(int* value) { atomicAdd(value, 1000); }

int run_and_read(void (*launch)(int*)) {
  int* value = nullptr;
  WS_CHECK(cudaMalloc(&value, sizeof(int)));
  WS_CHECK(cudaMemset(value, 0, sizeof(int)));
  launch(value);
  int host = 0;
  WS_CHECK(cudaMemcpy(&host, value, sizeof(int), cudaMemcpyDeviceToHost));
  WS_CHECK(cudaFree(value));
  return host;
}

int child() {
  const int got = run_and_read([](int* v) { child_kernel<<<1, 1>>>(v); });
  std::printf("check tracer_features %s child value=%d\n", got == 1000 ? "PASS" : "FAIL", got);
  return got == 1000 ? 0 : 1;
}

int parent() {
  const int got = run_and_read([](int* v) {
    before_capture<<<1, 1>>>(v);
    WS_CHECK(cudaProfilerStart());
    nvtxRangePushA("capture");
    inside_capture<<<1, 1>>>(v);
    inside_capture<<<1, 1>>>(v);
    WS_CHECK(cudaDeviceSynchronize());
    nvtxRangePop();
    WS_CHECK(cudaProfilerStop());
    after_capture<<<1, 1>>>(v);
  });
  std::printf("check tracer_features %s parent value=%d\n", got == 121 ? "PASS" : "FAIL", got);
  return got == 121 ? 0 : 1;
}

}  // namespace

int main() {
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid < 0) return 2;
  if (pid == 0) return child();
  const int status = parent();
  int child_status = 0;
  waitpid(pid, &child_status, 0);
  return status != 0 || !WIFEXITED(child_status) || WEXITSTATUS(child_status) != 0;
}
