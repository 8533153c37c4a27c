// The scheduler as a closed queue (machine repairman, exact MVA): the latency bound for one warp, the issue bound for
// many, above both where they meet.
#include "wave/scheduler_queue.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace warpsim::models::wave {
namespace {

TEST(WaveSchedulerQueue, OneWarpTakesItsPath) {
  EXPECT_DOUBLE_EQ(closed_queue_cycles(1, 100, 100, 400), 400);
}

TEST(WaveSchedulerQueue, ManyWarpsKeepTheSchedulerBusy) {
  const double cycles = closed_queue_cycles(64, 100, 100, 400);
  EXPECT_GE(cycles, 64 * 100);
  EXPECT_LT(cycles, 64 * 100 * 1.001);  // Q(N) -> N - Z / S: the scheduler never idles
}

// Two warps, S = 1 and Z = 3 per instruction: X(1) = 1/4, Q(1) = 1/4, R(2) = 5/4, X(2) = 2 / (5/4 + 3) = 8/17.
TEST(WaveSchedulerQueue, WhereTheBoundsMeetWarpsWaitForEachOther) {
  EXPECT_DOUBLE_EQ(closed_queue_cycles(2, 100, 100, 400), 2 * 100 * 17.0 / 8);
  EXPECT_GT(closed_queue_cycles(4, 100, 100, 400), std::max(400.0, 4 * 100.0));
}

TEST(WaveSchedulerQueue, NoThinkTimeIsTheIssueBound) {
  EXPECT_DOUBLE_EQ(closed_queue_cycles(3, 100, 100, 100), 300);
  EXPECT_DOUBLE_EQ(closed_queue_cycles(3, 100, 100, 50), 300);  // a path shorter than its issue: still 3 x issue
}

TEST(WaveSchedulerQueue, EmptyInputsGiveTheBounds) {
  EXPECT_DOUBLE_EQ(closed_queue_cycles(0, 100, 100, 400), 400);
  EXPECT_DOUBLE_EQ(closed_queue_cycles(2, 0, 0, 0), 0);
}

}  // namespace
}  // namespace warpsim::models::wave
