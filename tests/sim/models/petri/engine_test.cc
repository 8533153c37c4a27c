// Maximal concurrent step semantics on small nets whose runs are worked out by hand.
#include "petri/engine.h"

#include <gtest/gtest.h>

#include "petri/net.h"

namespace warpsim::models::petri {
namespace {

RunOptions seeded(uint64_t seed) {
  RunOptions options;
  options.seed = seed;
  return options;
}

TEST(Engine, EmptyNetIsDeadAtOnce) {
  const RunResult r = run(NetBuilder().build());
  EXPECT_TRUE(r.dead);
  EXPECT_EQ(r.steps, 0u);
}

TEST(Engine, SourceTransitionWithoutPlacesFiresEveryStep) {
  NetBuilder b;
  const TransitionId source = b.add_transition("source");
  RunOptions options;
  options.max_steps = 3;
  const RunResult r = run(b.build(), options);
  EXPECT_FALSE(r.dead);
  EXPECT_EQ(r.firings[source], 3u);
}

TEST(Engine, WeightsConsumeAndProduceTheirTokens) {
  // t: 2 p -> 3 q, p = 5: fires at 5 and 3, then 1 < 2: dead after 2 steps with q = 6.
  NetBuilder b;
  const PlaceId p = b.add_place("p", 5);
  const PlaceId q = b.add_place("q");
  const TransitionId t = b.add_transition("t");
  b.input(t, p, 2);
  b.output(t, q, 3);
  const RunResult r = run(b.build());
  EXPECT_TRUE(r.dead);
  EXPECT_EQ(r.steps, 2u);
  EXPECT_EQ(r.firings[t], 2u);
  EXPECT_EQ(r.marking[p], 1);
  EXPECT_EQ(r.marking[q], 6);
}

TEST(Engine, ATransitionFiresAtMostOncePerStep) {
  // p = 3 tokens for t: p -> q: three steps, not one.
  NetBuilder b;
  const PlaceId p = b.add_place("p", 3);
  const PlaceId q = b.add_place("q");
  const TransitionId t = b.add_transition("t");
  b.input(t, p);
  b.output(t, q);
  EXPECT_EQ(run(b.build()).steps, 3u);
}

TEST(Engine, IndependentTransitionsFireInOneStep) {
  NetBuilder b;
  const PlaceId p1 = b.add_place("p1", 1);
  const PlaceId p2 = b.add_place("p2", 1);
  const TransitionId a = b.add_transition("a");
  const TransitionId c = b.add_transition("c");
  b.input(a, p1);
  b.input(c, p2);
  const RunResult r = run(b.build());
  EXPECT_EQ(r.steps, 1u);
  EXPECT_EQ(r.firings[a], 1u);
  EXPECT_EQ(r.firings[c], 1u);
  EXPECT_EQ(r.total_firings, 2u);
}

TEST(Engine, TokensProducedInAStepAreUsableFromTheNextStep) {
  // p -> t1 -> q -> t2 -> r: two steps, never one.
  NetBuilder b;
  const PlaceId p = b.add_place("p", 1);
  const PlaceId q = b.add_place("q");
  const PlaceId r = b.add_place("r");
  const TransitionId t1 = b.add_transition("t1");
  const TransitionId t2 = b.add_transition("t2");
  b.input(t1, p);
  b.output(t1, q);
  b.input(t2, q);
  b.output(t2, r);
  const RunResult result = run(b.build());
  EXPECT_EQ(result.steps, 2u);
  EXPECT_EQ(result.marking[r], 1);
}

TEST(Engine, InhibitorArcDisablesAtItsThreshold) {
  for (const Tokens inhibiting : {0, 1, 2, 3}) {
    NetBuilder b;
    const PlaceId p = b.add_place("p", 1);
    const PlaceId h = b.add_place("h", inhibiting);
    const TransitionId t = b.add_transition("t");
    b.input(t, p);
    b.inhibitor(t, h, 2);  // disabled while h >= 2
    const RunResult r = run(b.build());
    EXPECT_EQ(r.firings[t], inhibiting < 2 ? 1u : 0u) << inhibiting;
  }
}

TEST(Engine, InhibitorsAreJudgedAtTheStepsStartingMarking) {
  // a empties h in step 1; b, inhibited by h, may fire only from step 2 although a came first in the order.
  NetBuilder b;
  const PlaceId h = b.add_place("h", 1);
  const PlaceId p = b.add_place("p", 1);
  const TransitionId a = b.add_transition("a");
  const TransitionId c = b.add_transition("c");
  b.input(a, h);
  b.input(c, p);
  b.inhibitor(c, h);
  for (uint64_t seed = 0; seed < 16; ++seed) {
    const RunResult r = run(b.build(), seeded(seed));
    EXPECT_EQ(r.steps, 2u) << seed;
    EXPECT_EQ(r.firings[c], 1u);
  }
}

TEST(Engine, InhibitorWithoutTokensReEnablesWhenEmptied) {
  // h holds 2; d drains it one per step; c (inhibited by h) waits for the step after h is empty.
  NetBuilder b;
  const PlaceId h = b.add_place("h", 2);
  const PlaceId p = b.add_place("p", 1);
  const TransitionId d = b.add_transition("d");
  const TransitionId c = b.add_transition("c");
  b.input(d, h);
  b.input(c, p);
  b.inhibitor(c, h);
  const RunResult r = run(b.build());
  EXPECT_EQ(r.steps, 3u);
  EXPECT_EQ(r.firings[d], 2u);
  EXPECT_EQ(r.firings[c], 1u);
}

// One token in p, two transitions wanting it: each step fires exactly one of them.
Net conflict() {
  NetBuilder b;
  const PlaceId p = b.add_place("p", 1);
  const PlaceId x = b.add_place("x");
  const PlaceId y = b.add_place("y");
  const TransitionId a = b.add_transition("a");
  const TransitionId c = b.add_transition("c");
  b.input(a, p);
  b.output(a, x);
  b.input(c, p);
  b.output(c, y);
  return b.build();
}

TEST(Engine, ConflictFiresOneAndTheSeedDecidesWhichReproducibly) {
  const Net net = conflict();
  bool x_won = false;
  bool y_won = false;
  for (uint64_t seed = 0; seed < 64; ++seed) {
    const RunResult first = run(net, seeded(seed));
    const RunResult again = run(net, seeded(seed));
    EXPECT_EQ(first.steps, 1u);
    EXPECT_EQ(first.total_firings, 1u);
    EXPECT_EQ(first.marking, again.marking) << "seed " << seed << " is not reproducible";
    x_won = x_won || first.marking[1] == 1;
    y_won = y_won || first.marking[2] == 1;
  }
  EXPECT_TRUE(x_won);
  EXPECT_TRUE(y_won);
}

TEST(Engine, ConflictOutcomesAreRoughlyEven) {
  const Net net = conflict();
  int x_won = 0;
  for (uint64_t seed = 0; seed < 1000; ++seed) x_won += static_cast<int>(run(net, seeded(seed)).marking[1]);
  EXPECT_GT(x_won, 420);
  EXPECT_LT(x_won, 580);
}

TEST(Engine, StopsAtTheStepLimitWhenNeverDead) {
  NetBuilder b;
  const PlaceId p = b.add_place("p", 1);
  const TransitionId loop = b.add_transition("loop");
  b.read(loop, p);
  RunOptions options;
  options.max_steps = 10;
  const RunResult r = run(b.build(), options);
  EXPECT_FALSE(r.dead);
  EXPECT_EQ(r.steps, 10u);
  EXPECT_EQ(r.firings[loop], 10u);
}

TEST(Engine, RunsFromAGivenMarking) {
  NetBuilder b;
  const PlaceId p = b.add_place("p", 1);
  const TransitionId t = b.add_transition("t");
  b.input(t, p);
  const Net net = b.build();
  EXPECT_EQ(run(net, std::vector<Tokens>{4}).steps, 4u);
  EXPECT_THROW(run(net, std::vector<Tokens>{1, 2}), std::invalid_argument);
}

}  // namespace
}  // namespace warpsim::models::petri
