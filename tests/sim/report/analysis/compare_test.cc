#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "analysis/compare.h"
#include "compare_pairs.h"
#include "report_test_traces.h"

namespace warpsim::report {
namespace {

using ::testing::DoubleNear;
using testing::hand_made;
using ::testing::HasSubstr;
using testing::host_gap_pair;
using testing::launch;
using testing::trace_file;

TEST(Compare, MapeAndMedianOfHandMadePairs) {
  const Comparison c = hand_made();
  EXPECT_EQ(c.matched, 3u);
  EXPECT_EQ(c.skipped, 0u);
  EXPECT_THAT(c.mape_pct, DoubleNear(20.0 / 3.0, 1e-9));
  EXPECT_THAT(c.median_ape_pct, DoubleNear(10.0, 1e-9));
  EXPECT_EQ(c.kernel_time_ns.a, 700u);
  EXPECT_EQ(c.kernel_time_ns.b, 690u);
  EXPECT_EQ(c.span_ns.a, 1'400u);
  EXPECT_EQ(c.span_ns.b, 1'400u);
}

TEST(Compare, TwoKernelsOffByTenPercentGiveTenPercent) {
  const auto a = trace_file("a.wstrace", {launch(0, 7, "k", 1, 0, 100), launch(0, 7, "k", 2, 100, 200)});
  const auto b = trace_file("b.wstrace", {launch(0, 7, "k", 1, 0, 110), launch(0, 7, "k", 2, 110, 180)});
  const Comparison c = compare_traces(a, b);
  EXPECT_THAT(c.mape_pct, DoubleNear(10.0, 1e-9));
  EXPECT_THAT(c.median_ape_pct, DoubleNear(10.0, 1e-9));
  ASSERT_EQ(c.kernels.size(), 2u);
  EXPECT_THAT(*c.kernels[0].error_pct, DoubleNear(10.0, 1e-9));
  EXPECT_THAT(*c.kernels[1].error_pct, DoubleNear(-10.0, 1e-9));
  ASSERT_EQ(c.by_name.size(), 1u);
  EXPECT_THAT(*c.by_name[0].mape_pct, DoubleNear(10.0, 1e-9));
  EXPECT_THAT(*c.by_name[0].sum_error_pct, DoubleNear(-10.0 / 3.0, 1e-9));
}

TEST(Compare, ByNameSumsLaunchesLongestFirst) {
  const Comparison c = hand_made();
  ASSERT_EQ(c.by_name.size(), 2u);
  EXPECT_EQ(c.by_name[0].name, "_Z4sumsv");
  EXPECT_EQ(c.by_name[1].name, "_Z4stepv");
  EXPECT_EQ(c.by_name[1].launches, 2u);
  EXPECT_EQ(c.by_name[1].a_ns, 300u);
  EXPECT_EQ(c.by_name[1].b_ns, 290u);
  EXPECT_THAT(*c.by_name[1].mape_pct, DoubleNear(10.0, 1e-9));
  EXPECT_THAT(*c.by_name[0].mape_pct, DoubleNear(0.0, 1e-9));
}

TEST(Compare, SkipsKernelsWithoutATime) {
  const auto a = trace_file("a.wstrace", {launch(0, 7, "k", 1, 0, 0), launch(0, 7, "k", 2, 10, 100)});
  const auto b = trace_file("b.wstrace", {launch(0, 7, "k", 1, 0, 50), launch(0, 7, "k", 2, 60, 150)});
  const Comparison c = compare_traces(a, b);
  EXPECT_EQ(c.matched, 2u);
  EXPECT_EQ(c.skipped, 1u);
  EXPECT_THAT(c.mape_pct, DoubleNear(50.0, 1e-9));
  EXPECT_FALSE(c.kernels[0].error_pct.has_value());
}

TEST(Compare, RejectsACountersModeReference) {
  const auto a =
      trace_file("counters.wstrace", {launch(0, 7, "k", 1, 0, 0), launch(0, 7, "k", 2, 0, 0)}, CAPTURE_MODE_COUNTERS);
  const auto b = trace_file("b.wstrace", {launch(0, 7, "k", 1, 0, 50), launch(0, 7, "k", 2, 60, 150)});
  try {
    compare_traces(a, b);
    FAIL() << "compare accepted a trace without kernel times";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("counters.wstrace: A has no kernel times"));
    EXPECT_THAT(error.what(), HasSubstr("counters-mode trace?"));
  }
}

TEST(Compare, MedianOfEvenAndOddCounts) {
  std::vector<double> odd = {5, 1, 3};
  std::vector<double> even = {4, 1, 3, 2};
  std::vector<double> none;
  EXPECT_EQ(median(odd), 3.0);
  EXPECT_EQ(median(even), 2.5);
  EXPECT_EQ(median(none), 0.0);
}

TEST(Compare, SpanErrorIsAttributedToWhatRan) {
  const Comparison c = host_gap_pair();
  EXPECT_EQ(c.span_ns.a, 17'000u);  // from the first API call to the last: the host side counts
  EXPECT_EQ(c.span_ns.b, 19'000u);
  EXPECT_THAT(*c.span_error_pct, DoubleNear(2'000.0 / 17'000.0 * 100.0, 1e-9));
  EXPECT_EQ(c.api_calls.a, 4u);
  ASSERT_EQ(c.attribution.size(), 5u);
  std::int64_t diff = 0;
  std::uint64_t a = 0;
  std::uint64_t b = 0;
  for (const CategoryDiff& row : c.attribution) {
    diff += row.diff_ns;
    a += row.a_ns;
    b += row.b_ns;
  }
  EXPECT_EQ(diff, 2'000);  // the categories add up to the spans and to their difference
  EXPECT_EQ(a, c.span_ns.a);
  EXPECT_EQ(b, c.span_ns.b);
  EXPECT_EQ(c.attribution[0].category, "kernels");
  EXPECT_EQ(c.attribution[0].diff_ns, 2'000);
  EXPECT_EQ(c.attribution[3].category, "host");
  EXPECT_EQ(c.attribution[3].a_ns, 10'000u);
  EXPECT_EQ(c.attribution[3].diff_ns, 0);
}

}  // namespace
}  // namespace warpsim::report
