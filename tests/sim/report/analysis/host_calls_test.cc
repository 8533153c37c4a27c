#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "analysis/host_calls.h"

namespace warpsim::report {
namespace {

constexpr HostThreadId kMain{4200, 4200};
constexpr HostThreadId kWorker{4200, 4201};

TEST(HostCalls, GapsLieBetweenTopLevelCallsOfEachThread) {
  const std::vector<HostCall> calls = {
      {kMain, 5'000, 8'000},    // cudaLaunchKernel
      {kMain, 0, 1'000},        // cudaMalloc (given out of order: calls are sorted per thread)
      {kMain, 5'500, 7'500},    // cuLaunchKernel, nested: no gap around it
      {kWorker, 6'000, 6'500},  // another thread: its own gaps
      {kMain, 10'000, 11'000}, {kWorker, 9'000, 16'000},
  };
  const CallStructure s = structure_calls(calls);
  EXPECT_THAT(s.gaps, ::testing::ElementsAre(HostInterval{kMain, 1'000, 5'000}, HostInterval{kMain, 8'000, 10'000},
                                             HostInterval{kWorker, 6'500, 9'000}));
}

TEST(HostCalls, ArrowPointIsInsideTheCallBeforeItsFirstNestedCall) {
  const CallStructure s = structure_calls({{kMain, 5'000, 8'000}, {kMain, 5'500, 7'500}, {kMain, 9'000, 9'100}});
  ASSERT_EQ(s.own_point_ns.size(), 3u);
  EXPECT_EQ(s.own_point_ns[0], 5'250u);  // between the call's start and its nested call's
  EXPECT_EQ(s.own_point_ns[1], 6'500u);  // no nested call: the middle
  EXPECT_EQ(s.own_point_ns[2], 9'050u);
}

TEST(HostCalls, BackToBackAndPartlyOverlappingCallsLeaveNoGap) {
  // Only a simulation could overlap calls of one thread; the later counts as top-level, with no gap before it.
  const CallStructure s = structure_calls({{kMain, 0, 100}, {kMain, 100, 200}, {kMain, 150, 300}, {kMain, 400, 500}});
  EXPECT_THAT(s.gaps, ::testing::ElementsAre(HostInterval{kMain, 300, 400}));
}

TEST(HostCalls, NoCallsNoGaps) {
  const CallStructure s = structure_calls({});
  EXPECT_TRUE(s.gaps.empty());
  EXPECT_TRUE(s.own_point_ns.empty());
}

}  // namespace
}  // namespace warpsim::report
