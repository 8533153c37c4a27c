#include <gtest/gtest.h>

#include "analysis/trace_summary.h"
#include "outputs/summary_json.h"
#include "read_all.h"
#include "sample_trace.h"
#include "summary_events.h"

namespace warpsim::report {
namespace {

using testing::summarize_events;

TEST(TraceSummary, JsonHasTheDocumentedKeys) {
  Event with_counters = testing::kernel_event(0, 1, "_Z1kv", 0, 3);
  *with_counters.mutable_kernel()->mutable_counters() = testing::sample_counters(1024);
  const nlohmann::json json =
      summary_to_json(summarize_events({with_counters, testing::kernel_event(1, 1, "x", 0, 1)}));
  ASSERT_EQ(json["devices"].size(), 2u);
  EXPECT_EQ(json["devices"][0]["id"], 0);
  EXPECT_EQ(json["devices"][0]["name"], "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(json["devices"][0]["sm_count"], 132);
  EXPECT_EQ(json["devices"][1]["l2_cache_bytes"], 52'428'800u);
  ASSERT_EQ(json["links"].size(), 3u);
  EXPECT_EQ(json["links"][0]["type"], "NVLINK");
  EXPECT_EQ(json["links"][0]["link_count"], 18);
  EXPECT_EQ(json["links"][1]["type"], "PCIE");
  EXPECT_EQ(json["kernels"], 2);
  EXPECT_EQ(json["kernels_with_counters"], 1);
  for (const char* kind : {"HtoD", "DtoH", "DtoD", "PtoP", "HtoH"}) EXPECT_EQ(json["copies"][kind], 0) << kind;
  EXPECT_EQ(json["top_kernels"][0]["demangled"], "k()");
  EXPECT_EQ(json["truncated"], false);
}

TEST(TraceSummary, JsonLeavesAbsentDevicePropertiesOut) {
  TraceHeader header = testing::two_gpu_header();
  header.mutable_devices(0)->clear_sm_count();
  TraceReader reader = testing::memory_reader(testing::trace_bytes(header, {}));
  const nlohmann::json json = summary_to_json(summarize(reader));
  EXPECT_FALSE(json["devices"][0].contains("sm_count"));
  EXPECT_TRUE(json["devices"][1].contains("sm_count"));
}

}  // namespace
}  // namespace warpsim::report
