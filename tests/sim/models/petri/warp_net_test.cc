// The paper's warp net: step counts worked out by hand from the construction in warp_net.h.
//
// A lone warp's instruction takes: arithmetic t2|t1|t7|t15 = 4 steps; shared t3|t1|t6|l2 x t17|t12|t14 = 5 + l2;
// global t4|t1|t5|l1 x t8|t9|t11 = 5 + l1. The next selection follows the completion; t16 adds one final step.
#include "petri/warp_net.h"

#include <gtest/gtest.h>

#include <vector>

#include "petri/engine.h"

namespace warpsim::models::petri {
namespace {

RunResult run_warps(const std::vector<PaperWarp>& warps, const PaperParams& params, uint64_t seed = 1) {
  RunOptions options;
  options.seed = seed;
  options.max_steps = 10'000'000;
  return run(paper_sm_net(warps, params), options);
}

PaperParams params(Tokens schedulers, Tokens l1 = 20, Tokens l2 = 2) {
  PaperParams p;
  p.schedulers = schedulers;
  p.global_latency = l1;
  p.shared_latency = l2;
  return p;
}

uint64_t idle(const RunResult& r) { return r.firings[0]; }  // t0 is transition 0

TEST(PaperWarpNet, HasTheSmPartAnd18PlacesAnd15TransitionsPerWarp) {
  const std::vector<PaperWarp> warps(3, PaperWarp{1, 1, 1});
  const Net net = paper_sm_net(warps, params(4));
  EXPECT_EQ(net.place_count(), 2u + 18 * 3);
  EXPECT_EQ(net.transition_count(), 1u + 15 * 3);
  EXPECT_EQ(net.transition_name(0), "t0");
  EXPECT_EQ(net.place_name(0), "p0");
  EXPECT_EQ(net.initial_marking()[net.place("w2.p9")], 1);
  EXPECT_EQ(net.initial_marking()[net.place("w0.p13")], 20);  // l1
  EXPECT_EQ(net.initial_marking()[net.place("w0.p18")], 2);   // l2
  EXPECT_EQ(net.inhibitors(0).size(), 3u);                    // one p2 per warp
}

TEST(PaperWarpNet, LoneArithmeticWarpTakesFourStepsPerInstruction) {
  for (const Tokens n : {0, 1, 7, 100}) {
    const RunResult one = run_warps({{n, 0, 0}}, params(1));
    EXPECT_TRUE(one.dead);
    EXPECT_EQ(one.steps, static_cast<uint64_t>(4 * n + 1)) << n;
    EXPECT_EQ(idle(one), 0u) << "the only SM token is held from t1 to t15";
    // With four tokens three stay free while t7 and t15 fire: those two steps per instruction are idle.
    const RunResult four = run_warps({{n, 0, 0}}, params(4));
    EXPECT_EQ(four.steps, static_cast<uint64_t>(4 * n + 1));
    EXPECT_EQ(idle(four), static_cast<uint64_t>(2 * n));
  }
}

TEST(PaperWarpNet, SharedAccessCostsL2PlusOneMoreThanArithmetic) {
  for (const Tokens l2 : {0, 2, 7}) {
    const Tokens n = 10;
    const RunResult r = run_warps({{0, n, 0}}, params(1, 20, l2));
    EXPECT_EQ(r.steps, static_cast<uint64_t>(n * (5 + l2) + 1)) << "l2 " << l2;
    EXPECT_EQ(idle(r), 0u) << "a shared access keeps the SM token";
  }
}

TEST(PaperWarpNet, GlobalAccessCostsL1PlusOneMoreAndFreesTheSm) {
  for (const Tokens l1 : {0, 20, 50}) {
    const Tokens n = 10;
    const RunResult r = run_warps({{0, 0, n}}, params(1, l1, 2));
    EXPECT_EQ(r.steps, static_cast<uint64_t>(n * (5 + l1) + 1)) << "l1 " << l1;
    // t5 gave the token back: idle while t8 waits l1 steps, then during t9 and t11.
    EXPECT_EQ(idle(r), static_cast<uint64_t>(n * (l1 + 2))) << "l1 " << l1;
  }
}

TEST(PaperWarpNet, MixedLoneWarpIsTheSumWhateverTheRandomOrder) {
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    const RunResult r = run_warps({{6, 4, 3}}, params(1, 20, 2), seed);
    EXPECT_EQ(r.steps, 6u * 4 + 4u * 7 + 3u * 25 + 1) << seed;
  }
}

TEST(PaperWarpNet, DeadMarkingHasEveryWarpTerminatedAndTheCountersRefilled) {
  const std::vector<PaperWarp> warps(4, PaperWarp{5, 3, 2});
  const Net net = paper_sm_net(warps, params(2, 9, 3));
  const RunResult r = run(net);
  ASSERT_TRUE(r.dead);
  EXPECT_EQ(r.marking[net.place("p0")], 2);
  EXPECT_EQ(r.marking[net.place("p_active")], 0);
  for (int w = 0; w < 4; ++w) {
    const std::string prefix = "w" + std::to_string(w) + ".";
    EXPECT_EQ(r.marking[net.place(prefix + "p1")], 0);
    EXPECT_EQ(r.marking[net.place(prefix + "p13")], 9);
    EXPECT_EQ(r.marking[net.place(prefix + "p18")], 3);
    EXPECT_EQ(r.firings[net.transition(prefix + "t2")], 5u);
    EXPECT_EQ(r.firings[net.transition(prefix + "t3")], 3u);
    EXPECT_EQ(r.firings[net.transition(prefix + "t4")], 2u);
    EXPECT_EQ(r.firings[net.transition(prefix + "t8")], 2u * 9);
    EXPECT_EQ(r.firings[net.transition(prefix + "t16")], 1u);
  }
}

TEST(PaperWarpNet, MoreWarpsHideGlobalLatency) {
  // Global-only warps on one SM token: a lone warp idles l1 + 2 steps per access; other warps fill those steps.
  const Tokens n = 20;
  uint64_t previous_idle = 0;
  double previous_steps_per_warp = 0;
  for (const size_t warps : {1u, 2u, 4u, 8u}) {
    const RunResult r = run_warps(std::vector<PaperWarp>(warps, PaperWarp{0, 0, n}), params(1));
    const double steps_per_warp = static_cast<double>(r.steps) / static_cast<double>(warps);
    if (warps > 1) {
      EXPECT_LT(idle(r), previous_idle) << warps << " warps";
      EXPECT_LT(steps_per_warp, previous_steps_per_warp) << warps << " warps";
    }
    previous_idle = idle(r);
    previous_steps_per_warp = steps_per_warp;
  }
  // Eight warps: the SM token is busy 2 of every 25 steps per warp, so 8 warps keep it busy most of the time.
  const RunResult eight = run_warps(std::vector<PaperWarp>(8, PaperWarp{0, 0, n}), params(1));
  EXPECT_LT(static_cast<double>(idle(eight)), 0.45 * static_cast<double>(eight.steps));
}

TEST(PaperWarpNet, FourSchedulerTokensRunFourArithmeticWarpsThreeTimesFaster) {
  // Four tokens: each warp has its own, 4n + 1 steps. One token: an arithmetic instruction holds it for three steps
  // (t1, t7, t15), so the SM completes one every 3 steps: about 12n. The ratio is 3, not 4, because a lone warp needs
  // 4 steps per instruction (its selection does not overlap), while the token is held 3.
  const Tokens n = 100;
  const std::vector<PaperWarp> warps(4, PaperWarp{n, 0, 0});
  const RunResult four = run_warps(warps, params(4));
  EXPECT_EQ(four.steps, static_cast<uint64_t>(4 * n + 1));
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    const RunResult one = run_warps(warps, params(1), seed);
    EXPECT_GE(one.steps, static_cast<uint64_t>(12 * n + 2));
    EXPECT_LE(one.steps, static_cast<uint64_t>(12 * n + 2 + 4 * 8)) << "seed " << seed;
    EXPECT_NEAR(static_cast<double>(one.steps) / static_cast<double>(four.steps), 3.0, 0.1);
    // The model's time unit rests on this: one arithmetic instruction per token every kPaperStepsPerCycle steps.
    EXPECT_NEAR(static_cast<double>(one.steps) / static_cast<double>(4 * n), kPaperStepsPerCycle, 0.1);
  }
}

TEST(PaperWarpNet, TwoTokensServeTwiceTheWarpsOfOne) {
  const Tokens n = 50;
  const std::vector<PaperWarp> warps(8, PaperWarp{n, 0, 0});
  const RunResult one = run_warps(warps, params(1));
  const RunResult two = run_warps(warps, params(2));
  EXPECT_NEAR(static_cast<double>(one.steps) / static_cast<double>(two.steps), 2.0, 0.05);
}

}  // namespace
}  // namespace warpsim::models::petri
