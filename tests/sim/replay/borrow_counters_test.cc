// Kernels that a merge left without their core counters (their counters run chose other kernels, or profiled only
// some launches) borrow those of an identical launch, or are estimated from the launch configuration alone.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "platform.h"
#include "registry.h"
#include "sample_trace.h"
#include "simulation.h"

namespace warpsim::replay {
namespace {

using warpsim::testing::kernel_event;
using warpsim::testing::sample_counters;

Event with_tensor_ops_only(Event event) {
  event.mutable_kernel()->mutable_counters()->mutable_tensor_ops()->set_fp16(1'000'000);
  return event;
}

TEST(BorrowCounters, AKernelWithOnlyTensorCountersBorrowsTheCoreOnesAndKeepsItsOwn) {
  Event full = kernel_event(0, 7, "gemm", 1'000'000, 1000);
  *full.mutable_kernel()->mutable_counters() = sample_counters(1 << 20);
  const Event partial = with_tensor_ops_only(kernel_event(0, 7, "gemm", 2'000'000, 1000));
  const Event alone = with_tensor_ops_only(kernel_event(0, 7, "fft", 3'000'000, 1000));
  SourceTrace trace{"synthetic", warpsim::testing::two_gpu_header(), {full, partial, alone}};
  const auto model = models::make_model("roofline");
  const SimulationResult result =
      simulate(trace, platform::load_platform("h100-pcie"), model.get(), SimulationOptions{});
  EXPECT_EQ(result.counters_borrowed, 1u);
  EXPECT_EQ(result.kernels_without_counters, 1u);  // "fft": nothing to borrow, its tensor counters alone say too little
  const KernelLaunch& borrowed = result.events[1].kernel();
  ASSERT_EQ(borrowed.name(), "gemm");
  EXPECT_EQ(borrowed.counters().warp_instructions().total(), full.kernel().counters().warp_instructions().total());
  EXPECT_EQ(borrowed.counters().tensor_ops().fp16(), 1'000'000u);
}

}  // namespace
}  // namespace warpsim::replay
