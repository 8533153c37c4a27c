// microbench_api: what CUDA runtime API calls cost on the host. The simulator gives each API call a modelled host
// cost (the platform's host API costs); this program, recorded with the tracer, provides the measurements: each call
// kind made --iterations times with nothing else pending on the GPU (unless the name says so), each call timed on
// its own with std::chrono::steady_clock, and the wake-up latency of the synchronize calls (from a kernel's end to
// the return of the call waiting for it). See README.md for each measurement and its error.
//
// Usage: ws_microbench_api [--iterations N] [--warmup W] [--spin-us U] [--schedule auto|spin|yield|blocking]
// Prints one `api <name> <n> <median_us> <p10_us> <p90_us> <min_us> <max_us>` row per measurement, `info` lines and
// one `check` line; exits 0 (2 on a CUDA error or a bad argument, 1 if a copy returned a wrong value).

#include "gpu_resources.h"
#include "workload.h"

#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

/// Does nothing: its launch is the measured call. At global scope so the traced name is exactly "empty_kernel".
__global__ void empty_kernel() {}

/// Spins for `cycles` SM clock cycles (clock64), then, when `flag` is set, writes `token` to it (mapped pinned host
/// memory) so that a host thread sees the kernel's end directly.
__global__ void spin_kernel(long long cycles, unsigned* flag, unsigned token) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
  if (flag != nullptr) {
    *static_cast<volatile unsigned*>(flag) = token;
    __threadfence_system();
  }
}

namespace {

constexpr const char* kWorkload = "microbench_api";
using Clock = std::chrono::steady_clock;

double micros(Clock::duration d) { return std::chrono::duration<double, std::micro>(d).count(); }

/// One measurement: its samples in microseconds.
struct Row {
  std::string name;
  std::vector<double> us;
};

/// Linear interpolation between the order statistics of sorted values (q in [0, 1]).
double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return std::nan("");
  const double position = q * static_cast<double>(sorted.size() - 1);
  const std::size_t below = static_cast<std::size_t>(position);
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return sorted[below] + fraction * (sorted[above] - sorted[below]);
}

void print_table(const std::vector<Row>& rows) {
  std::size_t width = 4;
  for (const Row& row : rows) width = std::max(width, row.name.size());
  const int w = static_cast<int>(width);
  std::printf("# host time per call, microseconds (steady_clock before and after the call)\n");
  std::printf("# %-3s %-*s %5s %10s %10s %10s %10s %10s\n", "", w, "call", "n", "median", "p10", "p90", "min", "max");
  for (const Row& row : rows) {
    std::vector<double> sorted = row.us;
    std::sort(sorted.begin(), sorted.end());
    std::printf("api   %-*s %5zu %10.3f %10.3f %10.3f %10.3f %10.3f\n", w, row.name.c_str(), sorted.size(),
                quantile(sorted, 0.5), quantile(sorted, 0.1), quantile(sorted, 0.9),
                sorted.empty() ? std::nan("") : sorted.front(), sorted.empty() ? std::nan("") : sorted.back());
  }
}

/// Runs `warmup` unrecorded then `iterations` recorded iterations of: prepare() (untimed), call() (timed with
/// steady_clock), after() (untimed). The recorded iterations sit inside the NVTX range "microbench_api:<name>", so
/// the trace tells them from the warm-ups.
struct Bench {
  int iterations;
  int warmup;
  std::vector<Row>& rows;

  template <typename Prepare, typename Call, typename After>
  void measure(const std::string& name, Prepare prepare, Call call, After after) {
    Row row{name, {}};
    row.us.reserve(static_cast<std::size_t>(iterations));
    const std::string range = std::string(kWorkload) + ":" + name;
    for (int i = 0; i < warmup + iterations; ++i) {
      if (i == warmup) nvtxRangePushA(range.c_str());
      prepare();
      const Clock::time_point begin = Clock::now();
      call();
      const Clock::time_point end = Clock::now();
      after();
      if (i >= warmup) row.us.push_back(micros(end - begin));
    }
    nvtxRangePop();
    rows.push_back(std::move(row));
  }

