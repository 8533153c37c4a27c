// Every message kind written by TraceWriter comes back from TraceReader unchanged.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include "read_all.h"
#include "sample_trace.h"
#include "trace_format.h"
#include "trace_writer.h"

namespace warpsim {
namespace {

using google::protobuf::util::MessageDifferencer;
using testing::read_all;
using testing::trace_bytes;

Event kernel_with_everything() {
  Event event = testing::kernel_event(1, 3, "_Z6kernelv", 1000, 500);
  KernelLaunch* k = event.mutable_kernel();
  k->mutable_cluster()->set_x(2);
  k->mutable_cluster()->set_y(1);
  k->mutable_cluster()->set_z(1);
  k->set_dynamic_shared_memory_bytes(65536);
  k->set_local_memory_per_thread_bytes(16);
  k->set_launch_kind(KernelLaunch::GRAPH);
  k->set_graph_id(7);
  k->set_graph_node_id(70);
  k->set_context_id(1);
  *k->mutable_counters() = testing::sample_counters(1 << 20);
  k->mutable_counters()->mutable_memory()->set_nvlink_rx_bytes(72'000'000);
  k->mutable_counters()->mutable_pipes()->set_tensor_gmma(123);
  (*k->mutable_counters()->mutable_extra_metrics())["smsp__cycles_active.avg"] = 1234.5;
  return event;
}

TEST(TraceRoundTrip, EveryEventKindComesBackEqual) {
  TraceHeader header = testing::two_gpu_header();
  header.mutable_simulation()->set_platform("nodes/2xh200.textproto");
  header.mutable_simulation()->set_model("roofline");
  const std::vector<Event> events = {
      kernel_with_everything(),
      testing::copy_event(Memcpy::HTOD, 4096, 0, 1, 10, 20),
      testing::copy_event(Memcpy::DTOH, 4096, 1, 1, 10, 20),
      testing::copy_event(Memcpy::DTOD, 4096, 0, 2, 10, 20),
      testing::copy_event(Memcpy::PTOP, 4096, 1, 2, 10, 20),
      testing::copy_event(Memcpy::HTOH, 4096, 0, 0, 10, 20),
      testing::memset_event(0, 1, 1 << 20, 50),
      testing::sync_event(Synchronization::EVENT_RECORD, 0, 1, 9, 60),
      testing::sync_event(Synchronization::STREAM_WAIT_EVENT, 1, 2, 9, 61),
      testing::sync_event(Synchronization::CONTEXT_SYNCHRONIZE, 1, 0, 0, 62),
      testing::marker_event("range", 70, 80),
  };
  Event instant_marker = testing::marker_event("mark", 90, 90);
  instant_marker.mutable_marker()->clear_end_ns();
  instant_marker.mutable_marker()->set_device_id(1);
  std::vector<Event> all = events;
  all.push_back(instant_marker);

  const testing::ReadResult result = read_all(trace_bytes(header, all));

  header.set_schema_version(trace_format::kFormatVersion);
  EXPECT_TRUE(MessageDifferencer::Equals(result.header, header)) << result.header.DebugString();
  ASSERT_EQ(result.events.size(), all.size());
  for (std::size_t i = 0; i < all.size(); ++i)
    EXPECT_TRUE(MessageDifferencer::Equals(result.events[i], all[i])) << "event " << i;
  EXPECT_FALSE(result.truncation.has_value());
}

TEST(TraceRoundTrip, AbsentFieldsStayAbsent) {
  TraceHeader header = testing::two_gpu_header();
  header.mutable_devices(1)->clear_l2_cache_bytes();
  Event kernel = testing::kernel_event(0, 1, "k", 0, 1);
  kernel.mutable_kernel()->mutable_counters()->mutable_memory()->set_dram_read_bytes(0);  // measured zero

  const testing::ReadResult result = read_all(trace_bytes(header, {kernel}));

  EXPECT_FALSE(result.header.devices(1).has_l2_cache_bytes());
  EXPECT_TRUE(result.header.devices(0).has_l2_cache_bytes());
  const MemoryTraffic& memory = result.events.at(0).kernel().counters().memory();
  EXPECT_TRUE(memory.has_dram_read_bytes());
  EXPECT_EQ(memory.dram_read_bytes(), 0u);
  EXPECT_FALSE(memory.has_dram_write_bytes());
  EXPECT_FALSE(result.events.at(0).kernel().counters().has_thread_instructions());
}

TEST(TraceRoundTrip, HeaderOnlyTraceHasNoEvents) {
  const testing::ReadResult result = read_all(trace_bytes(testing::two_gpu_header(), {}));
  EXPECT_TRUE(result.events.empty());
  EXPECT_FALSE(result.truncation.has_value());
}

TEST(TraceRoundTrip, SampleEventsSurviveSmallBuffers) {
  // A 64-byte buffer flushes on nearly every record: the bytes must not depend on the buffer size.
  const auto dir = testing::fresh_temp_dir();
  const auto header = testing::two_gpu_header();
  const auto events = testing::sample_events();
  {
    TraceWriter writer(dir / "small.wstrace", header, 64);
    for (const Event& event : events) writer.write(event);
    writer.close();
  }
  EXPECT_EQ(testing::read_file(dir / "small.wstrace"), trace_bytes(header, events));
}

}  // namespace
}  // namespace warpsim
