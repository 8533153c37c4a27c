#include <gtest/gtest.h>

#include "kernel_model.h"
#include "test_launch.h"

namespace warpsim::models {
namespace {

TEST(KernelView, ClearsTheRecordedTimesAndKeepsTheRest) {
  KernelLaunch k = testing::fma_kernel(10, 64, 3);
  k.set_start_ns(100);
  k.set_end_ns(200);
  const KernelView view = KernelView::of(k);
  EXPECT_EQ(view.launch().start_ns(), 0u);
  EXPECT_EQ(view.launch().end_ns(), 0u);
  EXPECT_EQ(view.launch().grid().x(), 10u);
  EXPECT_TRUE(view.has_counters());
  EXPECT_EQ(view.launch().counters().pipes().fma(), 30u);
}

}  // namespace
}  // namespace warpsim::models