  /// Two calls per iteration, each timed on its own and together: allocate then free.
  template <typename First, typename Second>
  void measure_pair(const std::string& first_name, const std::string& second_name, const std::string& pair_name,
                    First first, Second second) {
    Row a{first_name, {}};
    Row b{second_name, {}};
    Row both{pair_name, {}};
    const std::string range = std::string(kWorkload) + ":" + pair_name;
    for (int i = 0; i < warmup + iterations; ++i) {
      if (i == warmup) nvtxRangePushA(range.c_str());
      const Clock::time_point t0 = Clock::now();
      first();
      const Clock::time_point t1 = Clock::now();
      second();
      const Clock::time_point t2 = Clock::now();
      if (i >= warmup) {
        a.us.push_back(micros(t1 - t0));
        b.us.push_back(micros(t2 - t1));
        both.us.push_back(micros(t2 - t0));
      }
    }
    nvtxRangePop();
    rows.push_back(std::move(a));
    rows.push_back(std::move(b));
    rows.push_back(std::move(both));
  }
};

/// A host thread that spins on a mapped-memory flag and notes, on the host clock, when the GPU wrote a given token
/// to it: the kernel's end seen directly, for the wake-up latency (the other host thread is inside the sync call).
class FlagWatcher {
 public:
  explicit FlagWatcher(const volatile unsigned* flag) : flag_(flag), thread_([this] { loop(); }) {}
  ~FlagWatcher() {
    quit_.store(true);
    thread_.join();
  }
  FlagWatcher(const FlagWatcher&) = delete;
  FlagWatcher& operator=(const FlagWatcher&) = delete;

  /// Watch for `token` (non-zero) from now on.
  void arm(unsigned token) { armed_.store(token, std::memory_order_release); }

  /// Waits until the armed token was seen (up to one second); false if it never came.
  bool wait(Clock::time_point& seen) {
    const Clock::time_point deadline = Clock::now() + std::chrono::seconds(1);
    while (armed_.load(std::memory_order_acquire) != 0) {
      if (Clock::now() > deadline) {
        armed_.store(0);
        return false;
      }
    }
    seen = Clock::time_point(Clock::duration(seen_.load(std::memory_order_acquire)));
    return true;
  }

 private:
  void loop() {
    while (!quit_.load(std::memory_order_relaxed)) {
      // Spins even when not armed (no yield: a yielding thread can come back late). It lives only for the
      // wake-up measurements, a fraction of a second.
      const unsigned token = armed_.load(std::memory_order_acquire);
      if (token != 0 && *flag_ == token) {
        const Clock::time_point now = Clock::now();
        seen_.store(now.time_since_epoch().count(), std::memory_order_release);
        armed_.store(0, std::memory_order_release);
      }
    }
  }

  const volatile unsigned* flag_;
  std::atomic<unsigned> armed_{0};
  std::atomic<Clock::rep> seen_{0};
  std::atomic<bool> quit_{false};
  std::thread thread_;  // last: starts once the members above exist
};

/// cudaLaunchKernel of the empty kernel, one block of one thread.
void launch_empty(cudaStream_t stream) {
  WS_CHECK(cudaLaunchKernel(empty_kernel, dim3(1), dim3(1), nullptr, 0, stream));
}

struct Options {
  int iterations = 200;
  int warmup = 10;
  int spin_us = 50;
  std::string schedule = "auto";
};

[[noreturn]] void usage(const std::string& problem) {
  std::fprintf(stderr,
               "ws_microbench_api: %s\nusage: ws_microbench_api [--iterations N (200)] [--warmup W (10)] "
               "[--spin-us U (50)] [--schedule auto|spin|yield|blocking]\n",
               problem.c_str());
  std::exit(2);
}

int int_option(int argc, char** argv, const char* name, long fallback, long low, long high) {
  const long value = ws::arg_long(argc, argv, name, fallback);
  if (value < low || value > high)
    usage(std::string("--") + name + " must be " + std::to_string(low) + ".." + std::to_string(high));
  return static_cast<int>(value);
}

Options parse(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const std::string name = arg.substr(0, arg.find('='));
    if (name != "--iterations" && name != "--warmup" && name != "--spin-us" && name != "--schedule")
      usage("unknown argument '" + arg + "'");
    if (arg.find('=') == std::string::npos) ++i;  // "--name value"
  }
  Options o;
  o.iterations = int_option(argc, argv, "iterations", o.iterations, 1, 1000000);
  o.warmup = int_option(argc, argv, "warmup", o.warmup, 0, 1000000);
  o.spin_us = int_option(argc, argv, "spin-us", o.spin_us, 1, 1000000);
  o.schedule = ws::arg_string(argc, argv, "schedule", "auto");
  if (o.schedule != "auto" && o.schedule != "spin" && o.schedule != "yield" && o.schedule != "blocking")
    usage("--schedule must be auto, spin, yield or blocking");
  return o;
}

