// The net structure: CSR arcs, dependents, lookups and the builder's checks.
#include "petri/net.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace warpsim::models::petri {
namespace {

TEST(Net, BuildKeepsPlacesTransitionsAndArcs) {
  NetBuilder b;
  const PlaceId p = b.add_place("p", 3);
  const PlaceId q = b.add_place("q");
  const TransitionId t = b.add_transition("t");
  b.input(t, p, 2);
  b.output(t, q, 5);
  b.inhibitor(t, q, 7);
  const Net net = b.build();
  ASSERT_EQ(net.place_count(), 2u);
  ASSERT_EQ(net.transition_count(), 1u);
  EXPECT_EQ(net.initial_marking(), (std::vector<Tokens>{3, 0}));
  ASSERT_EQ(net.inputs(t).size(), 1u);
  EXPECT_EQ(net.inputs(t)[0].place, p);
  EXPECT_EQ(net.inputs(t)[0].weight, 2);
  ASSERT_EQ(net.outputs(t).size(), 1u);
  EXPECT_EQ(net.outputs(t)[0].weight, 5);
  ASSERT_EQ(net.inhibitors(t).size(), 1u);
  EXPECT_EQ(net.inhibitors(t)[0].weight, 7);
  EXPECT_EQ(net.place("q"), q);
  EXPECT_EQ(net.transition("t"), t);
}

TEST(Net, DependentsAreTheArcsReadingAPlaceSortedByWeight) {
  NetBuilder b;
  const PlaceId p = b.add_place("p");
  const PlaceId q = b.add_place("q");
  const TransitionId a = b.add_transition("a");
  const TransitionId c = b.add_transition("c");
  b.input(a, p);
  b.inhibitor(a, p, 3);  // input and inhibitor on the same place: two weights, two entries
  b.inhibitor(c, p);
  b.output(c, q);  // writing q does not make c depend on q
  const Net net = b.build();
  const auto deps = net.dependents(p);
  ASSERT_EQ(deps.size(), 3u);
  EXPECT_EQ(deps[0].transition, a);
  EXPECT_EQ(deps[0].weight, 1);
  EXPECT_EQ(deps[1].transition, c);
  EXPECT_EQ(deps[1].weight, 1);
  EXPECT_EQ(deps[2].transition, a);
  EXPECT_EQ(deps[2].weight, 3);
  EXPECT_TRUE(net.dependents(q).empty());
}

TEST(Net, ReadArcIsInputAndOutputOfTheSameWeight) {
  NetBuilder b;
  const PlaceId p = b.add_place("p", 1);
  const TransitionId t = b.add_transition("t");
  b.read(t, p, 2);
  const Net net = b.build();
  EXPECT_EQ(net.inputs(t)[0].weight, 2);
  EXPECT_EQ(net.outputs(t)[0].weight, 2);
}

TEST(Net, BuilderRejectsBadArcsAndMarkings) {
  NetBuilder b;
  const PlaceId p = b.add_place("p");
  const TransitionId t = b.add_transition("t");
  EXPECT_THROW(b.input(t, p, 0), std::invalid_argument);
  EXPECT_THROW(b.inhibitor(t, p, -1), std::invalid_argument);
  EXPECT_THROW(b.output(t + 1, p), std::invalid_argument);
  EXPECT_THROW(b.output(t, p + 1), std::invalid_argument);
  EXPECT_THROW(b.add_place("negative", -1), std::invalid_argument);
  EXPECT_THROW(b.build().place("nothing"), std::out_of_range);
}

}  // namespace
}  // namespace warpsim::models::petri
