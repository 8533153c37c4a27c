// The sink turns batches of CUPTI-like records into a trace file that the reader accepts.
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "atomic_output.h"
#include "sample_trace.h"
#include "sink/trace_sink.h"
#include "trace_reader.h"

namespace warpsim::tracer {
namespace {

using ::testing::HasSubstr;

struct Captured {
  std::vector<std::string> warnings;
  std::function<void(const std::string&)> sink() {
    return [this](const std::string& m) { warnings.push_back(m); };
  }
};

DeviceActivity device(std::uint32_t id) {
  DeviceActivity d;
  d.id = id;
  d.name = "NVIDIA H100 80GB HBM3";
  d.uuid[15] = static_cast<std::uint8_t>(id + 1);
  d.multiprocessors = 132;
  return d;
}

KernelActivity kernel(std::uint32_t device_id, std::uint64_t start, const char* name = "_Z1kv") {
  KernelActivity k;
  k.device_id = device_id;
  k.stream_id = 7;
  k.name = name;
  k.grid = {132, 1, 1};
  k.block = {128, 1, 1};
  k.start = start;
  k.end = start + 100;
  return k;
}

TraceHeader base_header() {
  TraceHeader h;
  h.set_tool_version("test");
  h.set_mode(CAPTURE_MODE_TIMELINE);
  return h;
}

std::vector<Event> read_events(const std::string& path, std::optional<Truncation>* truncation = nullptr,
                               TraceHeader* header = nullptr) {
  TraceReader reader(path);
  std::vector<Event> events;
  Event event;
  while (reader.next(event)) events.push_back(event);
  if (truncation) *truncation = reader.truncation();
  if (header) *header = reader.header();
  return events;
}

TEST(TraceSink, WritesATraceTheReaderAccepts) {
  const auto path = (testing::fresh_temp_dir() / "t.wstrace").string();
  Captured log;
  TraceSink sink(path, base_header(), log.sink());
  sink.note_context(1, 0);
  MarkerActivity start;
  start.phase = MarkerActivity::Phase::kStart;
  start.id = 3;
  start.name = "step";
  MarkerActivity end = start;
  end.phase = MarkerActivity::Phase::kEnd;
  end.timestamp = 500;
  SyncActivity sync;
  sync.type = 3;  // STREAM_SYNCHRONIZE
  sync.context_id = 1;
  sync.stream_id = 7;
  sink.consume({device(0), device(1), start, kernel(0, 10), kernel(1, 20), sync, end});
  sink.close();

  TraceHeader header;
  std::optional<Truncation> truncation;
  const auto events = read_events(path, &truncation, &header);
  EXPECT_FALSE(truncation.has_value());
  ASSERT_EQ(header.devices_size(), 2);
  EXPECT_EQ(header.devices(1).sm_count(), 132u);
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0].kernel().device_id(), 0u);
  EXPECT_EQ(events[1].kernel().device_id(), 1u);
  EXPECT_EQ(events[2].sync().device_id(), 0u) << "resolved from its context";
  EXPECT_EQ(events[3].marker().name(), "step");
  EXPECT_TRUE(log.warnings.empty());
}

TEST(TraceSink, EveryBatchIsOnDiskBeforeTheNextArrives) {
  const auto path = (testing::fresh_temp_dir() / "t.wstrace").string();
  Captured log;
  TraceSink sink(path, base_header(), log.sink());
  sink.consume({device(0), kernel(0, 10)});
  sink.consume({kernel(0, 200)});
  // The process could be killed now: the trace's temporary file holds both batches and reads as truncated (what
  // `warpsim record` keeps as PATH.partial); the trace itself appears only when closed.
  EXPECT_FALSE(std::filesystem::exists(path));
  const std::vector<std::filesystem::path> leftovers = leftover_temporaries(path, ::getpid());
  ASSERT_EQ(leftovers.size(), 1u);
  std::optional<Truncation> truncation;
  EXPECT_EQ(read_events(leftovers[0], &truncation).size(), 2u);
  EXPECT_TRUE(truncation.has_value());
}

TEST(TraceSink, SkipsWhatTheTraceCannotHoldAndSaysSoOnce) {
  const auto path = (testing::fresh_temp_dir() / "t.wstrace").string();
  Captured log;
  TraceSink sink(path, base_header(), log.sink());
  SyncActivity unknown_context;
  unknown_context.type = 3;
  unknown_context.context_id = 99;
  sink.consume({device(0), kernel(0, 10), kernel(5, 20), kernel(6, 30), unknown_context, kernel(0, 40)});
  sink.close();
  EXPECT_EQ(read_events(path).size(), 2u);
  EXPECT_EQ(sink.records_skipped(), 3u);
  ASSERT_EQ(log.warnings.size(), 1u);
  EXPECT_THAT(log.warnings[0], HasSubstr("context never seen"));
}

