// Counters from counters-mode runs land on the same launches of a timeline trace, or the merge says why not.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sample_trace.h"
#include "trace_error.h"
#include "trace_merge.h"
#include "trace_reader.h"

namespace warpsim::trace {
namespace {

using ::testing::HasSubstr;

Event launch(std::uint32_t device, const char* name, std::uint64_t correlation, std::uint64_t start) {
  Event event = testing::kernel_event(device, 7, name, start, 100);
  event.mutable_kernel()->set_correlation_id(correlation);
  return event;
}

Event measured(Event event, std::uint64_t instructions) {
  event.mutable_kernel()->mutable_counters()->mutable_warp_instructions()->set_total(instructions);
  event.mutable_kernel()->set_start_ns(0);  // counters runs do not time kernels
  event.mutable_kernel()->set_end_ns(0);
  return event;
}

struct MergeFixture : ::testing::Test {
  std::filesystem::path dir = testing::fresh_temp_dir();
  std::filesystem::path timeline = dir / "timeline.wstrace";
  std::filesystem::path core = dir / "core.wstrace";
  std::filesystem::path out = dir / "merged.wstrace";

  void SetUp() override {
    // Records arrive out of launch order (CUPTI hands over buffers per stream): correlation ids give the order.
    testing::write_trace(timeline, testing::two_gpu_header(),
                         {launch(0, "b", 12, 2000), launch(0, "a", 11, 1000), launch(1, "a", 13, 1500),
                          testing::copy_event(Memcpy::PTOP, 64, 0, 9, 10, 5)});
  }