const char* schedule_name(unsigned flags) {
  switch (flags & cudaDeviceScheduleMask) {
    case cudaDeviceScheduleSpin: return "spin";
    case cudaDeviceScheduleYield: return "yield";
    case cudaDeviceScheduleBlockingSync: return "blocking";
    default: return "auto";
  }
}

using ws::Event;

/// A non-blocking created stream, destroyed on scope exit.
class Stream {
 public:
  Stream() { WS_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(stream_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse(argc, argv);
  if (options.schedule != "auto") {  // before the context exists
    const unsigned flag = options.schedule == "spin"    ? cudaDeviceScheduleSpin
                          : options.schedule == "yield" ? cudaDeviceScheduleYield
                                                        : cudaDeviceScheduleBlockingSync;
    WS_CHECK(cudaSetDeviceFlags(flag));
  }
  int device = 0;
  WS_CHECK(cudaGetDevice(&device));
  WS_CHECK(cudaFree(nullptr));  // create the context outside any measurement
  cudaDeviceProp prop{};
  WS_CHECK(cudaGetDeviceProperties(&prop, device));
  int clock_khz = 0;
  WS_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));
  int driver = 0;
  int runtime = 0;
  WS_CHECK(cudaDriverGetVersion(&driver));
  WS_CHECK(cudaRuntimeGetVersion(&runtime));
  unsigned device_flags = 0;
  WS_CHECK(cudaGetDeviceFlags(&device_flags));
  const long long spin_cycles = static_cast<long long>(options.spin_us) * clock_khz / 1000;
  std::printf("info %s iterations=%d warmup=%d spin_us=%d spin_cycles=%lld clock_khz=%d schedule=%s driver=%d "
              "runtime=%d sm=%d.%d sms=%d device=%s\n",
              kWorkload, options.iterations, options.warmup, options.spin_us, spin_cycles, clock_khz,
              schedule_name(device_flags), driver, runtime, prop.major, prop.minor, prop.multiProcessorCount,
              prop.name);
  std::fflush(stdout);

