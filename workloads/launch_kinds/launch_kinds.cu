// Launches one small kernel in every way an application can, so that the tracer's handling of each is checked on
// a GPU: <<<>>>, cudaLaunchCooperativeKernel, cudaLaunchKernelEx with a thread-block cluster (sm_90), a CUDA graph
// of two kernels, and kernels from a second host thread. Each writes a known pattern that the program checks.
#include <cooperative_groups.h>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "device_buffer.h"
#include "workload.h"

namespace {

constexpr int kBlocks = 264;  // two per SM on a 132-SM GPU: cooperative launches must fit on the GPU at once
constexpr int kThreads = 256;
constexpr int kElements = kBlocks * kThreads;

__global__ void fill_regular(int* out, int value) { out[blockIdx.x * blockDim.x + threadIdx.x] = value; }

__global__ void fill_cooperative(int* out, int value) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = value;
  cooperative_groups::this_grid().sync();  // needs a cooperative launch
}

__global__ void __cluster_dims__(2, 1, 1) fill_cluster(int* out, int value) {
  cooperative_groups::this_cluster().sync();
  out[blockIdx.x * blockDim.x + threadIdx.x] = value;
}

__global__ void add_in_graph(int* out, int value) { out[blockIdx.x * blockDim.x + threadIdx.x] += value; }

bool all_equal(const ws::DeviceBuffer<int>& buffer, int want) {
  std::vector<int> host;
  buffer.download(host);
  for (int v : host)
    if (v != want) return false;
  return true;
}

int check(const char* how, bool ok) { return ws::report_check("launch_kinds", ok, how); }

int run_regular(ws::DeviceBuffer<int>& out, ws::KernelTimer& timer) {
  timer.start();
  fill_regular<<<kBlocks, kThreads>>>(out.get(), 1);
  timer.stop("fill_regular");
  return check("regular", all_equal(out, 1));
}

int run_cooperative(ws::DeviceBuffer<int>& out, ws::KernelTimer& timer) {
  int* pointer = out.get();
  int value = 2;
  void* args[] = {&pointer, &value};
  timer.start();
  WS_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(fill_cooperative), kBlocks, kThreads, args));
  timer.stop("fill_cooperative");
  return check("cooperative", all_equal(out, 2));
}

int run_cluster(ws::DeviceBuffer<int>& out, ws::KernelTimer& timer) {
  cudaLaunchConfig_t config{};
  config.gridDim = kBlocks;
  config.blockDim = kThreads;
  timer.start();
  WS_CHECK(cudaLaunchKernelEx(&config, fill_cluster, out.get(), 3));
  timer.stop("fill_cluster");
  return check("cluster (cudaLaunchKernelEx)", all_equal(out, 3));
}

// A graph of two dependent kernels captured from a stream, launched twice: +4 +5 each time, on top of 3.
int run_graph(ws::DeviceBuffer<int>& out, ws::KernelTimer& timer) {
  cudaStream_t stream = nullptr;
  WS_CHECK(cudaStreamCreate(&stream));
  cudaGraph_t graph = nullptr;
  WS_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  add_in_graph<<<kBlocks, kThreads, 0, stream>>>(out.get(), 4);
  add_in_graph<<<kBlocks, kThreads, 0, stream>>>(out.get(), 5);
  WS_CHECK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec = nullptr;
  WS_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int launch = 0; launch < 2; ++launch) {
    timer.start(stream);
    WS_CHECK(cudaGraphLaunch(exec, stream));
    timer.stop("graph_of_two_add_in_graph", stream);
  }
  const int status = check("graph", all_equal(out, 3 + 2 * (4 + 5)));
  WS_CHECK(cudaGraphExecDestroy(exec));
  WS_CHECK(cudaGraphDestroy(graph));
  WS_CHECK(cudaStreamDestroy(stream));
  return status;
}

// Kernels launched from another host thread, on its own stream, while this one waits.
int run_other_thread(ws::DeviceBuffer<int>& out) {
  std::thread worker([&] {
    cudaStream_t stream = nullptr;
    WS_CHECK(cudaStreamCreate(&stream));
    for (int i = 0; i < 10; ++i) fill_regular<<<kBlocks, kThreads, 0, stream>>>(out.get(), 6);
    WS_CHECK(cudaStreamSynchronize(stream));
    WS_CHECK(cudaStreamDestroy(stream));
  });
  worker.join();
  return check("another host thread", all_equal(out, 6));
}

}  // namespace

int main() {
  int cooperative = 0;
  WS_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, 0));
  ws::DeviceBuffer<int> out(kElements);
  ws::KernelTimer timer("launch_kinds");
  int failures = 0;
  failures += run_regular(out, timer);
  failures += cooperative ? run_cooperative(out, timer) : check("cooperative (not supported, skipped)", true);
  failures += run_cluster(out, timer);
  failures += run_graph(out, timer);
  failures += run_other_thread(out);
  return failures == 0 ? 0 : 1;
}
