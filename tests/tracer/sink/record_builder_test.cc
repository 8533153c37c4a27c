// CUPTI-like records -> trace events, as the tracer builds them (no GPU needed).
#include <gtest/gtest.h>

#include "sink/record_builder.h"

namespace warpsim::tracer {
namespace {

KernelActivity kernel_activity() {
  KernelActivity a;
  a.device_id = 1;
  a.context_id = 3;
  a.stream_id = 14;
  a.correlation_id = 99;
  a.name = "_Z6kernelPf";
  a.grid = {264, 2, 1};
  a.block = {256, 1, 1};
  a.registers_per_thread = 40;
  a.static_shared_memory = 1024;
  a.dynamic_shared_memory = 49152;
  a.local_memory_per_thread = 8;
  a.start = 1000;
  a.end = 5000;
  return a;
}

TEST(RecordBuilder, KernelKeepsLaunchConfigurationAndTimes) {
  const Event event = build_kernel(kernel_activity());
  const KernelLaunch& k = event.kernel();
  EXPECT_EQ(k.device_id(), 1u);
  EXPECT_EQ(k.stream_id(), 14u);
  EXPECT_EQ(k.name(), "_Z6kernelPf");
  EXPECT_EQ(k.grid().x(), 264u);
  EXPECT_EQ(k.grid().y(), 2u);
  EXPECT_EQ(k.block().x(), 256u);
  EXPECT_EQ(k.registers_per_thread(), 40u);
  EXPECT_EQ(k.static_shared_memory_bytes(), 1024u);
  EXPECT_EQ(k.dynamic_shared_memory_bytes(), 49152u);
  EXPECT_EQ(k.end_ns() - k.start_ns(), 4000u);
  EXPECT_EQ(k.correlation_id(), 99u);
  EXPECT_EQ(k.launch_kind(), KernelLaunch::REGULAR);
  EXPECT_FALSE(k.has_cluster());
  EXPECT_FALSE(k.has_graph_id());
  EXPECT_FALSE(k.has_counters());
}

TEST(RecordBuilder, LaunchKinds) {
  KernelActivity a = kernel_activity();
  a.launch_type = 1;
  EXPECT_EQ(build_kernel(a).kernel().launch_kind(), KernelLaunch::COOPERATIVE);
  a.cluster = {2, 1, 1};  // CUPTI marks cluster launches cooperative as well
  EXPECT_EQ(build_kernel(a).kernel().launch_kind(), KernelLaunch::CLUSTER);
  EXPECT_EQ(build_kernel(a).kernel().cluster().x(), 2u);
  a.graph_id = 5;
  a.graph_node_id = 77;
  const Event graph = build_kernel(a);
  EXPECT_EQ(graph.kernel().launch_kind(), KernelLaunch::GRAPH);
  EXPECT_EQ(graph.kernel().graph_node_id(), 77u);
}

TEST(RecordBuilder, CopyKindsAndEndpoints) {
  CopyActivity a;
  a.device_id = 1;
  a.bytes = 4096;
  a.copy_kind = 1;  // CUPTI HTOD
  a.src_kind = 2;   // pinned
  a.dst_kind = 3;   // device
  const Event htod = *build_copy(a);
  EXPECT_EQ(htod.memcpy().kind(), Memcpy::HTOD);
  EXPECT_FALSE(htod.memcpy().has_src_device_id());
  EXPECT_EQ(htod.memcpy().dst_device_id(), 1u);
  EXPECT_EQ(htod.memcpy().src_memory(), MEMORY_KIND_PINNED);
  EXPECT_EQ(htod.memcpy().dst_memory(), MEMORY_KIND_DEVICE);

  a.copy_kind = 2;  // DTOH
  EXPECT_EQ(build_copy(a)->memcpy().src_device_id(), 1u);
  a.copy_kind = 6;  // ATOD: an array is device memory
  EXPECT_EQ(build_copy(a)->memcpy().kind(), Memcpy::DTOD);
  a.copy_kind = 9;
  EXPECT_EQ(build_copy(a)->memcpy().kind(), Memcpy::HTOH);
  a.copy_kind = 77;
  EXPECT_FALSE(build_copy(a).has_value());
}

TEST(RecordBuilder, PeerCopyNeedsBothDevices) {
  CopyActivity a;
  a.copy_kind = 10;  // PTOP
  a.device_id = 0;
  EXPECT_FALSE(build_copy(a).has_value()) << "a MEMCPY record cannot say where a peer copy went";
  a.src_device_id = 0;
  a.dst_device_id = 1;
  const Event peer = *build_copy(a);
  EXPECT_EQ(peer.memcpy().kind(), Memcpy::PTOP);
  EXPECT_EQ(peer.memcpy().src_device_id(), 0u);
  EXPECT_EQ(peer.memcpy().dst_device_id(), 1u);
}

TEST(RecordBuilder, SynchronizationTypes) {
  SyncActivity a;
  a.type = 2;  // STREAM_WAIT_EVENT
  a.stream_id = 7;
  a.cuda_event_id = 31;
  const Event wait = *build_sync(a, 1);
  EXPECT_EQ(wait.sync().type(), Synchronization::STREAM_WAIT_EVENT);
  EXPECT_EQ(wait.sync().device_id(), 1u);
  EXPECT_EQ(wait.sync().event_id(), 31u);
  EXPECT_EQ(wait.sync().stream_id(), 7u);

  a.type = 4;  // CONTEXT_SYNCHRONIZE: no stream
  a.stream_id = 0xffffffffu;
  const Event context = *build_sync(a, 0);
  EXPECT_EQ(context.sync().type(), Synchronization::CONTEXT_SYNCHRONIZE);
  EXPECT_FALSE(context.sync().has_stream_id());
  EXPECT_FALSE(context.sync().has_event_id());

  a.type = 0;  // UNKNOWN
  EXPECT_FALSE(build_sync(a, 0).has_value());
}

TEST(RecordBuilder, EventRecordMarksAPointInAStream) {
  EventRecordActivity a;
  a.device_id = 1;
  a.stream_id = 5;
  a.event_id = 12;
  a.timestamp = 777;
  const Event event = build_event_record(a);
  EXPECT_EQ(event.sync().type(), Synchronization::EVENT_RECORD);
  EXPECT_EQ(event.sync().event_id(), 12u);
  EXPECT_EQ(event.sync().start_ns(), 777u);
  EXPECT_EQ(event.sync().end_ns(), 777u);
}

}  // namespace
}  // namespace warpsim::tracer
