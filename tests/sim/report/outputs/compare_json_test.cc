#include <gtest/gtest.h>

#include "analysis/compare.h"
#include "compare_pairs.h"
#include "outputs/compare_json.h"
#include "report_test_traces.h"

namespace warpsim::report {
namespace {

using testing::host_gap_pair;
using testing::launch;
using testing::trace_file;

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

}  // namespace
}  // namespace warpsim::report
