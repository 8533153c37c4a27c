#include <gtest/gtest.h>

#include <atomic>

#include "cupti/periodic_flusher.h"

namespace warpsim::tracer {
namespace {

TEST(PeriodicFlusher, CallsRepeatedlyUntilStopped) {
  std::atomic<int> calls{0};
  PeriodicFlusher flusher(std::chrono::milliseconds(2), [&] { ++calls; });
  while (calls.load() < 3) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  flusher.stop();
  const int after_stop = calls.load();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(calls.load(), after_stop);
  flusher.stop();  // idempotent
}

TEST(PeriodicFlusher, StopDoesNotWaitForThePeriod) {
  std::atomic<int> calls{0};
  const auto start = std::chrono::steady_clock::now();
  {
    PeriodicFlusher flusher(std::chrono::hours(1), [&] { ++calls; });
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  EXPECT_EQ(calls.load(), 0);
}

}  // namespace
}  // namespace warpsim::tracer
