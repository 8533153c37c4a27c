// ws_remote_access: the remote-access microbenchmark of GPU-SM (Cabezas et al., GPGPU-8 2015, section 3.2; results
// in section 4, Figures 7 and 8).
//
// One kernel streams over N floats on the local GPU: each thread reads one datum, applies F dependent FMAs and writes
// the result to a local output array. A fraction P of the thread blocks read their datum from an array on another
// GPU through a peer pointer instead (or, with --remote host, from pinned host memory mapped into the GPU's address
// space: zero-copy reads over PCIe), either as one batch at the start of the kernel or spread over all of it.
// Lower occupancy is forced with unused dynamic shared memory, as in the paper. With --direction write every block
// reads locally and the remote blocks write their results to the remote array instead (the paper's reads-vs-writes
// comparison).

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gpu_resources.h"
#include "remote_access.cuh"
#include "workload.h"

namespace {

constexpr const char* kWorkload = "remote_access";
constexpr int kExitUsage = 2;
constexpr int kExitUnavailable = 3;  // the machine cannot run this configuration (GPUs, peer access)

struct Options {
  long long elements = 64ll << 20;
  int flops = 1;
  int remote_pct = 0;
  Pattern pattern = Pattern::kBatch;
  int occupancy_smem = 0;
  int local_gpu = 0;
  int remote_gpu = 1;
  bool remote_host = false;  // the remote array is pinned, mapped host memory instead of another GPU's
  Direction direction = Direction::kRead;
  int repeat = 5;
  bool sweep = false;
};

/// One point of the experiment: what a timing label names.
struct RunConfig {
  int remote_pct = 0;
  Pattern pattern = Pattern::kBatch;
  int flops = 1;
};

void print_usage() {
  std::fprintf(stderr,
               "usage: ws_remote_access [--elements N] [--flops F] [--remote-pct P] [--pattern batch|spread]\n"
               "                        [--occupancy-smem BYTES] [--local-gpu A] [--remote-gpu B] [--remote gpu|host]"
               " [--direction read|write] [--repeat R] [--sweep]\n"
               "defaults: --elements 67108864 --flops 1 --remote-pct 0 --pattern batch --occupancy-smem 0 "
               "--local-gpu 0 --remote-gpu 1 --remote gpu --direction read --repeat 5\n"
               "--remote host: the remote array is pinned host memory mapped into the GPU (zero-copy over PCIe)\n"
               "--direction write: remote blocks write their results to the remote array (all blocks read locally)\n"
               "--sweep runs remote-pct {0,10,20,50,100} x pattern {batch,spread} x flops {1,16}, R launches each\n");
}

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "ws_remote_access: %s\n", message.c_str());
  print_usage();
  std::exit(kExitUsage);
}

[[noreturn]] void unavailable(const std::string& message) {
  std::fprintf(stderr, "ws_remote_access: %s\n", message.c_str());
  std::exit(kExitUnavailable);
}

/// Exits with the usage on --help, or with an error naming the first unknown option.
void reject_unknown_options(int argc, char** argv) {
  const std::optional<std::string> name = ws::first_unknown_option(argc, argv, {"elements", "flops", "remote-pct", "pattern", "occupancy-smem", "local-gpu", "remote-gpu", "remote", "direction", "repeat", "sweep"});
  if (!name) return;
  if (*name == "help") {
    print_usage();
    std::exit(0);
  }
  usage_error("unknown option --" + *name);
}

/// "--name" or "--name=1" (ws::arg_long would read the next option as the flag's value).
bool has_flag(int argc, char** argv, const char* name) {
  const std::size_t n = std::strlen(name);
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--", 2) != 0 || std::strncmp(argv[i] + 2, name, n) != 0) continue;
    const char* rest = argv[i] + 2 + n;
    if (*rest == '\0') return true;
    if (*rest == '=') return std::strtol(rest + 1, nullptr, 10) != 0;
  }
  return false;
}

