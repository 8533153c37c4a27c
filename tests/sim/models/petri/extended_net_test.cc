// The `petri` variant's net: dependent-issue latency, pipe throughput, DRAM slots (construction in extended_net.h).
//
// A lone warp: select (step 1), then per instruction of latency L >= 3: issue, dispatch, L - 3 ticks, completion,
// and the next issue L steps after the previous one; the last completion is followed by t16. Steps = n L + 2.
#include "petri/extended_net.h"

#include <gtest/gtest.h>

#include <vector>

#include "petri/engine.h"

namespace warpsim::models::petri {
namespace {

PerKind<Tokens> only(InstructionKind kind, Tokens n) {
  PerKind<Tokens> counts{};
  counts[kind_index(kind)] = n;
  return counts;
}

ExtendedParams params(Tokens schedulers = 4) {
  ExtendedParams p;
  p.schedulers = schedulers;
  for (KindSpec& k : p.kinds) k = {4, -1};
  return p;
}

RunResult run_net(const std::vector<PerKind<Tokens>>& warps, const ExtendedParams& p, uint64_t seed = 1) {
  RunOptions options;
  options.seed = seed;
  options.max_steps = 10'000'000;
  return run(extended_sm_net(warps, p), options);
}

TEST(ExtendedNet, LoneWarpIssuesEveryLatency) {
  for (const Tokens latency : {3, 4, 30, 600}) {
    ExtendedParams p = params();
    p.kinds[kind_index(InstructionKind::kFp64)].latency = latency;
    const Tokens n = 10;
    const RunResult r = run_net({only(InstructionKind::kFp64, n)}, p);
    EXPECT_TRUE(r.dead);
    EXPECT_EQ(r.steps, static_cast<uint64_t>(n * latency + 2)) << "latency " << latency;
  }
}

TEST(ExtendedNet, LatenciesBelowTheFixedStagesCostThreeSteps) {
  ExtendedParams p = params();
  p.kinds[kind_index(InstructionKind::kInt)].latency = 1;
  EXPECT_EQ(run_net({only(InstructionKind::kInt, 10)}, p).steps, 10u * 3 + 2);
}

TEST(ExtendedNet, ManyWarpsAreBoundByIssue) {
  // 16 warps of latency-4 instructions on 4 schedulers: each scheduler issues one per step: 16n / 4 = 4n steps.
  const Tokens n = 50;
  const RunResult r = run_net(std::vector<PerKind<Tokens>>(16, only(InstructionKind::kFp32, n)), params(4));
  EXPECT_NEAR(static_cast<double>(r.steps), 4.0 * n, 0.05 * 4 * n);
  const RunResult one = run_net(std::vector<PerKind<Tokens>>(16, only(InstructionKind::kFp32, n)), params(1));
  EXPECT_NEAR(static_cast<double>(one.steps), 16.0 * n, 0.05 * 16 * n);
}

TEST(ExtendedNet, SlowPipeBoundsThroughput) {
  // SFU at 0.5 warp instructions per step: 8 warps x n need 16n steps, though issue would allow 2n.
  ExtendedParams p = params(4);
  p.pipes = {{"xu", 0.5}};
  p.kinds[kind_index(InstructionKind::kSfu)] = {4, 0};
  const Tokens n = 40;
  const RunResult r = run_net(std::vector<PerKind<Tokens>>(8, only(InstructionKind::kSfu, n)), p);
  EXPECT_NEAR(static_cast<double>(r.steps), 16.0 * n, 0.05 * 16 * n);
  // A quarter rate: 32n.
  p.pipes = {{"xu", 0.25}};
  const RunResult quarter = run_net(std::vector<PerKind<Tokens>>(8, only(InstructionKind::kSfu, n)), p);
  EXPECT_NEAR(static_cast<double>(quarter.steps), 32.0 * n, 0.05 * 32 * n);
}

TEST(ExtendedNet, PipeOfIntegerRateAcceptsThatManyPerStep) {
  // fp64 at 2 per step with 4 schedulers: 16 warps x n need 8n steps.
  ExtendedParams p = params(4);
  p.pipes = {{"fp64", 2}};
  p.kinds[kind_index(InstructionKind::kFp64)] = {4, 0};
  const Tokens n = 40;
  const RunResult r = run_net(std::vector<PerKind<Tokens>>(16, only(InstructionKind::kFp64, n)), p);
  EXPECT_NEAR(static_cast<double>(r.steps), 8.0 * n, 0.05 * 8 * n + 25);  // plus the first and last latencies
}

TEST(ExtendedNet, DramSlotsBoundInFlightGlobalAccesses) {
  // 16 warps of latency-100 loads: unbounded, all overlap: ~100n. Four slots: each serves one load per ~100 steps,
  // so 16n loads need ~400n steps.
  ExtendedParams p = params(4);
  p.kinds[kind_index(InstructionKind::kGlobal)].latency = 100;
  const Tokens n = 10;
  const std::vector<PerKind<Tokens>> warps(16, only(InstructionKind::kGlobal, n));
  const RunResult unbounded = run_net(warps, p);
  p.dram_slots = 4;
  const RunResult bounded = run_net(warps, p);
  EXPECT_NEAR(static_cast<double>(unbounded.steps), 100.0 * n, 0.05 * 100 * n);
  EXPECT_NEAR(static_cast<double>(bounded.steps), 400.0 * n, 0.05 * 400 * n);
  const Net net = extended_sm_net(warps, p);
  EXPECT_EQ(bounded.marking[net.place("dram")], 4) << "every slot returned";
}

TEST(ExtendedNet, MixedWarpTerminatesWithEveryInstructionDone) {
  ExtendedParams p = params(2);
  p.pipes = {{"xu", 0.5}, {"lsu", 1}};
  p.kinds[kind_index(InstructionKind::kSfu)] = {20, 0};
  p.kinds[kind_index(InstructionKind::kShared)] = {30, 1};
  p.kinds[kind_index(InstructionKind::kGlobal)] = {500, 1};
  p.dram_slots = 3;
  PerKind<Tokens> counts{};
  for (Tokens& c : counts) c = 3;
  const std::vector<PerKind<Tokens>> warps(5, counts);
  const Net net = extended_sm_net(warps, p);
  const RunResult r = run(net);
  ASSERT_TRUE(r.dead);
  EXPECT_EQ(r.marking[net.place("p_active")], 0);
  for (int w = 0; w < 5; ++w) {
    const std::string prefix = "w" + std::to_string(w) + ".";
    EXPECT_EQ(r.firings[net.transition(prefix + "t1")], 24u);
    EXPECT_EQ(r.firings[net.transition(prefix + "done.mem")], 6u);  // global and local
    EXPECT_EQ(r.firings[net.transition(prefix + "t16")], 1u);
  }
}

TEST(ExtendedNet, KindsWithoutInstructionsAddNoPlaces) {
  const Net net = extended_sm_net(std::vector<PerKind<Tokens>>{only(InstructionKind::kFp32, 1)}, params());
  EXPECT_NO_THROW(net.place("w0.count.fp32"));
  EXPECT_THROW(net.place("w0.count.global"), std::out_of_range);
  EXPECT_THROW(net.place("w0.mem"), std::out_of_range);
}

TEST(ExtendedNet, IdleStepsFallWithMoreWarps) {
  ExtendedParams p = params(4);
  p.kinds[kind_index(InstructionKind::kGlobal)].latency = 200;
  uint64_t previous = 0;
  for (const size_t warps : {1u, 4u, 16u, 64u}) {
    const RunResult r = run_net(std::vector<PerKind<Tokens>>(warps, only(InstructionKind::kGlobal, 5)), p);
    if (warps > 1) {
      EXPECT_LE(r.firings[0], previous) << warps;
    }
    previous = r.firings[0];
  }
}

}  // namespace
}  // namespace warpsim::models::petri
