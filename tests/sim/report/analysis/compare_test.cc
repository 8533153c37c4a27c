#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "analysis/compare.h"
#include "outputs/compare_json.h"
#include "outputs/compare_text.h"
#include "report_test_traces.h"

namespace warpsim::report {
namespace {

using ::testing::DoubleNear;
using ::testing::HasSubstr;
using testing::launch;
using testing::trace_file;

// Durations 100 -> 110 (+10%) and 200 -> 180 (-10%) on two streams, and 400 -> 400 (0%) of another name.
Comparison hand_made(CaptureMode b_mode = CAPTURE_MODE_SYNTHETIC) {
  const auto a =
      trace_file("a.wstrace", {launch(0, 7, "_Z4stepv", 1, 1'000, 100), launch(0, 13, "_Z4stepv", 2, 1'000, 200),
                               launch(0, 7, "_Z4sumsv", 3, 2'000, 400)});
  const auto b = trace_file("b.wstrace",
                            {launch(0, 7, "_Z4stepv", 1, 5'000, 110), launch(0, 13, "_Z4stepv", 2, 5'000, 180),
                             launch(0, 7, "_Z4sumsv", 3, 6'000, 400)},
                            b_mode);
  return compare_traces(a, b);
}

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

TEST(Compare, JsonHasTheDocumentedKeysAndNumbers) {
  TraceHeader simulated = testing::two_gpu_header();
  simulated.set_mode(CAPTURE_MODE_SIMULATED);
  simulated.mutable_simulation()->set_platform("h100_sxm");
  simulated.mutable_simulation()->set_model("roofline");
  const auto b = testing::fresh_temp_dir() / "sim.wstrace";
  testing::write_trace(b, simulated, {launch(0, 7, "_Z1kv", 1, 0, 110), launch(0, 7, "_Z1kv", 2, 200, 180)});
  const auto a = trace_file("real.wstrace", {launch(0, 7, "_Z1kv", 1, 0, 100), launch(0, 7, "_Z1kv", 2, 200, 200)},
                            CAPTURE_MODE_TIMELINE);
  const nlohmann::json json = comparison_to_json(compare_traces(a, b));
  EXPECT_EQ(json["matched"], 2);
  EXPECT_EQ(json["skipped"], 0);
  EXPECT_NEAR(json["mape_pct"].get<double>(), 10.0, 1e-9);
  EXPECT_NEAR(json["median_ape_pct"].get<double>(), 10.0, 1e-9);
  EXPECT_EQ(json["kernel_time_ns"], (nlohmann::json{{"a", 300}, {"b", 290}}));
  EXPECT_EQ(json["span_ns"], (nlohmann::json{{"a", 400}, {"b", 380}}));
  EXPECT_EQ(json["a"]["path"], a.string());
  EXPECT_EQ(json["a"]["mode"], "timeline");
  EXPECT_TRUE(json["a"]["platform"].is_null());
  EXPECT_EQ(json["b"]["mode"], "simulated");
  EXPECT_EQ(json["b"]["platform"], "h100_sxm");
  EXPECT_EQ(json["b"]["model"], "roofline");
  ASSERT_EQ(json["by_name"].size(), 1u);
  EXPECT_EQ(json["by_name"][0]["name"], "_Z1kv");
  EXPECT_EQ(json["by_name"][0]["demangled"], "k()");
  EXPECT_EQ(json["by_name"][0]["launches"], 2);
  EXPECT_EQ(json["by_name"][0]["a_ns"], 300);
  EXPECT_EQ(json["by_name"][0]["b_ns"], 290);
  EXPECT_NEAR(json["by_name"][0]["mape_pct"].get<double>(), 10.0, 1e-9);
  ASSERT_EQ(json["kernels"].size(), 2u);
  const nlohmann::json& second = json["kernels"][1];
  EXPECT_EQ(second["device"], 0);
  EXPECT_EQ(second["stream"], 7);
  EXPECT_EQ(second["index"], 1);
  EXPECT_EQ(second["name"], "_Z1kv");
  EXPECT_EQ(second["a_ns"], 200);
  EXPECT_EQ(second["b_ns"], 180);
  EXPECT_NEAR(second["error_pct"].get<double>(), -10.0, 1e-9);
}

TEST(Compare, TextListsTopNamesAndTotals) {
  const std::string text = comparison_to_text(hand_made(CAPTURE_MODE_SIMULATED), 1);
  EXPECT_THAT(text, HasSubstr("sums"));
  EXPECT_THAT(text, ::testing::Not(HasSubstr("step ")));
  EXPECT_THAT(text, HasSubstr("(1 more kernel names"));
  EXPECT_THAT(text, HasSubstr("matched      3 kernels\n"));
  EXPECT_THAT(text, HasSubstr("MAPE         6.67%  (median 10.00%)"));
  EXPECT_THAT(text, HasSubstr("kernel time  A 700 ns  B 690 ns  B/A 0.986"));
  EXPECT_THAT(text, HasSubstr("simulated trace"));
}

// A: 10 us of host work, then a 5 us kernel; B: the same with a 7 us kernel. The whole span error is the kernel's.
Comparison host_gap_pair() {
  return compare_traces(trace_file("a.wstrace", testing::host_gap_then_kernel(5'000), CAPTURE_MODE_TIMELINE),
                        trace_file("b.wstrace", testing::host_gap_then_kernel(7'000), CAPTURE_MODE_SIMULATED));
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

TEST(Compare, JsonHasTheSpanErrorAndTheAttribution) {
  const nlohmann::json json = comparison_to_json(host_gap_pair());
  EXPECT_NEAR(json["span_error_pct"].get<double>(), 2'000.0 / 17'000.0 * 100.0, 1e-9);
  EXPECT_EQ(json["span_ns"], (nlohmann::json{{"a", 17'000}, {"b", 19'000}}));
  EXPECT_EQ(json["api_calls"], (nlohmann::json{{"a", 4}, {"b", 4}}));
  ASSERT_EQ(json["attribution"].size(), 5u);
  EXPECT_EQ(json["attribution"][0],
            (nlohmann::json{{"category", "kernels"}, {"a_ns", 5'000}, {"b_ns", 7'000}, {"diff_ns", 2'000}}));
  EXPECT_EQ(json["attribution"][2],
            (nlohmann::json{{"category", "api"}, {"a_ns", 2'000}, {"b_ns", 2'000}, {"diff_ns", 0}}));
  for (const char* key : {"matched", "mape_pct", "kernel_time_ns", "by_name", "kernels", "truncated"})
    EXPECT_TRUE(json.contains(key)) << key;
}

TEST(Compare, TextStartsWithTheSpanThenItsAttribution) {
  const std::string text = comparison_to_text(host_gap_pair());
  EXPECT_EQ(text.rfind("span         A 17.0 us  B 19.0 us  B/A 1.118  error +11.8%\n", 0), 0u) << text;
  const std::size_t table = text.find("span by activity");
  const std::size_t kernels = text.find("  kernels               5.0 us        7.0 us       +2.0 us\n");
  const std::size_t host = text.find("  host                 10.0 us       10.0 us          0 ns\n");
  const std::size_t kernel_table = text.find("\nkernel ");
  EXPECT_LT(table, kernels) << text;
  EXPECT_LT(kernels, host) << text;
  EXPECT_LT(host, kernel_table) << text;
  EXPECT_NE(kernel_table, std::string::npos) << text;
  EXPECT_THAT(text, ::testing::Not(HasSubstr("no API calls")));
}

TEST(Compare, WithoutApiCallsTheAttributionSaysSo) {
  const Comparison c = hand_made();
  EXPECT_EQ(c.attribution[2].a_ns + c.attribution[3].a_ns + c.attribution[2].b_ns + c.attribution[3].b_ns, 0u);
  EXPECT_EQ(c.attribution[4].a_ns, 1'400u - 600u);  // idle: between the kernels
  EXPECT_THAT(comparison_to_text(c), HasSubstr("(no API calls in either trace: api and host are 0"));
}

}  // namespace
}  // namespace warpsim::report
