// From counters to per-warp mixes, net parameters from the GPU spec, and the waves of one SM.
#include "petri/kernel_nets.h"

#include <gtest/gtest.h>

#include "test_gpu.h"
#include "test_launch.h"

namespace warpsim::models::petri {
namespace {

using models::testing::h100;
using models::testing::launch;

KernelCounters mixed_counters() {
  KernelCounters c;
  WarpInstructions& w = *c.mutable_warp_instructions();
  w.set_total(1000);
  w.set_global_ld(100);
  w.set_global_st(50);
  w.set_local_ld(10);
  w.set_shared_ld(200);
  w.set_shared_st(40);
  PipeInstructions& p = *c.mutable_pipes();
  p.set_fma(300);
  p.set_alu(100);
  p.set_fp64(20);
  p.set_xu(10);
  p.set_tensor(0);
  return c;
}

TEST(KernelNets, PaperMixSplitsTheTotalIntoArithmeticSharedGlobal) {
  const PaperMix mix = paper_mix(mixed_counters(), 10);
  EXPECT_DOUBLE_EQ(mix.global, 16);  // (100 + 50 + 10 local) / 10
  EXPECT_DOUBLE_EQ(mix.shared, 24);
  EXPECT_DOUBLE_EQ(mix.arithmetic, 60);  // (1000 - 160 - 240) / 10
}

TEST(KernelNets, PaperMixCountsRepeatedAccessesFromSectorsAndWavefronts) {
  KernelCounters c = mixed_counters();
  c.mutable_memory()->set_l1_sectors(4 * 1600);        // ten times the sectors of 160 coalesced 4-byte warp accesses
  c.mutable_memory()->set_shared_wavefronts(2 * 240);  // every shared instruction conflicts once
  const PaperMix mix = paper_mix(c, 10);
  EXPECT_DOUBLE_EQ(mix.global, 160);
  EXPECT_DOUBLE_EQ(mix.shared, 48);
  EXPECT_DOUBLE_EQ(mix.arithmetic, 60);  // instructions, unchanged
}

TEST(KernelNets, PaperMixCountsAtLeastOneAccessPerMemoryInstruction) {
  KernelCounters c = mixed_counters();
  c.mutable_memory()->set_l1_sectors(100);  // fewer than 4 per instruction: e.g. reductions that bypass L1
  c.mutable_memory()->set_shared_wavefronts(0);
  const PaperMix mix = paper_mix(c, 10);
  EXPECT_DOUBLE_EQ(mix.global, 16);
  EXPECT_DOUBLE_EQ(mix.shared, 24);
}

TEST(KernelNets, OnlyThePaperNetRunsThreeStepsPerCycle) {
  EXPECT_DOUBLE_EQ(steps_per_cycle(Variant::kPaper), kPaperStepsPerCycle);
  EXPECT_DOUBLE_EQ(steps_per_cycle(Variant::kPlatform), 1);
}

TEST(KernelNets, KindMixUsesPipesForArithmeticAndCountsTheRestAsInt) {
  const PerKind<double> mix = kind_mix(mixed_counters(), 10, h100().sm().lanes());
  EXPECT_DOUBLE_EQ(mix[kind_index(InstructionKind::kFp32)], 30);
  EXPECT_DOUBLE_EQ(mix[kind_index(InstructionKind::kFp64)], 2);
  EXPECT_DOUBLE_EQ(mix[kind_index(InstructionKind::kSfu)], 1);
  EXPECT_DOUBLE_EQ(mix[kind_index(InstructionKind::kTensor)], 0);
  EXPECT_DOUBLE_EQ(mix[kind_index(InstructionKind::kShared)], 24);
  EXPECT_DOUBLE_EQ(mix[kind_index(InstructionKind::kGlobal)], 15);
  EXPECT_DOUBLE_EQ(mix[kind_index(InstructionKind::kLocal)], 1);
  // alu 100 plus what nothing covers: 1000 - (300 + 100 + 20 + 10 + 240 + 150 + 10) = 170.
  EXPECT_DOUBLE_EQ(mix[kind_index(InstructionKind::kInt)], 27);
}

TEST(KernelNets, ShareSpreadsFractionsOverWarps) {
  Tokens sum = 0;
  for (uint32_t w = 0; w < 4; ++w) {
    const Tokens s = share(2.5, w);
    EXPECT_TRUE(s == 2 || s == 3) << s;
    sum += s;
  }
  EXPECT_EQ(sum, 10);
  Tokens small = 0;
  for (uint32_t w = 0; w < 10; ++w) small += share(0.3, w);
  EXPECT_EQ(small, 3);
  EXPECT_EQ(share(0.4, 0), 0);  // a lone warp rounds to nearest
  EXPECT_EQ(share(0.6, 0), 1);
}

TEST(KernelNets, PaperParamsAreThePapersDefaultsWithTheGpusSchedulers) {
  platform::GpuSpec gpu = h100();
  gpu.mutable_sm()->set_schedulers(2);
  const PaperParams p = paper_params(gpu);
  EXPECT_EQ(p.schedulers, 2);
  EXPECT_EQ(p.global_latency, 20);
  EXPECT_EQ(p.shared_latency, 2);
}

TEST(KernelNets, GlobalLatencyIsWeightedByHitRates) {
  const platform::GpuSpec gpu = h100();
  KernelCounters c;
  EXPECT_DOUBLE_EQ(global_latency_cycles(c, gpu.sm()), 479);  // no hit rates: DRAM
  c.mutable_memory()->set_l1_hit_rate_pct(50);
  c.mutable_memory()->set_l2_hit_rate_pct(80);
  // 0.5 * 40 + 0.5 * (0.8 * 263 + 0.2 * 479)
  EXPECT_NEAR(global_latency_cycles(c, gpu.sm()), 173.1, 1e-9);
}

TEST(KernelNets, DramSlotsAreTheBandwidthDelayProductInRequests) {
  const platform::GpuSpec gpu = h100();
  KernelCounters c;
  c.mutable_warp_instructions()->set_global_ld(1000);
  c.mutable_memory()->set_dram_read_bytes(128000);  // 128 B per warp request
  // 3352e9 B/s * 0.92 / 132 SMs / 1.98e9 Hz = 11.80 B per cycle per SM; * 479 cycles / 128 B = 44.2 -> 45.
  EXPECT_EQ(dram_slots(c, gpu, 479), 45);
  c.mutable_memory()->set_dram_read_bytes(32000);  // 32 B per request: four times the requests fit
  EXPECT_EQ(dram_slots(c, gpu, 479), 177);
  c.mutable_memory()->set_dram_read_bytes(0);
  EXPECT_EQ(dram_slots(c, gpu, 479), 0) << "no DRAM traffic: no bound";
}

TEST(KernelNets, ExtendedParamsTakeLatenciesAndPipeRatesFromTheSpec) {
  const ExtendedParams p = extended_params(mixed_counters(), h100());
  EXPECT_EQ(p.schedulers, 4);
  EXPECT_EQ(p.kinds[kind_index(InstructionKind::kFp32)].latency, 4);
  EXPECT_EQ(p.kinds[kind_index(InstructionKind::kFp64)].latency, 8);
  EXPECT_EQ(p.kinds[kind_index(InstructionKind::kSfu)].latency, 20);
  EXPECT_EQ(p.kinds[kind_index(InstructionKind::kShared)].latency, 29);
  EXPECT_EQ(p.kinds[kind_index(InstructionKind::kGlobal)].latency, 479);
  ASSERT_EQ(p.pipes.size(), 6u);
  const int xu = p.kinds[kind_index(InstructionKind::kSfu)].pipe;
  EXPECT_EQ(p.pipes.at(static_cast<size_t>(xu)).name, "xu");
  EXPECT_DOUBLE_EQ(p.pipes.at(static_cast<size_t>(xu)).rate, 0.5);  // 16 lanes / 32
  const int lsu = p.kinds[kind_index(InstructionKind::kGlobal)].pipe;
  EXPECT_EQ(lsu, p.kinds[kind_index(InstructionKind::kShared)].pipe) << "memory kinds share the LSU pipe";
  EXPECT_DOUBLE_EQ(p.pipes.at(static_cast<size_t>(lsu)).rate, 1);
}

TEST(KernelNets, WarpPlanHasFullWavesAndTheBusiestSmOfTheTail) {
  const platform::GpuSpec gpu = h100();
  WarpPlan plan = warp_plan(launch(3000, 256), gpu);  // 8 warps per block, 8 blocks per SM (64 warps)
  EXPECT_EQ(plan.warps_per_block, 8u);
  EXPECT_EQ(plan.waves.blocks_per_sm, 8u);
  EXPECT_EQ(plan.waves.full_waves, 2u);          // 2 x 1056 blocks
  EXPECT_EQ(plan.waves.tail_blocks_per_sm, 7u);  // 888 blocks over 132 SMs
  EXPECT_EQ(plan.total_warps(), 24000u);
  EXPECT_EQ(plan.full_wave_warps(), 64u);
  EXPECT_EQ(plan.tail_wave_warps(), 56u);
  plan = warp_plan(launch(1, 1024), gpu);
  EXPECT_EQ(plan.waves.full_waves, 0u);
  EXPECT_EQ(plan.waves.tail_blocks_per_sm, 1u);
  plan = warp_plan(launch(2112, 256), gpu);
  EXPECT_EQ(plan.waves.full_waves, 2u);
  EXPECT_EQ(plan.waves.tail_blocks_per_sm, 0u);
}

TEST(KernelNets, BuildGivesEachWarpItsShareOfTheMix) {
  const KernelNets nets(Variant::kPaper, mixed_counters(), 10, h100());
  EXPECT_DOUBLE_EQ(nets.instructions_per_warp(), 100);
  const Net net = nets.build(3);  // 60 arithmetic, 24 shared, 16 global each
  EXPECT_EQ(net.initial_marking()[net.place("w1.p5")], 60);
  EXPECT_EQ(net.initial_marking()[net.place("w1.p7")], 24);
  EXPECT_EQ(net.initial_marking()[net.place("w2.p9")], 16);
  EXPECT_EQ(net.initial_marking()[net.place("p0")], 4);
  const Net sliced = nets.build(2, nets.slice(50));  // global weighs most (16 x 25): 8 exactly, the rest halved
  EXPECT_EQ(sliced.initial_marking()[sliced.place("w1.p5")], 30);
  EXPECT_EQ(sliced.initial_marking()[sliced.place("w1.p9")], 8);
  const KernelNets extended(Variant::kPlatform, mixed_counters(), 10, h100());
  EXPECT_DOUBLE_EQ(extended.instructions_per_warp(), 100);
  const Net ext = extended.build(2);
  EXPECT_EQ(ext.initial_marking()[ext.place("w0.count.fp32")], 30);
  EXPECT_GT(extended.firings_per_instruction(), nets.firings_per_instruction()) << "DRAM latency beats l1 = 20";
}

}  // namespace
}  // namespace warpsim::models::petri
