// Counters from counters-mode runs land on the same launches of a timeline trace, or the merge says why not.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sample_trace.h"
#include "trace_error.h"
#include "trace_merge.h"
#include "trace_reader.h"

namespace warpsim::tracer {
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
  testing::write_trace(core, testing::two_gpu_header(),
                       {measured(launch(0, "a", 1, 0), 1), measured(launch(0, "c", 2, 0), 1),
                        measured(launch(1, "a", 3, 0), 1)});
  try {
    merge_counters(timeline, {core}, out);
    FAIL();
  } catch (const TraceError& error) {
    EXPECT_THAT(error.problem(), HasSubstr("kernel 1 on device 0 is c here but b"));
  }
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_FALSE(std::filesystem::exists(out.string() + ".partial"));
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

TEST_F(MergeFixture, NoSassSummaryAnywhereLeavesNone) {
  testing::write_trace(core, testing::two_gpu_header(),
                       {measured(launch(1, "a", 503, 0), 30), measured(launch(0, "a", 501, 0), 10),
                        measured(launch(0, "b", 502, 0), 20)});
  merge_counters(timeline, {core}, out);
  for (const Event& kernel : kernels_of(out)) EXPECT_FALSE(kernel.kernel().has_sass()) << kernel.kernel().name();
}

TEST_F(MergeFixture, DifferentLaunchCountsAreRefused) {
  testing::write_trace(core, testing::two_gpu_header(), {measured(launch(0, "a", 1, 0), 1)});
  EXPECT_THROW(merge_counters(timeline, {core}, out), TraceError);
}

}  // namespace
}  // namespace warpsim::tracer
