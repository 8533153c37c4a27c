#include <gtest/gtest.h>

#include "analysis/trace_summary.h"
#include "outputs/summary_json.h"
#include "outputs/summary_text.h"
#include "sample_trace.h"
#include "summary_events.h"

namespace warpsim::report {
namespace {

using testing::summarize_events;

TEST(TraceSummary, TextNamesDevicesLinksAndKernels) {
  const std::string text = summary_to_text(summarize_events(testing::sample_events()));
  EXPECT_NE(text.find("GPU 1  NVIDIA H100 80GB HBM3  sm_90  132 SMs"), std::string::npos) << text;
  EXPECT_NE(text.find("NVLink  GPU 0 <-> GPU 1  x18 links"), std::string::npos) << text;
  EXPECT_NE(text.find("stencil_interior(float const*, float*, int, int, int)"), std::string::npos) << text;
  EXPECT_NE(text.find("PtoP 8 (16.0 MiB)"), std::string::npos) << text;
}

TEST(TraceSummary, OldTracesHaveNoHostLine) {
  const TraceSummary s = summarize_events(testing::sample_events());
  EXPECT_EQ(s.api_calls + s.host_threads + s.streams, 0u);
  EXPECT_EQ(summary_to_text(s).find("host       "), std::string::npos);
  EXPECT_EQ(summary_to_json(s)["api_calls"], 0);
}

}  // namespace
}  // namespace warpsim::report