TEST(TraceSink, NothingRecordedStillLeavesAHeaderOnlyTrace) {
  const auto path = (testing::fresh_temp_dir() / "t.wstrace").string();
  Captured log;
  TraceSink sink(path, base_header(), log.sink());
  DriverDeviceInfo info;
  info.ordinal = 0;
  info.name = "NVIDIA H200";
  sink.add_driver_devices({info});
  sink.close();
  sink.close();
  TraceHeader header;
  EXPECT_TRUE(read_events(path, nullptr, &header).empty());
  EXPECT_EQ(header.devices(0).name(), "NVIDIA H200");
}

// The timeline tracer's periodic flush can hand over the records of API calls made before the first context (device
// queries) before the driver's devices are read there: written at once, they fixed a header without the PCI ids,
// peers and opt-in shared memory (seen in 4 of 8 timeline recordings on a 4xH200 machine, 2026-11-28).
TEST(TraceSink, EventsBeforeTheDriversDevicesWaitForThemSoTheHeaderHasThem) {
  const auto path = (testing::fresh_temp_dir() / "t.wstrace").string();
  Captured log;
  TraceSink sink(path, base_header(), log.sink());
  sink.set_thread_namer([](std::uint32_t, std::uint64_t) { return std::string("main"); });
  sink.wait_for_driver_devices();
  ApiActivity query;
  query.correlation_id = 1;
  query.process_id = 10;
  query.thread_id = 11;
  sink.consume({device(0), query});
  EXPECT_TRUE(leftover_temporaries(path, ::getpid()).empty()) << "nothing written before the driver's devices";
  DriverDeviceInfo info;
  info.ordinal = 0;
  info.pci_bus_id = "0000:19:00.0";
  info.max_shared_memory_per_block_optin = 232448;
  sink.add_driver_devices({info});
  sink.consume({kernel(0, 10)});
  sink.close();
  TraceHeader header;
  const auto events = read_events(path, nullptr, &header);
  ASSERT_EQ(header.devices_size(), 1);
  EXPECT_EQ(header.devices(0).pci_bus_id(), "0000:19:00.0");
  EXPECT_EQ(header.devices(0).max_shared_memory_per_block_optin_bytes(), 232448u);
  ASSERT_EQ(events.size(), 3u);  // the thread, its call, the kernel: in the order they came
  EXPECT_TRUE(events[0].has_host_thread());
  EXPECT_TRUE(events[1].has_api_call());
  EXPECT_TRUE(events[2].has_kernel());
}

TEST(TraceSink, EventsWaitingForDevicesThatNeverComeAreWrittenAtTheClose) {
  const auto path = (testing::fresh_temp_dir() / "t.wstrace").string();
  Captured log;
  TraceSink sink(path, base_header(), log.sink());
  sink.set_thread_namer([](std::uint32_t, std::uint64_t) { return std::string("main"); });
  sink.wait_for_driver_devices();
  ApiActivity query;
  query.correlation_id = 1;
  sink.consume({query});
  sink.close();
  EXPECT_EQ(read_events(path).size(), 2u);
}

TEST(TraceSink, WriteFailureWarnsOnceAndNeverThrows) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  Captured log;
  TraceSink sink("/dev/full", base_header(), log.sink());
  EXPECT_NO_THROW(sink.consume({device(0), kernel(0, 10)}));
  EXPECT_NO_THROW(sink.consume({kernel(0, 20)}));
  EXPECT_NO_THROW(sink.close());
  ASSERT_EQ(log.warnings.size(), 1u);
  EXPECT_THAT(log.warnings[0], HasSubstr("tracing stopped"));
}

TEST(TraceSink, UnwritablePathWarnsAndNeverThrows) {
  Captured log;
  TraceSink sink("/no/such/dir/t.wstrace", base_header(), log.sink());
  EXPECT_NO_THROW(sink.consume({device(0), kernel(0, 10)}));
  EXPECT_NO_THROW(sink.close());
  ASSERT_EQ(log.warnings.size(), 1u);
  EXPECT_THAT(log.warnings[0], HasSubstr("cannot create"));
}

TEST(TraceSink, KernelHookSeesEveryKernel) {
  const auto path = (testing::fresh_temp_dir() / "t.wstrace").string();
  Captured log;
  TraceSink sink(path, base_header(), log.sink());
  sink.set_kernel_hook([](Event& event) {
    event.mutable_kernel()->mutable_counters()->mutable_warp_instructions()->set_total(42);
  });
  sink.consume({device(0), kernel(0, 10)});
  sink.close();
  EXPECT_EQ(read_events(path).at(0).kernel().counters().warp_instructions().total(), 42u);
}

