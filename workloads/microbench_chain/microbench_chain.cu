// Dependent-instruction latency per instruction class: one warp runs a chain in which every instruction takes the
// result of the one before, so each costs its whole latency (the GPU files' sm.latency_cycles.fp32, fp64, int32, sfu
// and shared; a microbenchmark: the predictive rule allows platform numbers from these).
//   ws_microbench_chain [--repeat R (default 5)]
// Each chain is timed by clock64 (SM cycles) over S and 2S steps in one launch; the difference over S steps drops the
// fixed costs (the clock reads, the loop's entry and exit). Every step is one instruction except `alu`, whose steps are
// an integer add and a LOP3 (two adds in a row would fold into one IADD3; sm_90 ptxas emits the add as VIADD): its
// cycles are per instruction, the pair / 2.
// The shared chain is a pointer chase: each lane's word holds the shared address of its next word (same bank), so
// every LDS waits on the one before and no lane conflicts with another; `shared_indexed` holds the next word's index
// instead, so each step computes the address first (its cycles are the step's: the address instruction and the LDS).
// The constant chain is the same chase through a __constant__ array of word indices, every lane at the same word (a
// constant load serves a warp in one go only when its lanes agree): each step an address instruction and an LDC, the
// constant-cache load kernels use for their arguments and indexed constants (`constant_indexed`, cycles per step).
// Output, the median of R launches:
//   chain <class> <instruction> <clock64 cycles per instruction>
//   classes: fp32 FFMA, fp64 DFMA, fp16 HFMA2, int32 IMAD, alu VIADD+LOP3, sfu MUFU.EX2/RSQ/LG2/SIN (a line each),
//   shared LDS, shared_indexed IMAD+LDS, constant_indexed LDC (with its address instruction)
// The exact chains (FFMA, DFMA, IMAD, VIADD+LOP3, the shared and constant chases) are checked against the same chain
// on the host.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "microbench.h"
#include "workload.h"

namespace {

constexpr int kUnroll = 512;           // steps per loop body: its back branch costs ~17 cycles (H200), 0.03 a step
constexpr int kSteps = 1 << 14;        // S: steps of the shorter timed chain (the longer one runs 2S)
constexpr int kSharedWords = 32 * 64;  // the shared chase's words: 64 per lane, all in the lane's bank
constexpr int kConstantWords = 64;     // the constant chase's words: 256 bytes, well inside one SM's constant cache
constexpr unsigned kConstantStride = 17;  // word w holds (w + 17) % 64: odd, so the chase visits every word

__constant__ unsigned constant_next[kConstantWords];

struct Ffma {
  using Value = float;
  static constexpr const char* kClass = "fp32";
  static constexpr const char* kInstruction = "FFMA";
  static constexpr int kInstructionsPerStep = 1;
  __host__ __device__ static Value step(Value x) {
#ifdef __CUDA_ARCH__
    asm volatile("fma.rn.f32 %0, %0, 0f3F7FBE77, 0f3A83126F;" : "+f"(x));  // x * 0.999 + 0.001: stays in range
    return x;
#else
    return std::fmaf(x, 0.999f, 0.001f);
#endif
  }
};

struct Dfma {
  using Value = double;
  static constexpr const char* kClass = "fp64";
  static constexpr const char* kInstruction = "DFMA";
  static constexpr int kInstructionsPerStep = 1;
  __host__ __device__ static Value step(Value x) {
#ifdef __CUDA_ARCH__
    asm volatile("fma.rn.f64 %0, %0, 0d3FEFF7CED916872B, 0d3F50624DD2F1A9FC;" : "+d"(x));  // x * 0.999 + 0.001
    return x;
#else
    return std::fma(x, 0.999, 0.001);
#endif
  }
};

struct Imad {
  using Value = unsigned;
  static constexpr const char* kClass = "int32";
  static constexpr const char* kInstruction = "IMAD";
  static constexpr int kInstructionsPerStep = 1;
  __host__ __device__ static Value step(Value x) {
#ifdef __CUDA_ARCH__
    asm volatile("mad.lo.u32 %0, %0, 1664525, 1013904223;" : "+r"(x));  // an LCG step: nothing to fold
    return x;
#else
    return x * 1664525u + 1013904223u;
#endif
  }
};

struct AddXor {
  using Value = unsigned;
  static constexpr const char* kClass = "alu";
  static constexpr const char* kInstruction = "VIADD+LOP3";
  static constexpr int kInstructionsPerStep = 2;
  __host__ __device__ static Value step(Value x) {
#ifdef __CUDA_ARCH__
    asm volatile("add.u32 %0, %0, 0x9E3779B9;\n\txor.b32 %0, %0, 0x7F4A7C15;" : "+r"(x));
    return x;
#else
    return (x + 0x9E3779B9u) ^ 0x7F4A7C15u;
#endif
  }
};

struct Hfma2 {
  using Value = unsigned;  // two halves
  static constexpr const char* kClass = "fp16";
  static constexpr const char* kInstruction = "HFMA2";
  static constexpr int kInstructionsPerStep = 1;
  __host__ __device__ static Value step(Value x) {
#ifdef __CUDA_ARCH__
    // x * 0.9995 + 0.001 per half (f16x2 takes no immediates: the constants go through registers, hoisted by ptxas)
    asm volatile("{.reg .b32 a, b;\n\tmov.b32 a, 0x3BFF3BFF;\n\tmov.b32 b, 0x14001400;\n\tfma.rn.f16x2 %0, %0, a, b;}"
                 : "+r"(x));
#endif
    return x;  // not checked on the host
  }
};

struct Ex2 {
  using Value = float;
  static constexpr const char* kClass = "sfu";
  static constexpr const char* kInstruction = "MUFU.EX2";
  static constexpr int kInstructionsPerStep = 1;
  __host__ __device__ static Value step(Value x) {
#ifdef __CUDA_ARCH__
    asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(x));  // goes to +inf and stays: the latency does not depend on it
#endif
    return x;  // not checked on the host
  }
};