  Stream stream;
  Stream other;
  const cudaStream_t s = stream.get();
  Event event;
  Event e0;
  Event e1;
  unsigned* pinned = nullptr;  // 4 bytes for the copies, then the mapped flag
  WS_CHECK(cudaHostAlloc(&pinned, 2 * sizeof(unsigned), cudaHostAllocMapped));
  unsigned* flag = pinned + 1;
  *flag = 0;
  unsigned* device_flag = nullptr;
  WS_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_flag), flag, 0));
  std::vector<unsigned> pageable(1, 0u);
  unsigned* word = nullptr;  // 4 bytes of device memory
  WS_CHECK(cudaMalloc(&word, sizeof(unsigned)));

  // Load both kernels (lazy module loading) before anything is measured.
  launch_empty(s);
  spin_kernel<<<1, 1, 0, s>>>(1000, nullptr, 0);
  WS_CHECK(cudaGetLastError());
  WS_CHECK(cudaDeviceSynchronize());

  std::vector<Row> rows;
  Bench bench{options.iterations, options.warmup, rows};
  const auto nothing = [] {};
  const auto sync_stream = [&] { WS_CHECK(cudaStreamSynchronize(s)); };
  const auto record_and_wait = [&] {
    WS_CHECK(cudaEventRecord(event.get(), s));
    WS_CHECK(cudaEventSynchronize(event.get()));
  };

  // The timer itself: two steady_clock reads back to back (included in every sample below).
  bench.measure("steady_clock::now[overhead]", nothing, nothing, nothing);

  // --- Kernel launches.
  bench.measure("cudaLaunchKernel[empty,idle]", nothing, [&] { launch_empty(s); }, sync_stream);
  // Back to back behind a kernel that spins 20 us per launch to come: the launch queue is non-empty throughout
  // (as long as a launch takes less than 20 us; the check line says whether the spinner outlived the launches).
  const long long blocker_cycles = 20LL * (options.warmup + options.iterations) * clock_khz / 1000;
  spin_kernel<<<1, 1, 0, s>>>(blocker_cycles, nullptr, 0);
  WS_CHECK(cudaGetLastError());
  bench.measure("cudaLaunchKernel[empty,back-to-back,queued]", nothing, [&] { launch_empty(s); }, nothing);
  const bool queue_stayed_busy = cudaStreamQuery(s) == cudaErrorNotReady;
  WS_CHECK(cudaStreamSynchronize(s));
  WS_CHECK(cudaGetLastError());  // clears the cudaErrorNotReady of the query, which is not an error
  bench.measure("cudaLaunchKernel[empty,back-to-back]", nothing, [&] { launch_empty(s); }, nothing);
  WS_CHECK(cudaStreamSynchronize(s));

  // --- Events and synchronization with nothing pending.
  bench.measure("cudaEventRecord[idle]", nothing, [&] { WS_CHECK(cudaEventRecord(event.get(), s)); }, sync_stream);
  bench.measure("cudaEventQuery[completed]", record_and_wait, [&] { WS_CHECK(cudaEventQuery(event.get())); },
                nothing);
  bench.measure("cudaEventSynchronize[completed]", record_and_wait,
                [&] { WS_CHECK(cudaEventSynchronize(event.get())); }, nothing);
  bench.measure("cudaStreamQuery[idle]", nothing, [&] { WS_CHECK(cudaStreamQuery(s)); }, nothing);
  bench.measure("cudaStreamSynchronize[idle]", nothing, [&] { WS_CHECK(cudaStreamSynchronize(s)); }, nothing);
  bench.measure("cudaDeviceSynchronize[idle]", nothing, [&] { WS_CHECK(cudaDeviceSynchronize()); }, nothing);
  bench.measure("cudaStreamWaitEvent[completed]", record_and_wait,
                [&] { WS_CHECK(cudaStreamWaitEvent(other.get(), event.get(), 0)); },
                [&] { WS_CHECK(cudaStreamSynchronize(other.get())); });

  // --- 4-byte copies and memset. The values are checked at the end (a round trip through the device word).
  unsigned value = 0;
  bench.measure(
      "cudaMemcpyAsync[HtoD,4B,pinned]", [&] { pinned[0] = ++value; },
      [&] { WS_CHECK(cudaMemcpyAsync(word, pinned, sizeof(unsigned), cudaMemcpyHostToDevice, s)); }, sync_stream);
  bench.measure(
      "cudaMemcpyAsync[HtoD,4B,pinned]+cudaStreamSynchronize", [&] { pinned[0] = ++value; },
      [&] {
        WS_CHECK(cudaMemcpyAsync(word, pinned, sizeof(unsigned), cudaMemcpyHostToDevice, s));
        WS_CHECK(cudaStreamSynchronize(s));
      },
      nothing);
  bench.measure(
      "cudaMemcpyAsync[DtoH,4B,pinned]", nothing,
      [&] { WS_CHECK(cudaMemcpyAsync(pinned, word, sizeof(unsigned), cudaMemcpyDeviceToHost, s)); }, sync_stream);
  bench.measure(
      "cudaMemcpyAsync[DtoH,4B,pinned]+cudaStreamSynchronize", nothing,
      [&] {
        WS_CHECK(cudaMemcpyAsync(pinned, word, sizeof(unsigned), cudaMemcpyDeviceToHost, s));
        WS_CHECK(cudaStreamSynchronize(s));
      },
      nothing);
  const bool pinned_roundtrip = pinned[0] == value;
  bench.measure(
      "cudaMemcpy[HtoD,4B,pageable]", [&] { pageable[0] = ++value; },
      [&] { WS_CHECK(cudaMemcpy(word, pageable.data(), sizeof(unsigned), cudaMemcpyHostToDevice)); }, nothing);
  pageable[0] = 0;
  bench.measure(
      "cudaMemcpy[DtoH,4B,pageable]", nothing,
      [&] { WS_CHECK(cudaMemcpy(pageable.data(), word, sizeof(unsigned), cudaMemcpyDeviceToHost)); }, nothing);
  const bool pageable_roundtrip = pageable[0] == value;
  bench.measure("cudaMemsetAsync[4B]", nothing, [&] { WS_CHECK(cudaMemsetAsync(word, 0, sizeof(unsigned), s)); },
                sync_stream);
  bench.measure(
      "cudaMemsetAsync[4B]+cudaStreamSynchronize", nothing,
      [&] {
        WS_CHECK(cudaMemsetAsync(word, 0, sizeof(unsigned), s));
        WS_CHECK(cudaStreamSynchronize(s));
      },
      nothing);

  // --- Allocation.
  void* block = nullptr;
  for (const std::size_t mib : {std::size_t{1}, std::size_t{256}}) {
    const std::string size = "[" + std::to_string(mib) + "MiB]";
    bench.measure_pair(
        "cudaMalloc" + size, "cudaFree" + size, "cudaMalloc+cudaFree" + size,
        [&] { WS_CHECK(cudaMalloc(&block, mib << 20)); }, [&] { WS_CHECK(cudaFree(block)); });
  }
  bench.measure_pair(
      "cudaMallocHost[1MiB]", "cudaFreeHost[1MiB]", "cudaMallocHost+cudaFreeHost[1MiB]",
      [&] { WS_CHECK(cudaMallocHost(&block, std::size_t{1} << 20)); }, [&] { WS_CHECK(cudaFreeHost(block)); });

  // --- Synchronize calls with work pending, and their wake-up latency. Per iteration, GPU idle: E0 recorded (the
  // host clock read right after cudaEventRecord(E0) returns is t0), the spin kernel (~spin_us), E1, then the sync
  // call from t_call to t_ret. Kernel end on the host clock: t0 + elapsed(E0, E1). A second host thread sees the
  // kernel's flag write in mapped memory directly (t_flag). See README.md for the error of each method.
  long long flag_misses = 0;  // the flag never came (1 s)
  long long flag_late = 0;    // seen only after the sync call had returned
  {
    FlagWatcher watcher(flag);
    unsigned token = 0;
    Row spin{"spin_kernel[E0-E1,events]", {}};
    struct SyncKind {
      const char* name;
      int kind;  // 0 stream, 1 event, 2 device
    };
    const SyncKind kinds[] = {{"cudaStreamSynchronize", 0}, {"cudaEventSynchronize", 1}, {"cudaDeviceSynchronize", 2}};
    for (const SyncKind& kind : kinds) {
      const std::string name = kind.name;
      Row call{name + "[pending]", {}};
      Row pending{"pending_at_call[" + name + "]", {}};
      Row wake_events{"wakeup[" + name + ",events]", {}};
      Row wake_flag{"wakeup[" + name + ",flag]", {}};
      Row offset{"event_method_offset[" + name + "]", {}};
      const std::string range = std::string(kWorkload) + ":" + call.name;
      for (int i = 0; i < options.warmup + options.iterations; ++i) {
        if (i == options.warmup) nvtxRangePushA(range.c_str());
        WS_CHECK(cudaDeviceSynchronize());
        watcher.arm(++token);
        WS_CHECK(cudaEventRecord(e0.get(), s));
        const Clock::time_point t0 = Clock::now();
        spin_kernel<<<1, 1, 0, s>>>(spin_cycles, device_flag, token);
        WS_CHECK(cudaGetLastError());
        WS_CHECK(cudaEventRecord(e1.get(), s));
        const Clock::time_point t_call = Clock::now();
        if (kind.kind == 0) WS_CHECK(cudaStreamSynchronize(s));
        if (kind.kind == 1) WS_CHECK(cudaEventSynchronize(e1.get()));
        if (kind.kind == 2) WS_CHECK(cudaDeviceSynchronize());
        const Clock::time_point t_ret = Clock::now();
        float elapsed_ms = 0.0f;
        WS_CHECK(cudaEventElapsedTime(&elapsed_ms, e0.get(), e1.get()));
        Clock::time_point t_flag;
        const bool seen = watcher.wait(t_flag);
        if (i < options.warmup) continue;
        const double elapsed_us = 1000.0 * static_cast<double>(elapsed_ms);
        const double end_after_call = micros(t0 - t_call) + elapsed_us;  // kernel end (events) - t_call
        const double call_us = micros(t_ret - t_call);
        spin.us.push_back(elapsed_us);
        call.us.push_back(call_us);
        pending.us.push_back(end_after_call);
        wake_events.us.push_back(call_us - end_after_call);
        if (!seen) {
          ++flag_misses;
        } else if (t_flag > t_ret) {
          ++flag_late;  // the watcher thread was descheduled: its time says nothing about the kernel's end
        } else {
          wake_flag.us.push_back(micros(t_ret - t_flag));
          offset.us.push_back((call_us - end_after_call) - micros(t_ret - t_flag));
        }
      }
      nvtxRangePop();
      for (Row* row : {&call, &pending, &wake_events, &wake_flag, &offset}) rows.push_back(std::move(*row));
    }
    rows.push_back(std::move(spin));
  }

  print_table(rows);
  WS_CHECK(cudaFree(word));
  WS_CHECK(cudaFreeHost(pinned));
  WS_CHECK(cudaDeviceSynchronize());

  const bool ok = pinned_roundtrip && pageable_roundtrip;
  std::string detail = "measurements=" + std::to_string(rows.size()) +
                       " iterations=" + std::to_string(options.iterations) +
                       " roundtrip=" + (ok ? std::string("ok") : std::string("WRONG")) +
                       " queue_stayed_busy=" + (queue_stayed_busy ? "yes" : "no") +
                       " flag_misses=" + std::to_string(flag_misses) + " flag_late=" + std::to_string(flag_late);
  return ws::report_check(kWorkload, ok, detail);
}
