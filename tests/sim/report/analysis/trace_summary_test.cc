#include <gtest/gtest.h>

#include "analysis/trace_summary.h"
#include "host_events.h"
#include "outputs/summary_json.h"  // the host-side test also checks what JSON and text make of the counts
#include "outputs/summary_text.h"
#include "sample_trace.h"
#include "summary_events.h"

namespace warpsim::report {
namespace {

using testing::summarize_events;

TEST(TraceSummary, CountsEveryKindAndRanksKernelsByTotalTime) {
  const TraceSummary s = summarize_events({
      testing::kernel_event(0, 1, "short", 0, 10),
      testing::kernel_event(0, 1, "short", 20, 10),
      testing::kernel_event(1, 2, "long", 0, 25),
      testing::copy_event(Memcpy::PTOP, 100, 0, 3, 0, 5),
      testing::copy_event(Memcpy::PTOP, 50, 1, 3, 0, 5),
      testing::copy_event(Memcpy::HTOD, 7, 0, 3, 0, 5),
      testing::memset_event(0, 1, 4, 0),
      testing::sync_event(Synchronization::EVENT_RECORD, 0, 1, 1, 0),
      testing::marker_event("m", 0, 1),
  });
  EXPECT_EQ(s.events, 9u);
  EXPECT_EQ(s.kernels, 3u);
  EXPECT_EQ(s.kernel_time_ns, 45u);
  EXPECT_EQ(s.kernel_streams, 2u);
  EXPECT_EQ(s.kernels_with_counters, 0u);
  EXPECT_EQ(s.copies.at(Memcpy::PTOP).count, 2u);
  EXPECT_EQ(s.copies.at(Memcpy::PTOP).bytes, 150u);
  EXPECT_EQ(s.copies.at(Memcpy::HTOD).count, 1u);
  EXPECT_EQ(s.copies.at(Memcpy::DTOH).count, 0u);
  EXPECT_EQ(s.memsets, 1u);
  EXPECT_EQ(s.synchronizations, 1u);
  EXPECT_EQ(s.markers, 1u);
  EXPECT_EQ(*s.last_ns - *s.first_ns, 30u);
  ASSERT_EQ(s.top_kernels.size(), 2u);
  EXPECT_EQ(s.top_kernels[0].name, "long");
  EXPECT_EQ(s.top_kernels[1].name, "short");
  EXPECT_EQ(s.top_kernels[1].launches, 2u);
  EXPECT_EQ(s.top_kernels[1].total_ns, 20u);
}

TEST(TraceSummary, TopCountLimitsTheList) {
  const TraceSummary s =
      summarize_events({testing::kernel_event(0, 1, "a", 0, 3), testing::kernel_event(0, 1, "b", 0, 2),
                        testing::kernel_event(0, 1, "c", 0, 1)},
                       2);
  ASSERT_EQ(s.top_kernels.size(), 2u);
  EXPECT_EQ(s.top_kernels[1].name, "b");
}

// The host side: calls (nested driver calls too), threads and streams are counted, and the span reaches the calls.
TEST(TraceSummary, CountsTheHostSideAndSpansTheApiCalls) {
  const TraceSummary s = summarize_events({
      testing::host_thread_event(4200, "main"),
      testing::stream_event(0, 7),
      testing::stream_event(0, 0, Stream::LEGACY_DEFAULT),
      testing::api_call_event("cudaLaunchKernel_v7000", 4200, 100, 180, 1),
      testing::api_call_event("cuLaunchKernel", 4200, 110, 170, 2),
      testing::kernel_event(0, 7, "k", 200, 50),
      testing::api_call_event("cudaDeviceSynchronize_v3020", 4200, 180, 400, 3),
      testing::copy_event(Memcpy::HTOD, 8, 0, 7, 260, 10),
  });
  EXPECT_EQ(s.api_calls, 3u);
  EXPECT_EQ(s.host_threads, 1u);
  EXPECT_EQ(s.streams, 2u);
  EXPECT_EQ(*s.first_ns, 100u);
  EXPECT_EQ(*s.last_ns, 400u);
  const nlohmann::json json = summary_to_json(s);
  EXPECT_EQ(json["api_calls"], 3);
  EXPECT_EQ(json["host_threads"], 1);
  EXPECT_EQ(json["streams"], 2);
  EXPECT_EQ(json["span_ns"], 300);
  const std::string text = summary_to_text(s);
  EXPECT_NE(text.find("events     8 (kernels 1, copies 1, memsets 0, synchronizations 0, markers 0)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("host       api calls 3, host threads 1, streams 2\n"), std::string::npos) << text;
  EXPECT_NE(text.find("span       300 ns\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace warpsim::report