// The other MUFU functions, whose latencies may differ from EX2's (the models' sfu class holds them all).
// (No RCP: ptxas folds rcp(rcp(x)) into x, leaving no chain; seen on H200 as 0 cycles.)
enum class MufuFunction { kRsq, kLg2, kSin };

template <MufuFunction kFunction>
struct Mufu {
  using Value = float;
  static constexpr const char* kClass = "sfu";
  static constexpr const char* kInstruction = kFunction == MufuFunction::kRsq   ? "MUFU.RSQ"
                                              : kFunction == MufuFunction::kLg2 ? "MUFU.LG2"
                                                                                : "MUFU.SIN";
  static constexpr int kInstructionsPerStep = 1;
  __host__ __device__ static Value step(Value x) {
#ifdef __CUDA_ARCH__
    if constexpr (kFunction == MufuFunction::kRsq) asm volatile("rsqrt.approx.ftz.f32 %0, %0;" : "+f"(x));
    if constexpr (kFunction == MufuFunction::kLg2) asm volatile("lg2.approx.ftz.f32 %0, %0;" : "+f"(x));
    if constexpr (kFunction == MufuFunction::kSin) asm volatile("sin.approx.ftz.f32 %0, %0;" : "+f"(x));
#endif
    return x;  // not checked on the host
  }
};

// Runs `steps` steps of Op's chain in each thread from x[thread]; writes the end back and thread 0's clock64 span.
template <typename Op>
__global__ void chain(typename Op::Value* x, int steps, long long* cycles) {
  typename Op::Value v = x[threadIdx.x];
  const long long begin = clock64();
#pragma unroll 1
  for (int i = 0; i < steps; i += kUnroll) {
#pragma unroll
    for (int j = 0; j < kUnroll; ++j) v = Op::step(v);
  }
  const long long end = clock64();
  x[threadIdx.x] = v;
  if (threadIdx.x == 0) *cycles = end - begin;
}

// The shared chase: word w holds the next word's place, (w + 32) % kSharedWords (the same bank, the next of the
// lane's words): its shared address, so each LDS takes the last one's value as its address; or (kIndexed) its index,
// which each step turns into an address first (an IMAD or LEA before each LDS), as code that loads `s[s[i]]` does.
// Lane l starts at word l. Writes each lane's end (a word index) to `end`.
template <bool kIndexed>
__global__ void shared_chain(int steps, unsigned* end, long long* cycles) {
  __shared__ unsigned words[kSharedWords];
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(words));
  for (unsigned w = threadIdx.x; w < kSharedWords; w += blockDim.x) {
    const unsigned next = (w + 32) % kSharedWords;
    words[w] = kIndexed ? next : base + next * 4;
  }
  __syncthreads();
  unsigned p = kIndexed ? threadIdx.x : base + threadIdx.x * 4;
  const long long begin = clock64();
