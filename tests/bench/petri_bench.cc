// Speed of the Petri-net model: the engine's firing rate on full SM nets, and a whole prediction of a 65,536-block
// kernel. Run: build/tests/petri_bench (add --benchmark_filter=Engine to pick).
#include <benchmark/benchmark.h>

#include <vector>

#include "kernel_model.h"
#include "petri/engine.h"
#include "petri/extended_net.h"
#include "petri/petri_model.h"
#include "petri/warp_net.h"
#include "test_gpu.h"

namespace warpsim::models::petri {
namespace {

// 64 warps (a full H100 SM) of the paper's net, four scheduler tokens, a radix-sort-like mix.
void BM_EnginePaperNet64Warps(benchmark::State& state) {
  const std::vector<PaperWarp> warps(64, PaperWarp{200, 40, 30});
  const Net net = paper_sm_net(warps, PaperParams{});
  uint64_t firings = 0;
  uint64_t seed = 1;
  for (auto _ : state) {
    RunOptions options;
    options.seed = seed++;
    const RunResult r = run(net, options);
    firings += r.total_firings;
    benchmark::DoNotOptimize(r.steps);
  }
  state.counters["firings_per_s"] = benchmark::Counter(static_cast<double>(firings), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_EnginePaperNet64Warps)->Unit(benchmark::kMillisecond);

// The platform variant's net: H100 latencies (global ~480 cycles: most firings are latency ticks), SFU pipe, slots.
void BM_EngineExtendedNet64Warps(benchmark::State& state) {
  ExtendedParams p;
  p.pipes = {{"xu", 0.5}, {"lsu", 1}};
  p.kinds[kind_index(InstructionKind::kFp32)] = {4, -1};
  p.kinds[kind_index(InstructionKind::kInt)] = {4, -1};
  p.kinds[kind_index(InstructionKind::kSfu)] = {23, 0};
  p.kinds[kind_index(InstructionKind::kShared)] = {30, 1};
  p.kinds[kind_index(InstructionKind::kGlobal)] = {480, 1};
  p.dram_slots = 68;
  PerKind<Tokens> counts{};
  counts[kind_index(InstructionKind::kFp32)] = 120;
  counts[kind_index(InstructionKind::kInt)] = 60;
  counts[kind_index(InstructionKind::kSfu)] = 4;
  counts[kind_index(InstructionKind::kShared)] = 20;
  counts[kind_index(InstructionKind::kGlobal)] = 10;
  const Net net = extended_sm_net(std::vector<PerKind<Tokens>>(64, counts), p);
  uint64_t firings = 0;
  for (auto _ : state) {
    const RunResult r = run(net);
    firings += r.total_firings;
    benchmark::DoNotOptimize(r.steps);
  }
  state.counters["firings_per_s"] = benchmark::Counter(static_cast<double>(firings), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_EngineExtendedNet64Warps)->Unit(benchmark::kMillisecond);

// A 65,536-block kernel of 256 threads (524,288 warps), 2,400 warp instructions per warp: 62 full waves of 64 warps
// per SM on an H100 and a tail. The counters are those of a memory-heavy elementwise kernel.
KernelLaunch big_kernel() {
  const uint64_t warps = 65536ull * 8;
  KernelLaunch k;
  k.set_name("_Z3bigv");
  k.mutable_grid()->set_x(65536);
  k.mutable_block()->set_x(256);
  k.set_registers_per_thread(32);
  KernelCounters& c = *k.mutable_counters();
  c.mutable_warp_instructions()->set_total(warps * 2400);
  c.mutable_warp_instructions()->set_global_ld(warps * 160);
  c.mutable_warp_instructions()->set_global_st(warps * 80);
  c.mutable_warp_instructions()->set_shared_ld(warps * 200);
  c.mutable_warp_instructions()->set_shared_st(warps * 100);
  c.mutable_pipes()->set_fma(warps * 900);
  c.mutable_pipes()->set_alu(warps * 700);
  c.mutable_pipes()->set_xu(warps * 40);
  c.mutable_memory()->set_dram_read_bytes(warps * 160 * 128);
  c.mutable_memory()->set_dram_write_bytes(warps * 80 * 128);
  c.mutable_memory()->set_l1_hit_rate_pct(20);
  c.mutable_memory()->set_l2_hit_rate_pct(40);
  return k;
}

void BM_Predict65536Blocks(benchmark::State& state, Variant variant) {
  const PetriModel model(variant);
  const KernelView kernel = KernelView::of(big_kernel());
  const platform::GpuSpec gpu = models::testing::h100();
  for (auto _ : state) {
    const KernelPrediction p = model.predict(kernel, gpu);
    benchmark::DoNotOptimize(p.sm_time_s);
    state.counters["predicted_ms"] = p.sm_time_s * 1e3;
  }
}
BENCHMARK_CAPTURE(BM_Predict65536Blocks, petri, Variant::kPlatform)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Predict65536Blocks, petri_paper, Variant::kPaper)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace warpsim::models::petri

BENCHMARK_MAIN();