ApiActivity api_call(std::uint32_t thread, std::uint32_t correlation, std::uint64_t start) {
  ApiActivity a;
  a.name = "cudaLaunchKernel_v7000";
  a.callback_id = 211;
  a.start = start;
  a.end = start + 5;
  a.process_id = 100;
  a.thread_id = thread;
  a.correlation_id = correlation;
  return a;
}

TEST(TraceSink, ApiCallsComeWithTheirThreadNamedOnceAndStreamsWithTheirKind) {
  const auto path = (testing::fresh_temp_dir() / "t.wstrace").string();
  Captured log;
  TraceSink sink(path, base_header(), log.sink());
  std::vector<std::uint64_t> asked;
  sink.set_thread_namer([&asked](std::uint32_t, std::uint64_t tid) -> std::optional<std::string> {
    asked.push_back(tid);
    if (tid == 2) return std::nullopt;  // ended before the tracer asked
    return "worker-" + std::to_string(tid);
  });
  sink.note_context(1, 0);
  StreamActivity legacy;
  legacy.context_id = 1;
  legacy.stream_id = 7;
  legacy.flag = 3;  // CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NULL
  StreamActivity unknown = legacy;
  unknown.flag = 0;
  sink.consume({device(0), api_call(1, 10, 100), api_call(2, 11, 110), api_call(1, 12, 120), legacy, unknown});
  sink.close();

  std::vector<Event> events = read_events(path);
  ASSERT_EQ(events.size(), 6u);  // 2 threads, 3 calls, 1 stream (the unknown kind is skipped)
  EXPECT_EQ(asked, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_TRUE(events[0].has_host_thread());
  EXPECT_EQ(events[0].host_thread().name(), "worker-1");
  EXPECT_EQ(events[1].api_call().correlation_id(), 10u);
  EXPECT_EQ(events[1].api_call().domain(), ApiCall::RUNTIME);
  EXPECT_EQ(events[1].api_call().thread_id(), 1u);
  EXPECT_FALSE(events[2].host_thread().has_name());
  EXPECT_EQ(events[5].stream().kind(), Stream::LEGACY_DEFAULT);
  EXPECT_EQ(events[5].stream().device_id(), 0u);
  EXPECT_EQ(sink.records_skipped(), 1u);
}

TEST(TraceSink, CopiesAndMemsetsKeepWhetherAnAsyncCallIssuedThem) {
  const auto path = (testing::fresh_temp_dir() / "t.wstrace").string();
  Captured log;
  TraceSink sink(path, base_header(), log.sink());
  CopyActivity copy;
  copy.copy_kind = 1;  // HtoD
  copy.bytes = 4;
  copy.asynchronous = true;
  MemsetActivity memset;
  memset.bytes = 4;
  sink.consume({device(0), copy, memset});
  sink.close();
  const std::vector<Event> events = read_events(path);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_TRUE(events[0].memcpy().asynchronous());
  ASSERT_TRUE(events[1].memset().has_asynchronous());
  EXPECT_FALSE(events[1].memset().asynchronous());
}

// Traffic mode's samples are one event per batch, held like every event until the driver's devices make the header.
TEST(TraceSink, TrafficSamplesAreOneEventPerBatchAndWaitForTheDriversDevices) {
  const auto path = (testing::fresh_temp_dir() / "t.wstrace").string();
  Captured log;
  TraceSink sink(path, base_header(), log.sink());
  sink.wait_for_driver_devices();
  sink.consume({device(0)});
  TrafficSamples batch;
  batch.set_device_id(0);
  for (std::uint64_t start : {1000u, 6000u}) {
    TrafficSample* sample = batch.add_samples();
    sample->set_start_ns(start);
    sample->set_end_ns(start + 5000);
    sample->set_pcie_read_bytes(start * 2);
  }
  sink.add_traffic_samples(batch);
  sink.add_traffic_samples(TrafficSamples());  // an empty batch: no event
  EXPECT_TRUE(leftover_temporaries(path, ::getpid()).empty()) << "nothing written before the driver's devices";
  DriverDeviceInfo info;
  info.ordinal = 0;
  sink.add_driver_devices({info});
  sink.close();
  const std::vector<Event> events = read_events(path);
  ASSERT_EQ(events.size(), 1u);
  ASSERT_TRUE(events[0].has_traffic_samples());
  EXPECT_EQ(events[0].traffic_samples().device_id(), 0u);
  ASSERT_EQ(events[0].traffic_samples().samples_size(), 2);
  EXPECT_EQ(events[0].traffic_samples().samples(1).start_ns(), 6000u);
  EXPECT_EQ(events[0].traffic_samples().samples(1).pcie_read_bytes(), 12000u);
  EXPECT_FALSE(events[0].traffic_samples().samples(1).has_dram_read_bytes());
  EXPECT_TRUE(log.warnings.empty());
}

}  // namespace
}  // namespace warpsim::tracer