#pragma unroll 1
  for (int i = 0; i < steps; i += kUnroll) {
#pragma unroll
    for (int j = 0; j < kUnroll; ++j) {
      if constexpr (kIndexed) {
        p = words[p];
      } else {
        asm volatile("ld.shared.u32 %0, [%0];" : "+r"(p));
      }
    }
  }
  const long long end_clock = clock64();
  end[threadIdx.x] = kIndexed ? p : (p - base) / 4;
  if (threadIdx.x == 0) *cycles = end_clock - begin;
}

// The constant chase: every lane from word 0, each step loading the next word's index. Writes each lane's end.
__global__ void constant_chain(int steps, unsigned* end, long long* cycles) {
  unsigned p = 0;
  const long long begin = clock64();
#pragma unroll 1
  for (int i = 0; i < steps; i += kUnroll) {
#pragma unroll
    for (int j = 0; j < kUnroll; ++j) p = constant_next[p];
  }
  const long long end_clock = clock64();
  end[threadIdx.x] = p;
  if (threadIdx.x == 0) *cycles = end_clock - begin;
}

struct Timing {
  double cycles_per_instruction;
  bool ok;
};

// clock64 cycles of a launch of `run(steps)`, which leaves its span in *cycles_dev.
template <typename Run>
long long launch_cycles(Run run, int steps, long long* cycles_dev) {
  run(steps);
  WS_CHECK(cudaGetLastError());
  WS_CHECK(cudaDeviceSynchronize());
  long long cycles = 0;
  WS_CHECK(cudaMemcpy(&cycles, cycles_dev, sizeof cycles, cudaMemcpyDeviceToHost));
  return cycles;
}

// Median over `repeat` launch pairs of (cycles over 2S steps - cycles over S steps) / (S x instructions per step),
// after one warm-up launch.
template <typename Run>
double cycles_per_instruction(Run run, int instructions_per_step, int repeat, long long* cycles_dev) {
  launch_cycles(run, kSteps, cycles_dev);
  std::vector<float> per_instruction;
  for (int r = 0; r < repeat; ++r) {
    const long long shorter = launch_cycles(run, kSteps, cycles_dev);
    const long long longer = launch_cycles(run, 2 * kSteps, cycles_dev);
    per_instruction.push_back(static_cast<float>(longer - shorter) / (float{kSteps} * instructions_per_step));
  }
  return ws::median(per_instruction);
}

// The chain of Op in one warp from x0; checked against the host where the host can run it exactly.
template <typename Op>
Timing time_chain(int repeat, long long* cycles_dev, bool check_on_host) {
  using Value = typename Op::Value;
  const Value x0 = static_cast<Value>(1);
  std::vector<Value> start(32, x0);
  Value* x = nullptr;
  WS_CHECK(cudaMalloc(&x, 32 * sizeof(Value)));
  const auto run = [&](int steps) {
    WS_CHECK(cudaMemcpy(x, start.data(), 32 * sizeof(Value), cudaMemcpyHostToDevice));
    chain<Op><<<1, 32>>>(x, steps, cycles_dev);
  };
  const double cycles = cycles_per_instruction(run, Op::kInstructionsPerStep, repeat, cycles_dev);
  // The last launch ran 2S steps from x0.
  std::vector<Value> got(32);
  WS_CHECK(cudaMemcpy(got.data(), x, 32 * sizeof(Value), cudaMemcpyDeviceToHost));
  WS_CHECK(cudaFree(x));
  bool ok = true;
  if (check_on_host) {
    Value want = x0;
    for (int s = 0; s < 2 * kSteps; ++s) want = Op::step(want);
    for (const Value& v : got) ok = ok && std::memcmp(&v, &want, sizeof v) == 0;
  }
  return {cycles, ok};
}