  std::vector<Event> kernels_of(const std::filesystem::path& path) {
    TraceReader reader(path);
    std::vector<Event> kernels;
    Event event;
    while (reader.next(event))
      if (event.has_kernel()) kernels.push_back(event);
    return kernels;
  }
};

TEST_F(MergeFixture, CountersLandOnTheSameLaunchAndTimesStay) {
  // The counters run has other correlation ids (another process) but the same launch order per device.
  testing::write_trace(core, testing::two_gpu_header(),
                       {measured(launch(1, "a", 503, 0), 30), measured(launch(0, "a", 501, 0), 10),
                        measured(launch(0, "b", 502, 0), 20)});
  Event links = launch(0, "b", 902, 0);
  links.mutable_kernel()->mutable_counters()->mutable_memory()->set_nvlink_rx_bytes(64);
  const auto links_path = dir / "links.wstrace";
  testing::write_trace(links_path, testing::two_gpu_header(), {launch(0, "a", 901, 0), links, launch(1, "a", 903, 0)});

  const MergeSummary summary = merge_counters(timeline, {core, links_path}, out);

  EXPECT_EQ(summary.kernels, 3u);
  EXPECT_EQ(summary.kernels_with_counters, 3u);
  const auto kernels = kernels_of(out);
  ASSERT_EQ(kernels.size(), 3u);
  EXPECT_EQ(kernels[0].kernel().name(), "b");
  EXPECT_EQ(kernels[0].kernel().counters().warp_instructions().total(), 20u);
  EXPECT_EQ(kernels[0].kernel().counters().memory().nvlink_rx_bytes(), 64u) << "both groups merged";
  EXPECT_EQ(kernels[0].kernel().start_ns(), 2000u) << "real times kept";
  EXPECT_EQ(kernels[1].kernel().counters().warp_instructions().total(), 10u);
  EXPECT_EQ(kernels[2].kernel().counters().warp_instructions().total(), 30u);
}

TEST_F(MergeFixture, AnotherProgramIsRefusedAndNothingIsWritten) {
  // Formerly one differing name ("c" for "b") was enough to refuse; now the names have to differ on most launches.
  testing::write_trace(
      core, testing::two_gpu_header(),
      {measured(launch(0, "c", 1, 0), 1), measured(launch(0, "d", 2, 0), 1), measured(launch(1, "a", 3, 0), 1)});
  testing::write_file(out, "an older merge");
  try {
    merge_counters(timeline, {core}, out);
    FAIL();
  } catch (const TraceError& error) {
    EXPECT_THAT(error.problem(), HasSubstr("device 0: only 0 of 2 timeline kernels"));
    EXPECT_THAT(error.problem(), HasSubstr("not a recording of the same program"));
  }
  EXPECT_EQ(testing::read_file(out), "an older merge");
  EXPECT_FALSE(std::filesystem::exists(out.string() + ".partial"));
}

TEST_F(MergeFixture, AReplacedKernelTakesNoCountersAndTheOthersKeepTheirs) {
  // Formerly refused ("kernel 1 on device 0 is c here but b"): one launch in two differing is a library's choice.
  testing::write_trace(
      core, testing::two_gpu_header(),
      {measured(launch(0, "a", 1, 0), 10), measured(launch(0, "c", 2, 0), 20), measured(launch(1, "a", 3, 0), 30)});
  const MergeSummary summary = merge_counters(timeline, {core}, out);
  const auto kernels = kernels_of(out);
  ASSERT_EQ(kernels.size(), 3u);
  EXPECT_FALSE(kernels[0].kernel().has_counters()) << "b: c ran other code";
  EXPECT_EQ(kernels[1].kernel().counters().warp_instructions().total(), 10u);
  EXPECT_EQ(kernels[2].kernel().counters().warp_instructions().total(), 30u);
  EXPECT_EQ(summary.kernels_with_counters, 2u);
}

Event with_sass(Event event, std::uint64_t stall_cycles) {
  event.mutable_kernel()->mutable_sass()->set_stall_cycles(stall_cycles);
  return event;
}

TEST_F(MergeFixture, SassSummaryOfTheCountersRunFillsTimelineKernelsWithout) {
  // The timeline was recorded by a tracer that summarized only kernel "a" on device 0 (say); the counters run saw all.
  testing::write_trace(timeline, testing::two_gpu_header(),
                       {launch(0, "b", 12, 2000), with_sass(launch(0, "a", 11, 1000), 7), launch(1, "a", 13, 1500)});
  testing::write_trace(core, testing::two_gpu_header(),
                       {with_sass(measured(launch(1, "a", 503, 0), 30), 3),
                        with_sass(measured(launch(0, "a", 501, 0), 10), 99),
                        with_sass(measured(launch(0, "b", 502, 0), 20), 5)});
  const auto links_path = dir / "links.wstrace";  // a second counters run without summaries changes nothing
  testing::write_trace(links_path, testing::two_gpu_header(),
                       {launch(0, "a", 901, 0), launch(0, "b", 902, 0), launch(1, "a", 903, 0)});

  merge_counters(timeline, {links_path, core}, out);

  const auto kernels = kernels_of(out);
  ASSERT_EQ(kernels.size(), 3u);
  ASSERT_TRUE(kernels[0].kernel().has_sass());
  EXPECT_EQ(kernels[0].kernel().sass().stall_cycles(), 5u) << "b took the counters run's";
  EXPECT_EQ(kernels[1].kernel().sass().stall_cycles(), 7u) << "a on device 0 kept the timeline's own";
  EXPECT_EQ(kernels[2].kernel().sass().stall_cycles(), 3u);
  EXPECT_EQ(kernels[2].kernel().counters().warp_instructions().total(), 30u);
}

// A traffic-mode run of the same program: its kernels (serialized, on its own clock) and its PM samples.
struct TrafficRun {
  std::vector<Event> events;

