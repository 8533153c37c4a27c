#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <numeric>

#include "analysis/span_attribution.h"
#include "host_events.h"
#include "report_test_traces.h"

namespace warpsim::report {
namespace {

using testing::api_call_event;
using testing::host_gap_then_kernel;
using testing::launch;

constexpr std::uint64_t kMain = 4200;
constexpr std::uint64_t kWorker = 4201;

SpanAttribution attribute(const std::vector<Event>& events) {
  SpanAttributor attributor;
  for (const Event& event : events) attributor.add(event);
  return attributor.finish();
}

std::uint64_t sum(const SpanAttribution& a) { return std::accumulate(a.ns.begin(), a.ns.end(), std::uint64_t{0}); }

TEST(SpanAttribution, HostGapThenKernel) {
  const SpanAttribution a = attribute(host_gap_then_kernel(5'000));
  EXPECT_EQ(a.span_ns, 17'000u);
  EXPECT_EQ(a.at(SpanCategory::kKernels), 5'000u);
  EXPECT_EQ(a.at(SpanCategory::kCopies), 0u);
  EXPECT_EQ(a.at(SpanCategory::kApi), 2'000u);  // malloc 1000, launch and synchronize before the kernel 600, after 400
  EXPECT_EQ(a.at(SpanCategory::kHost), 10'000u);
  EXPECT_EQ(a.at(SpanCategory::kIdle), 0u);
  EXPECT_EQ(a.api_calls, 4u);
  EXPECT_EQ(sum(a), a.span_ns);
}

TEST(SpanAttribution, DiffOfTheHandBuiltPairIsTheKernels) {
  const SpanAttribution a = attribute(host_gap_then_kernel(5'000));
  const SpanAttribution b = attribute(host_gap_then_kernel(7'000));
  EXPECT_EQ(b.span_ns - a.span_ns, 2'000u);
  const std::vector<CategoryDiff> diff = attribution_diff(a, b);
  ASSERT_EQ(diff.size(), kSpanCategories);
  std::int64_t total = 0;
  for (const CategoryDiff& row : diff) {
    EXPECT_EQ(row.diff_ns, row.category == "kernels" ? 2'000 : 0) << row.category;
    total += row.diff_ns;
  }
  EXPECT_EQ(total, 2'000);
  EXPECT_EQ(diff[0].category, "kernels");
  EXPECT_EQ(diff[4].category, "idle");
}

TEST(SpanAttribution, KernelsOverCopiesOverApiOverHost) {
  const SpanAttribution a = attribute({
      api_call_event("cudaMemcpyAsync", kMain, 0, 100, 1),
      testing::copy_event(Memcpy::HTOD, 1 << 20, 0, 7, 50, 250),  // [50, 300): 50 under the call, 100 under a kernel
      launch(0, 13, "_Z1kv", 9, 200, 200),                        // [200, 400)
      api_call_event("cudaStreamSynchronize", kMain, 500, 600, 2),
      api_call_event("cudaStreamSynchronize", kWorker, 420, 700, 3),  // the worker in a call while main computes
  });
  EXPECT_EQ(a.span_ns, 700u);
  EXPECT_EQ(a.at(SpanCategory::kKernels), 200u);
  EXPECT_EQ(a.at(SpanCategory::kCopies), 150u);     // [50, 200)
  EXPECT_EQ(a.at(SpanCategory::kApi), 50u + 280u);  // [0, 50) and the worker's [420, 700)
  EXPECT_EQ(a.at(SpanCategory::kHost), 20u);        // main between its calls, nobody else busy: [400, 420)
  EXPECT_EQ(a.at(SpanCategory::kIdle), 0u);
  EXPECT_EQ(sum(a), a.span_ns);
}

TEST(SpanAttribution, WithoutApiCallsGapsAreIdle) {
  const SpanAttribution a = attribute({launch(0, 7, "_Z1kv", 1, 1'000, 100), launch(0, 7, "_Z1kv", 2, 1'300, 100),
                                       testing::memset_event(0, 7, 50'000, 1'500)});
  EXPECT_EQ(a.span_ns, 550u);
  EXPECT_EQ(a.at(SpanCategory::kKernels), 200u);
  EXPECT_EQ(a.at(SpanCategory::kCopies), 50u);
  EXPECT_EQ(a.at(SpanCategory::kApi), 0u);
  EXPECT_EQ(a.at(SpanCategory::kHost), 0u);
  EXPECT_EQ(a.at(SpanCategory::kIdle), 300u);
  EXPECT_EQ(a.api_calls, 0u);
}

TEST(SpanAttribution, TimelessEventsAndEmptyTraces) {
  EXPECT_EQ(attribute({}).span_ns, 0u);
  const SpanAttribution counters = attribute({launch(0, 7, "_Z1kv", 1, 0, 0)});  // counters mode: no times
  EXPECT_EQ(counters.span_ns, 0u);
  EXPECT_EQ(sum(counters), 0u);
}

}  // namespace
}  // namespace warpsim::report