template <bool kIndexed>
Timing time_shared_chain(int repeat, long long* cycles_dev) {
  unsigned* end = nullptr;
  WS_CHECK(cudaMalloc(&end, 32 * sizeof(unsigned)));
  const auto run = [&](int steps) { shared_chain<kIndexed><<<1, 32>>>(steps, end, cycles_dev); };
  const double cycles = cycles_per_instruction(run, 1, repeat, cycles_dev);
  std::vector<unsigned> got(32);
  WS_CHECK(cudaMemcpy(got.data(), end, sizeof(unsigned) * 32, cudaMemcpyDeviceToHost));
  WS_CHECK(cudaFree(end));
  bool ok = true;
  for (unsigned lane = 0; lane < 32; ++lane)  // 2S steps of 32 words each from word `lane`
    ok = ok && got[lane] == (lane + 2ull * kSteps * 32) % kSharedWords;
  return {cycles, ok};
}

Timing time_constant_chain(int repeat, long long* cycles_dev) {
  std::vector<unsigned> next(kConstantWords);
  for (unsigned w = 0; w < kConstantWords; ++w) next[w] = (w + kConstantStride) % kConstantWords;
  WS_CHECK(cudaMemcpyToSymbol(constant_next, next.data(), sizeof(unsigned) * kConstantWords));
  unsigned* end = nullptr;
  WS_CHECK(cudaMalloc(&end, 32 * sizeof(unsigned)));
  const auto run = [&](int steps) { constant_chain<<<1, 32>>>(steps, end, cycles_dev); };
  const double cycles = cycles_per_instruction(run, 1, repeat, cycles_dev);
  std::vector<unsigned> got(32);
  WS_CHECK(cudaMemcpy(got.data(), end, sizeof(unsigned) * 32, cudaMemcpyDeviceToHost));
  WS_CHECK(cudaFree(end));
  const unsigned want = static_cast<unsigned>(2ull * kSteps * kConstantStride % kConstantWords);
  bool ok = true;
  for (const unsigned v : got) ok = ok && v == want;
  return {cycles, ok};
}

bool report(const char* chain_class, const char* instruction, const Timing& timing, std::string& detail) {
  std::printf("chain %s %s %.2f\n", chain_class, instruction, timing.cycles_per_instruction);
  const bool plausible = timing.cycles_per_instruction > 0.5 && timing.cycles_per_instruction < 1000;
  if (!timing.ok) detail += std::string(" ") + chain_class + "_wrong_result";
  if (!plausible) detail += std::string(" ") + chain_class + "_implausible_cycles";
  return timing.ok && plausible;
}

template <typename Op>
bool measure(int repeat, long long* cycles_dev, bool check_on_host, std::string& detail) {
  return report(Op::kClass, Op::kInstruction, time_chain<Op>(repeat, cycles_dev, check_on_host), detail);
}

}  // namespace

int main(int argc, char** argv) {
  const cudaDeviceProp prop = ws::device_properties();
  const int repeat = ws::repeat_arg(argc, argv);
  std::printf("device %s sms %d steps %d\n", prop.name, prop.multiProcessorCount, kSteps);
  long long* cycles_dev = nullptr;
  WS_CHECK(cudaMalloc(&cycles_dev, sizeof(long long)));
  std::string detail;
  bool ok = measure<Ffma>(repeat, cycles_dev, true, detail);
  ok = measure<Dfma>(repeat, cycles_dev, true, detail) && ok;
  ok = measure<Hfma2>(repeat, cycles_dev, false, detail) && ok;
  ok = measure<Imad>(repeat, cycles_dev, true, detail) && ok;
  ok = measure<AddXor>(repeat, cycles_dev, true, detail) && ok;
  ok = measure<Ex2>(repeat, cycles_dev, false, detail) && ok;
  ok = measure<Mufu<MufuFunction::kRsq>>(repeat, cycles_dev, false, detail) && ok;
  ok = measure<Mufu<MufuFunction::kLg2>>(repeat, cycles_dev, false, detail) && ok;
  ok = measure<Mufu<MufuFunction::kSin>>(repeat, cycles_dev, false, detail) && ok;
  ok = report("shared", "LDS", time_shared_chain<false>(repeat, cycles_dev), detail) && ok;
  // Per step: the address computation and the LDS (two instructions; the cycles are the step's, not halved).
  ok = report("shared_indexed", "IMAD+LDS", time_shared_chain<true>(repeat, cycles_dev), detail) && ok;
  // Per step: the address computation and the LDC, as for shared_indexed.
  ok = report("constant_indexed", "LDC", time_constant_chain(repeat, cycles_dev), detail) && ok;
  WS_CHECK(cudaFree(cycles_dev));
  return ws::report_check("microbench_chain", ok, "chains 12" + detail);
}
