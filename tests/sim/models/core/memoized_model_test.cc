#include "memoized_model.h"

#include <gtest/gtest.h>

#include "test_gpu.h"
#include "test_launch.h"

namespace warpsim::models {
namespace {

// Counts its calls; predicts the grid size as SM time, so a wrong cache hit shows.
class CountingModel : public KernelModel {
 public:
  explicit CountingModel(int& calls) : calls_(calls) {}
  std::string_view name() const override { return "counting"; }
  KernelPrediction predict(const KernelView& kernel, const platform::GpuSpec&) const override {
    ++calls_;
    KernelPrediction prediction;
    prediction.sm_time_s = kernel.launch().grid().x() * 1e-6;
    return prediction;
  }

 private:
  int& calls_;
};

TEST(MemoizedModel, PredictsAnIdenticalLaunchOnce) {
  int calls = 0;
  const MemoizedModel model(std::make_unique<CountingModel>(calls));
  KernelLaunch first = testing::fma_kernel(10, 64, 3);
  KernelLaunch again = first;
  again.set_correlation_id(first.correlation_id() + 1);
  again.set_stream_id(first.stream_id() + 1);
  const platform::GpuSpec gpu = testing::h100();
  EXPECT_DOUBLE_EQ(model.predict(KernelView::of(first), gpu).sm_time_s, 10e-6);
  EXPECT_DOUBLE_EQ(model.predict(KernelView::of(again), gpu).sm_time_s, 10e-6);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(model.name(), "counting");
}

TEST(MemoizedModel, OtherWorkOrAnotherGpuIsPredictedAgain) {
  int calls = 0;
  const MemoizedModel model(std::make_unique<CountingModel>(calls));
  const KernelLaunch launch = testing::fma_kernel(10, 64, 3);
  const platform::GpuSpec gpu = testing::h100();
  platform::GpuSpec faster = gpu;
  faster.set_sm_clock_mhz(2100);
  model.predict(KernelView::of(launch), gpu);
  EXPECT_DOUBLE_EQ(model.predict(KernelView::of(testing::fma_kernel(20, 64, 3)), gpu).sm_time_s, 20e-6);
  model.predict(KernelView::of(launch), faster);
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(model.distinct_launches(), 3u);
}

TEST(MemoizedModel, EqualGpuSpecsAtTwoAddressesShareTheirPredictions) {
  int calls = 0;
  const MemoizedModel model(std::make_unique<CountingModel>(calls));
  const KernelLaunch launch = testing::fma_kernel(10, 64, 3);
  const platform::GpuSpec device0 = testing::h100();
  const platform::GpuSpec device1 = device0;  // a node of two equal GPUs: a spec per device
  model.predict(KernelView::of(launch), device0);
  model.predict(KernelView::of(launch), device1);
  model.predict(KernelView::of(launch), device0);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(model.distinct_launches(), 1u);
}

}  // namespace
}  // namespace warpsim::models