long long ranged_option(int argc, char** argv, const char* name, long long fallback, long long lo, long long hi) {
  const long long v = ws::arg_long(argc, argv, name, static_cast<long>(fallback));
  if (v < lo || v > hi) {
    std::string message = "--";
    message += name;
    usage_error(message + " must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  return v;
}

int int_option(int argc, char** argv, const char* name, int fallback, int lo, int hi) {
  return static_cast<int>(ranged_option(argc, argv, name, fallback, lo, hi));
}

Options parse_options(int argc, char** argv) {
  reject_unknown_options(argc, argv);
  Options o;
  // Grid x is at most 2^31 - 1 blocks of 256 threads; 2^36 floats would already be 256 GiB.
  o.elements = ranged_option(argc, argv, "elements", o.elements, 1, 1ll << 36);
  o.flops = int_option(argc, argv, "flops", o.flops, 1, 4096);
  o.remote_pct = int_option(argc, argv, "remote-pct", o.remote_pct, 0, 100);
  o.occupancy_smem = int_option(argc, argv, "occupancy-smem", o.occupancy_smem, 0, 1 << 20);
  o.local_gpu = int_option(argc, argv, "local-gpu", o.local_gpu, 0, 1023);
  o.remote_gpu = int_option(argc, argv, "remote-gpu", o.remote_gpu, 0, 1023);
  o.repeat = int_option(argc, argv, "repeat", o.repeat, 1, 1000);
  o.sweep = has_flag(argc, argv, "sweep");
  const std::string remote = ws::arg_string(argc, argv, "remote", "gpu");
  if (remote != "gpu" && remote != "host") usage_error("--remote must be gpu or host");
  o.remote_host = remote == "host";
  const std::string pattern = ws::arg_string(argc, argv, "pattern", "batch");
  if (pattern != "batch" && pattern != "spread") usage_error("--pattern must be batch or spread");
  o.pattern = pattern == "spread" ? Pattern::kSpread : Pattern::kBatch;
  const std::string direction = ws::arg_string(argc, argv, "direction", "read");
  if (direction != "read" && direction != "write") usage_error("--direction must be read or write");
  o.direction = direction == "write" ? Direction::kWrite : Direction::kRead;
  return o;
}

bool touches_remote(const Options& o) { return o.sweep || o.remote_pct > 0; }

/// Checks the GPUs exist and, when any access is remote, that the local GPU can map the remote GPU's memory.
void require_devices(const Options& o) {
  int count = 0;
  WS_CHECK(cudaGetDeviceCount(&count));
  if (o.local_gpu >= count) unavailable("--local-gpu " + std::to_string(o.local_gpu) + ": only " +
                                        std::to_string(count) + " GPU(s) visible");
  if (!touches_remote(o) || o.remote_host) return;
  if (count < 2) {
    unavailable("only one GPU is visible: remote accesses need a second GPU, so use --remote-pct 0 "
                "(and no --sweep) or --remote host here");
  }
  if (o.remote_gpu >= count) unavailable("--remote-gpu " + std::to_string(o.remote_gpu) + ": only " +
                                         std::to_string(count) + " GPU(s) visible");
  if (o.remote_gpu == o.local_gpu) usage_error("--remote-gpu must differ from --local-gpu");
  if (!ws::enable_peer_access(o.local_gpu, o.remote_gpu)) {
    unavailable("GPU " + std::to_string(o.local_gpu) + " cannot access GPU " + std::to_string(o.remote_gpu) +
                "'s memory (cudaDeviceCanAccessPeer = 0)");
  }
}

struct PinnedFree {
  void operator()(float* p) const { cudaFreeHost(p); }
};
using PinnedFloats = std::unique_ptr<float, PinnedFree>;

/// The arrays on both sides and their host copies (kept for the reference). The remote array is on the remote GPU,
/// or pinned host memory mapped into the local GPU (`remote_mapped`; `remote_in` then stays empty). Writing, the
/// remote blocks write into it.
struct Buffers {
  std::vector<float> local_host;
  std::vector<float> remote_host;  // empty when no block is remote
  ws::DeviceFloats local_in;
  ws::DeviceFloats remote_in;
  PinnedFloats remote_mapped;
  float* remote_pointer = nullptr;  // what the kernel reads (or writes) remote data through
  ws::DeviceFloats out;
};

/// Pinned host memory holding `host`, mapped into the current GPU's address space.
PinnedFloats pin_and_map(const std::vector<float>& host, float** device_pointer) {
  float* p = nullptr;
  WS_CHECK(cudaHostAlloc(&p, host.size() * sizeof(float), cudaHostAllocMapped | cudaHostAllocPortable));
  std::memcpy(p, host.data(), host.size() * sizeof(float));
  void* mapped = nullptr;
  WS_CHECK(cudaHostGetDevicePointer(&mapped, p, 0));
  *device_pointer = static_cast<float*>(mapped);
  return PinnedFloats(p);
}

ws::DeviceFloats upload(int device, const std::vector<float>& host) {
  const ws::ScopedDevice on(device);
  ws::DeviceFloats d = ws::device_floats(device, host.size());
  WS_CHECK(cudaMemcpy(d.get(), host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
  return d;
}

Buffers make_buffers(const Options& o) {
  const std::size_t n = static_cast<std::size_t>(o.elements);
  Buffers b;
  b.local_host.resize(n);
  ws::fill_random(b.local_host, 1u);
  b.local_in = upload(o.local_gpu, b.local_host);
  b.out = ws::device_floats(o.local_gpu, n);
  if (touches_remote(o)) {
    // Different values than the local array, so that reading the wrong array fails the check.
    b.remote_host.resize(n);
    ws::fill_random(b.remote_host, 2u);
    if (o.remote_host) {
      b.remote_mapped = pin_and_map(b.remote_host, &b.remote_pointer);
    } else {
      b.remote_in = upload(o.remote_gpu, b.remote_host);
      b.remote_pointer = b.remote_in.get();
    }
  }
  return b;
}

/// Opts the kernel into the requested shared memory and reports the occupancy it leaves.
void prepare_and_print_occupancy(const Options& o) {
  cudaDeviceProp prop{};
  WS_CHECK(cudaGetDeviceProperties(&prop, o.local_gpu));
  if (static_cast<std::size_t>(o.occupancy_smem) > prop.sharedMemPerBlockOptin) {
    usage_error("--occupancy-smem " + std::to_string(o.occupancy_smem) + " exceeds this GPU's " +
                std::to_string(prop.sharedMemPerBlockOptin) + " bytes per block");
  }
  const int blocks_per_sm = prepare_occupancy(o.occupancy_smem, o.direction);
  if (blocks_per_sm == 0) usage_error("the kernel cannot run with --occupancy-smem " + std::to_string(o.occupancy_smem));
  const int warps = blocks_per_sm * kThreadsPerBlock / 32;
  const int max_warps = prop.maxThreadsPerMultiProcessor / 32;
  const std::string remote = !touches_remote(o) ? "none (all accesses local)"
                             : o.remote_host   ? "host (pinned, mapped)"
                                               : "gpu" + std::to_string(o.remote_gpu);
  std::printf("# remote_access: local gpu%d %s, remote %s, %s, %lld floats, %u blocks of %d threads\n", o.local_gpu,
              prop.name, remote.c_str(), o.direction == Direction::kWrite ? "remote blocks write" : "remote blocks read",
              o.elements, remote_read_blocks(o.elements), kThreadsPerBlock);
  std::printf("# occupancy: %d bytes dynamic shared memory per block -> %d blocks/SM, %d of %d warps (%d%%)\n",
              o.occupancy_smem, blocks_per_sm, warps, max_warps, 100 * warps / max_warps);
  std::fflush(stdout);
}

RemoteReadArgs make_args(const Options& o, const Buffers& b, const RunConfig& c) {
  RemoteReadArgs a;
  a.local_in = b.local_in.get();
  a.remote_in = b.remote_pointer;
  a.remote_out = o.direction == Direction::kWrite ? b.remote_pointer : nullptr;
  a.out = b.out.get();
  a.n = o.elements;
  a.remote_pct = c.remote_pct;
  a.pattern = c.pattern;
  const unsigned long long blocks = remote_read_blocks(o.elements);
  a.batch_remote_blocks = static_cast<unsigned>((static_cast<unsigned long long>(c.remote_pct) * blocks + 99) / 100);
  a.flops = c.flops;
  return a;
}

std::string config_label(const Options& o, const RunConfig& c) {
  std::string label = o.direction == Direction::kWrite ? kWriteKernelName : kKernelName;
  label += "[p=" + std::to_string(c.remote_pct) + (c.pattern == Pattern::kBatch ? ",batch" : ",spread") +
           ",f=" + std::to_string(c.flops);
  if (o.occupancy_smem > 0) label += ",smem=" + std::to_string(o.occupancy_smem);
  if (o.remote_host) label += ",host";
  return label + "]";
}

/// Compares one element of every thread block (at a lane that varies from block to block), plus the last element,
/// with the CPU reference: this checks each block's local/remote choice as well as the arithmetic. Writing, a remote
/// block's element is looked for in the remote array (`remote_out`) and every input is local.
int check_config(const Options& o, const Buffers& b, const RemoteReadArgs& a, const std::string& label,
                 const std::vector<float>& out, const std::vector<float>& remote_out) {
  const bool writes = o.direction == Direction::kWrite;
  const unsigned blocks = remote_read_blocks(o.elements);
  std::vector<long long> indices;
  for (unsigned block = 0; block < blocks; ++block) {
    const long long lane = static_cast<long long>(block) * 37 % kThreadsPerBlock;
    indices.push_back(std::min(static_cast<long long>(block) * kThreadsPerBlock + lane, o.elements - 1));
  }
  indices.push_back(o.elements - 1);
  std::vector<float> got;
  std::vector<float> want;
  for (long long i : indices) {
    const std::size_t k = static_cast<std::size_t>(i);
    const bool remote = is_remote_block(a, static_cast<unsigned>(i / kThreadsPerBlock));
    got.push_back(writes && remote ? remote_out[k] : out[k]);
    want.push_back(fma_chain_host(remote && !writes ? b.remote_host[k] : b.local_host[k], a.flops));
  }
  const long bad = ws::first_mismatch(got, want);
  std::string detail = label + " " + std::to_string(indices.size()) + " sampled elements";
  if (bad >= 0) {
    const std::size_t k = static_cast<std::size_t>(bad);
    detail += "; first mismatch at element " + std::to_string(indices[k]) + ": got " + std::to_string(got[k]) +
              ", want " + std::to_string(want[k]);
  }
  return ws::report_check(kWorkload, bad < 0, detail);
}

/// `repeat` timed launches of one configuration, then its check. The output is poisoned with NaNs first so that a
/// launch that wrote nothing cannot pass on an earlier configuration's results.
int run_config(const Options& o, const Buffers& b, const RunConfig& c, ws::KernelTimer& timer,
               std::vector<float>& out, std::vector<float>& remote_out) {
  const RemoteReadArgs args = make_args(o, b, c);
  const std::string label = config_label(o, c);
  const std::size_t bytes = static_cast<std::size_t>(o.elements) * sizeof(float);
  const bool writes = o.direction == Direction::kWrite && b.remote_pointer != nullptr;
  WS_CHECK(cudaMemset(b.out.get(), 0xFF, bytes));
  if (writes && o.remote_host) std::memset(b.remote_mapped.get(), 0xFF, bytes);
  if (writes && !o.remote_host) WS_CHECK(cudaMemset(b.remote_pointer, 0xFF, bytes));  // on the peer GPU
  WS_CHECK(cudaDeviceSynchronize());
  for (int r = 0; r < o.repeat; ++r) {
    timer.start();
    launch_remote_access(args, o.direction, o.occupancy_smem, nullptr);
    timer.stop(label.c_str());
  }
  WS_CHECK(cudaMemcpy(out.data(), b.out.get(), bytes, cudaMemcpyDeviceToHost));
  if (writes) {
    remote_out.resize(out.size());
    if (o.remote_host) std::memcpy(remote_out.data(), b.remote_mapped.get(), bytes);  // synchronized above
    else WS_CHECK(cudaMemcpy(remote_out.data(), b.remote_pointer, bytes, cudaMemcpyDefault));
  }
  return check_config(o, b, args, label, out, remote_out);
}

/// The sweep: for each intensity and pattern, remote-pct rises from 0 (the local baseline the paper's overheads
/// are relative to) to 100.
std::vector<RunConfig> sweep_configs() {
  std::vector<RunConfig> configs;
  for (int flops : {1, 16}) {
    for (Pattern pattern : {Pattern::kBatch, Pattern::kSpread}) {
      for (int pct : {0, 10, 20, 50, 100}) configs.push_back(RunConfig{pct, pattern, flops});
    }
  }
  return configs;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  require_devices(o);
  WS_CHECK(cudaSetDevice(o.local_gpu));
  const Buffers buffers = make_buffers(o);
  WS_CHECK(cudaSetDevice(o.local_gpu));
  prepare_and_print_occupancy(o);

  const std::vector<RunConfig> configs =
      o.sweep ? sweep_configs() : std::vector<RunConfig>{RunConfig{o.remote_pct, o.pattern, o.flops}};
  std::vector<float> out(static_cast<std::size_t>(o.elements));
  std::vector<float> remote_out;  // writing: the remote array as the kernel left it
  ws::KernelTimer timer(kWorkload);
  int status = 0;
  for (const RunConfig& c : configs) {
    if (run_config(o, buffers, c, timer, out, remote_out) != 0) status = 1;
  }
  return status;
}