  TrafficRun& kernel(std::uint32_t device, const char* name, std::uint64_t correlation, std::uint64_t start) {
    events.push_back(launch(device, name, correlation, start));  // 100 ns long
    return *this;
  }
  TrafficRun& samples(std::uint32_t device, std::uint64_t start, std::uint64_t step, std::uint64_t count,
                      std::uint64_t pcie_read, std::uint64_t dram_read) {
    Event event;
    event.mutable_traffic_samples()->set_device_id(device);
    for (std::uint64_t i = 0; i < count; ++i) {
      TrafficSample* sample = event.mutable_traffic_samples()->add_samples();
      sample->set_start_ns(start + i * step);
      sample->set_end_ns(start + (i + 1) * step);
      sample->set_pcie_read_bytes(pcie_read);
      sample->set_dram_read_bytes(dram_read);
    }
    events.push_back(std::move(event));
    return *this;
  }
  void write(const std::filesystem::path& path) const {
    TraceHeader header = testing::two_gpu_header();
    header.set_mode(CAPTURE_MODE_TRAFFIC);
    testing::write_trace(path, header, events);
  }
};

std::vector<float> shares(const google::protobuf::RepeatedField<float>& field) { return {field.begin(), field.end()}; }

TEST_F(MergeFixture, TrafficProfilesLandOnTheSameLaunchAndRawSamplesStayBehind) {
  // Device 0 ran a at 5000 (PCIe bytes in its first half, DRAM bytes in its second) and b at 6000 (both throughout);
  // device 1's a has no sample. Samples come in batches between the kernels, as the tracer writes them.
  const auto traffic = dir / "traffic.wstrace";
  TrafficRun()
      .samples(0, 5000, 10, 5, 100, 0)
      .kernel(0, "a", 701, 5000)
      .samples(0, 5050, 10, 5, 0, 100)
      .kernel(0, "b", 702, 6000)
      .kernel(1, "a", 703, 5000)
      .samples(0, 6000, 25, 4, 50, 50)
      .write(traffic);
  Event stray;  // raw samples in the timeline input too (a traffic trace merged before): none reach the output
  stray.mutable_traffic_samples()->set_device_id(0);
  testing::write_trace(timeline, testing::two_gpu_header(),
                       {launch(0, "b", 12, 2000), launch(0, "a", 11, 1000), launch(1, "a", 13, 1500), stray});

  const MergeSummary summary = merge_counters(timeline, {traffic}, out);

  EXPECT_EQ(summary.kernels, 3u);
  EXPECT_EQ(summary.kernels_with_traffic_profile, 2u);
  EXPECT_EQ(summary.kernels_with_counters, 0u);
  ASSERT_EQ(summary.counters.size(), 1u);
  EXPECT_TRUE(summary.counters[0].traffic);
  const auto kernels = kernels_of(out);
  ASSERT_EQ(kernels.size(), 3u);
  EXPECT_EQ(kernels[1].kernel().name(), "a");
  EXPECT_EQ(kernels[1].kernel().start_ns(), 1000u) << "the timeline's times kept";
  ASSERT_TRUE(kernels[1].kernel().has_traffic_profile());
  EXPECT_EQ(shares(kernels[1].kernel().traffic_profile().remote_share()),
            (std::vector<float>{0.2f, 0.2f, 0.2f, 0.2f, 0.2f, 0, 0, 0, 0, 0}));
  EXPECT_EQ(shares(kernels[1].kernel().traffic_profile().local_share()),
            (std::vector<float>{0, 0, 0, 0, 0, 0.2f, 0.2f, 0.2f, 0.2f, 0.2f}));
  ASSERT_TRUE(kernels[0].kernel().has_traffic_profile());
  for (float share : kernels[0].kernel().traffic_profile().remote_share()) EXPECT_NEAR(share, 0.1, 1e-6);
  EXPECT_EQ(kernels[0].kernel().traffic_profile().remote_share_size(), 10);
  EXPECT_FALSE(kernels[2].kernel().has_traffic_profile()) << "device 1 had no samples";

  TraceReader reader(out);
  Event event;
  while (reader.next(event)) EXPECT_FALSE(event.has_traffic_samples());
}

TEST_F(MergeFixture, CountersAndTrafficRunsBothApply) {
  testing::write_trace(core, testing::two_gpu_header(),
                       {measured(launch(1, "a", 503, 0), 30), measured(launch(0, "a", 501, 0), 10),
                        measured(launch(0, "b", 502, 0), 20)});
  const auto traffic = dir / "traffic.wstrace";
  TrafficRun()
      .kernel(0, "a", 701, 5000)
      .kernel(0, "b", 702, 6000)
      .kernel(1, "a", 703, 5000)
      .samples(0, 4000, 100, 30, 10, 10)
      .samples(1, 5000, 100, 1, 0, 10)
      .write(traffic);

  const MergeSummary summary = merge_counters(timeline, {core, traffic}, out);

  EXPECT_EQ(summary.kernels_with_counters, 3u);
  EXPECT_EQ(summary.kernels_with_traffic_profile, 3u);
  EXPECT_FALSE(summary.counters[0].traffic);
  EXPECT_TRUE(summary.counters[1].traffic);
  EXPECT_EQ(summary.counters[1].matched, 3u);
  for (const Event& kernel : kernels_of(out)) {
    EXPECT_TRUE(kernel.kernel().has_counters()) << kernel.kernel().name();
    EXPECT_TRUE(kernel.kernel().has_traffic_profile()) << kernel.kernel().name();
  }
  const auto kernels = kernels_of(out);
  EXPECT_EQ(kernels[2].kernel().counters().warp_instructions().total(), 30u);
  EXPECT_TRUE(kernels[2].kernel().traffic_profile().remote_share().empty()) << "device 1 moved DRAM bytes only";
  EXPECT_EQ(kernels[2].kernel().traffic_profile().local_share_size(), 10);
}

TEST_F(MergeFixture, ATrafficTraceIsNoTimeline) {
  const auto traffic = dir / "traffic.wstrace";
  TrafficRun().kernel(0, "a", 701, 5000).kernel(0, "b", 702, 6000).kernel(1, "a", 703, 5000).write(traffic);
  try {
    merge_counters(traffic, {timeline}, out);
    FAIL();
  } catch (const TraceError& error) {
    EXPECT_THAT(error.problem(), HasSubstr("a traffic-mode trace"));
  }
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST_F(MergeFixture, NoSassSummaryAnywhereLeavesNone) {
  testing::write_trace(core, testing::two_gpu_header(),
                       {measured(launch(1, "a", 503, 0), 30), measured(launch(0, "a", 501, 0), 10),
                        measured(launch(0, "b", 502, 0), 20)});
  merge_counters(timeline, {core}, out);
  for (const Event& kernel : kernels_of(out)) EXPECT_FALSE(kernel.kernel().has_sass()) << kernel.kernel().name();
}

TEST_F(MergeFixture, ADeviceMissingFromEitherTraceIsRefused) {
  // Formerly "DifferentLaunchCountsAreRefused": launch counts may differ now, a device without kernels may not.
  testing::write_trace(core, testing::two_gpu_header(),
                       {measured(launch(0, "a", 1, 0), 1), measured(launch(0, "b", 2, 0), 1)});
  try {
    merge_counters(timeline, {core}, out);
    FAIL();
  } catch (const TraceError& error) {
    EXPECT_THAT(error.problem(), HasSubstr("device 1 launched 1 kernels in the timeline trace but none here"));
  }
  testing::write_trace(timeline, testing::two_gpu_header(), {launch(0, "b", 12, 2000), launch(0, "a", 11, 1000)});
  testing::write_trace(
      core, testing::two_gpu_header(),
      {measured(launch(0, "a", 1, 0), 1), measured(launch(0, "b", 2, 0), 1), measured(launch(1, "a", 3, 0), 1)});
  try {
    merge_counters(timeline, {core}, out);
    FAIL();
  } catch (const TraceError& error) {
    EXPECT_THAT(error.problem(), HasSubstr("device 1 launched 1 kernels here but none in the timeline trace"));
  }
  EXPECT_FALSE(std::filesystem::exists(out));
}

// Longer runs, aligned like a diff: the kernels of one device in launch order.
using Names = std::vector<std::string>;

// `count` launches of a loop body of five kernels, the way solvers and training steps look.
Names loop_names(std::size_t count) {
  Names names;
  for (std::size_t i = 0; i < count; ++i) names.push_back("k" + std::to_string(i % 5));
  return names;
}

Names spliced(Names names, std::size_t at, std::size_t remove, const Names& insert) {
  names.erase(names.begin() + static_cast<std::ptrdiff_t>(at),
              names.begin() + static_cast<std::ptrdiff_t>(at + remove));
  names.insert(names.begin() + static_cast<std::ptrdiff_t>(at), insert.begin(), insert.end());
  return names;
}

// A timeline run: kernel i of `device` has correlation id `first` + 2i (two devices interleave), times 1000 apart.
void add_timeline_run(std::vector<Event>& events, std::uint32_t device, const Names& names, std::uint64_t first) {
  for (std::size_t i = 0; i < names.size(); ++i)
    events.push_back(launch(device, names[i].c_str(), first + 2 * i, 1000 * (i + 1)));
}

// A counters run: launch j of `device` counts 100000 * (device + 1) + j warp instructions, so that a test sees which
// launch each timeline kernel took its counters from.
void add_counters_run(std::vector<Event>& events, std::uint32_t device, const Names& names, std::uint64_t first) {
  for (std::size_t j = 0; j < names.size(); ++j)
    events.push_back(measured(launch(device, names[j].c_str(), first + 2 * j, 0), 100'000 * (device + 1) + j));
}

// What the merged trace's kernels of `device` took, in launch order: the counters launch's number, or -1 for none.
std::vector<std::int64_t> taken_from(const std::vector<Event>& kernels, std::uint32_t device) {
  std::vector<std::int64_t> taken;
  for (const Event& event : kernels) {
    if (event.kernel().device_id() != device) continue;
    taken.push_back(event.kernel().has_counters()
                        ? static_cast<std::int64_t>(event.kernel().counters().warp_instructions().total()) -
                              100'000 * (device + 1)
                        : -1);
  }
  return taken;
}

struct AlignedMergeFixture : MergeFixture {
  MergeSummary merge_one_device(const Names& timeline_names, const Names& counters_names) {
    std::vector<Event> timeline_events, counters_events;
    add_timeline_run(timeline_events, 0, timeline_names, 1);
    add_counters_run(counters_events, 0, counters_names, 1);
    testing::write_trace(timeline, testing::two_gpu_header(), timeline_events);
    testing::write_trace(core, testing::two_gpu_header(), counters_events);
    return merge_counters(timeline, {core}, out);
  }
};

TEST_F(AlignedMergeFixture, IdenticalRunsMatchEveryKernel) {
  const MergeSummary summary = merge_one_device(loop_names(305), loop_names(305));
  const auto taken = taken_from(kernels_of(out), 0);
  ASSERT_EQ(taken.size(), 305u);
  for (std::size_t i = 0; i < taken.size(); ++i) EXPECT_EQ(taken[i], static_cast<std::int64_t>(i));
  ASSERT_EQ(summary.counters.size(), 1u);
  EXPECT_EQ(summary.counters[0].matched, 305u);
  EXPECT_EQ(summary.counters[0].unmatched_in_timeline, 0u);
  EXPECT_EQ(summary.counters[0].unmatched_here, 0u);
}

TEST_F(AlignedMergeFixture, ALibraryChoosingOtherKernelsCostsOnlyThoseKernels) {
  // At kernel 120 cuFFT ran two fft<1024> kernels in the timeline run and three fft<4096> in the counters run.
  const Names ours = spliced(loop_names(305), 120, 2, {"fft<1024>", "fft<1024>"});
  const Names theirs = spliced(loop_names(305), 120, 2, {"fft<4096>", "fft<4096>", "fft<4096>"});
  const MergeSummary summary = merge_one_device(ours, theirs);

  const auto taken = taken_from(kernels_of(out), 0);
  ASSERT_EQ(taken.size(), 305u);
  for (std::size_t i = 0; i < 120; ++i) EXPECT_EQ(taken[i], static_cast<std::int64_t>(i)) << i;
  EXPECT_EQ(taken[120], -1) << "fft<4096> counted other code";
  EXPECT_EQ(taken[121], -1);
  for (std::size_t i = 122; i < 305; ++i) EXPECT_EQ(taken[i], static_cast<std::int64_t>(i + 1)) << i;

  EXPECT_EQ(summary.kernels, 305u);
  EXPECT_EQ(summary.kernels_with_counters, 303u);
  const CountersMatch& match = summary.counters.at(0);
  EXPECT_EQ(match.trace, core);
  EXPECT_EQ(match.timeline_kernels, 305u);
  EXPECT_EQ(match.matched, 303u);
  EXPECT_EQ(match.unmatched_in_timeline, 2u);
  EXPECT_EQ(match.unmatched_here, 3u);
  ASSERT_EQ(match.timeline_examples.size(), 2u);
  EXPECT_EQ(match.timeline_examples[0].name, "fft<1024>");
  EXPECT_EQ(match.timeline_examples[0].position, 120u);
  EXPECT_EQ(match.timeline_examples[1].position, 121u);
  ASSERT_EQ(match.here_examples.size(), 3u);
  EXPECT_EQ(match.here_examples[2].name, "fft<4096>");
  EXPECT_EQ(match.here_examples[2].position, 122u);
}

TEST_F(AlignedMergeFixture, AnInsertionAndADeletionShiftTheCountersToTheRightKernels) {
  // The timeline run has one kernel more at 50; the counters run one more at 200, a k3 launched with another grid.
  const Names ours = spliced(loop_names(305), 50, 0, {"warmup"});
  std::vector<Event> timeline_events, counters_events;
  add_timeline_run(timeline_events, 0, ours, 1);
  add_counters_run(counters_events, 0, loop_names(305), 1);
  Event other_grid = measured(launch(0, "k3", 10'000, 0), 999);
  other_grid.mutable_kernel()->mutable_grid()->set_x(216);
  counters_events.insert(counters_events.begin() + 200, other_grid);
  testing::write_trace(timeline, testing::two_gpu_header(), timeline_events);
  for (std::size_t j = 200; j < counters_events.size(); ++j)  // launch order: the inserted one 200th
    counters_events[j].mutable_kernel()->set_correlation_id(1 + 2 * j);
  testing::write_trace(core, testing::two_gpu_header(), counters_events);

  const MergeSummary summary = merge_counters(timeline, {core}, out);

  const auto taken = taken_from(kernels_of(out), 0);
  ASSERT_EQ(taken.size(), 306u);
  for (std::size_t i = 0; i < 50; ++i) EXPECT_EQ(taken[i], static_cast<std::int64_t>(i)) << i;
  EXPECT_EQ(taken[50], -1) << "warmup ran only in the timeline run";
  // Timeline kernel i >= 51 is loop launch i - 1, which is the counters run's launch i - 1 before its inserted launch
  // and launch i after it: the counters say which (they count 100000 + the loop launch's number, 999 the inserted one).
  for (std::size_t i = 51; i < 306; ++i) EXPECT_EQ(taken[i], static_cast<std::int64_t>(i - 1)) << i;
  EXPECT_EQ(summary.counters[0].unmatched_here, 1u);
  EXPECT_EQ(summary.counters[0].here_examples.at(0).position, 200u) << "k3 with another grid is another launch";
}

TEST_F(AlignedMergeFixture, AnotherBlockSizeIsAnotherLaunch) {
  std::vector<Event> timeline_events, counters_events;
  add_timeline_run(timeline_events, 0, loop_names(10), 1);
  add_counters_run(counters_events, 0, loop_names(10), 1);
  counters_events[4].mutable_kernel()->mutable_block()->set_x(128);
  testing::write_trace(timeline, testing::two_gpu_header(), timeline_events);
  testing::write_trace(core, testing::two_gpu_header(), counters_events);
  merge_counters(timeline, {core}, out);
  const auto taken = taken_from(kernels_of(out), 0);
  EXPECT_EQ(taken, (std::vector<std::int64_t>{0, 1, 2, 3, -1, 5, 6, 7, 8, 9}));
}

TEST_F(AlignedMergeFixture, EachDeviceIsAlignedOnItsOwn) {
  // Device 0 differs at kernel 120, device 1 not at all; their launches interleave in one correlation-id order.
  std::vector<Event> timeline_events, counters_events;
  add_timeline_run(timeline_events, 0, spliced(loop_names(305), 120, 2, {"fft<1024>", "fft<1024>"}), 1);
  add_timeline_run(timeline_events, 1, loop_names(100), 2);
  add_counters_run(counters_events, 1, loop_names(100), 2);
  add_counters_run(counters_events, 0, spliced(loop_names(305), 120, 2, {"fft<4096>", "fft<4096>", "fft<4096>"}), 1);
  testing::write_trace(timeline, testing::two_gpu_header(), timeline_events);
  testing::write_trace(core, testing::two_gpu_header(), counters_events);

  const MergeSummary summary = merge_counters(timeline, {core}, out);

  const auto kernels = kernels_of(out);
  const auto device0 = taken_from(kernels, 0);
  const auto device1 = taken_from(kernels, 1);
  ASSERT_EQ(device0.size(), 305u);
  ASSERT_EQ(device1.size(), 100u);
  EXPECT_EQ(device0[119], 119);
  EXPECT_EQ(device0[120], -1);
  EXPECT_EQ(device0[304], 305);
  for (std::size_t i = 0; i < device1.size(); ++i) EXPECT_EQ(device1[i], static_cast<std::int64_t>(i)) << i;
  EXPECT_EQ(summary.counters[0].matched, 403u);
  EXPECT_EQ(summary.counters[0].timeline_kernels, 405u);
  EXPECT_EQ(summary.counters[0].unmatched_in_timeline, 2u);
}

TEST_F(AlignedMergeFixture, TheSummaryCountsAllUnmatchedAndNamesTheFirstTen) {
  const Names ours = spliced(loop_names(305), 100, 15, Names(15, "other"));
  const MergeSummary summary = merge_one_device(ours, loop_names(305));
  const CountersMatch& match = summary.counters.at(0);
  EXPECT_EQ(match.matched, 290u);
  EXPECT_EQ(match.unmatched_in_timeline, 15u);
  EXPECT_EQ(match.unmatched_here, 15u);
  ASSERT_EQ(match.timeline_examples.size(), CountersMatch::kListed);
  EXPECT_EQ(match.timeline_examples[0].device, 0u);
  EXPECT_EQ(match.timeline_examples[0].position, 100u);
  EXPECT_EQ(match.timeline_examples[9].position, 109u);
  ASSERT_EQ(match.here_examples.size(), CountersMatch::kListed);
  EXPECT_EQ(match.here_examples[0].name, "k0");
  EXPECT_EQ(match.here_examples[0].position, 100u);
  EXPECT_EQ(summary.kernels_with_counters, 290u);
}

TEST_F(AlignedMergeFixture, FewerThanHalfMatchedIsAnotherProgram) {
  // 200 of 305 launches replaced: 105 left in common, under half.
  const Names ours = spliced(loop_names(305), 50, 200, Names(200, "other"));
  try {
    merge_one_device(ours, loop_names(305));
    FAIL();
  } catch (const TraceError& error) {
    EXPECT_EQ(error.file(), core.string());
    EXPECT_THAT(error.problem(), HasSubstr("device 0: only 105 of 305 timeline kernels"));
  }
  EXPECT_FALSE(std::filesystem::exists(out));
  Names renamed = loop_names(305);
  for (auto& name : renamed) name = "m" + name;
  EXPECT_THROW(merge_one_device(loop_names(305), renamed), TraceError) << "no name in common";
}

}  // namespace
}  // namespace warpsim::trace
