// simulate() streams its source: a first pass indexes it (API order, threads, routes), a second replays it in API
// order, predicting each operation as it is read, a third gives the output every event as the source had it, with
// new times. One SimGrid engine per process: CTest
// runs each test alone.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "counter_lender.h"
#include "platform.h"
#include "registry.h"
#include "sample_trace.h"
#include "simulation.h"
#include "test_node.h"

namespace warpsim::replay {
namespace {

using google::protobuf::util::MessageDifferencer;
using warpsim::testing::kernel_event;

// Counts the passes over events held in memory.
class CountingSource : public EventsInMemory {
 public:
  using EventsInMemory::EventsInMemory;
  std::unique_ptr<EventCursor> open() override {
    ++passes;
    return EventsInMemory::open();
  }
  int passes = 0;
};

Event with_correlation(Event event, std::uint64_t id) {
  if (event.has_kernel()) event.mutable_kernel()->set_correlation_id(id);
  if (event.has_memcpy()) event.mutable_memcpy()->set_correlation_id(id);
  return event;
}

// A kernel with counters and a SASS summary: what the replay drops after predicting it.
Event full_kernel(std::uint64_t correlation, std::uint64_t start_ns) {
  Event event = with_correlation(kernel_event(0, 7, "stencil", start_ns, 1000), correlation);
  *event.mutable_kernel()->mutable_counters() = warpsim::testing::sample_counters(std::uint64_t{1} << 24);
  event.mutable_kernel()->mutable_sass()->set_instructions(4242);
  return event;
}

std::vector<Event> simulate_collecting(EventSource& source, const models::KernelModel& model) {
  std::vector<Event> out;
  simulate(source, platform::load_platform("h100-pcie"), &model, SimulationOptions{},
           {[](const TraceHeader&) {}, [&out](const Event& event) { out.push_back(event); }});
  return out;
}

TEST(StreamedSimulation, EveryEventComesOutWithTheCountersItHadInTheSourcesOrder) {
  // Recorded out of API order (as activity buffers are), with a marker the replay leaves out.
  const std::vector<Event> events = {
      full_kernel(3, 5'000'000), warpsim::testing::marker_event("phase", 0, 10), full_kernel(1, 1'000'000),
      with_correlation(warpsim::testing::copy_event(Memcpy::HTOD, 1 << 20, 0, 7, 2'000'000, 1000), 2)};
  CountingSource source("synthetic", warpsim::testing::two_gpu_header(), events);
  const auto model = models::make_model("roofline");
  const std::vector<Event> out = simulate_collecting(source, *model);
  EXPECT_EQ(source.passes, 3);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].kernel().correlation_id(), 3u);
  EXPECT_EQ(out[1].kernel().correlation_id(), 1u);
  EXPECT_EQ(out[2].memcpy().correlation_id(), 2u);
  for (const auto& [simulated, recorded] : {std::pair{out[0], events[0]}, std::pair{out[1], events[2]}}) {
    EXPECT_TRUE(MessageDifferencer::Equals(simulated.kernel().counters(), recorded.kernel().counters()));
    EXPECT_EQ(simulated.kernel().sass().instructions(), 4242u);
  }
  // One stream runs in API order: kernel 1, the copy, kernel 3.
  EXPECT_LE(out[1].kernel().end_ns(), out[2].memcpy().start_ns());
  EXPECT_LE(out[2].memcpy().end_ns(), out[0].kernel().start_ns());
}

TEST(StreamedSimulation, WithoutAnOutputTheSourceIsReadTwice) {
  const std::vector<Event> events = {full_kernel(1, 1'000'000)};
  CountingSource source("synthetic", warpsim::testing::two_gpu_header(), events);
  const auto model = models::make_model("roofline");
  const SimulationResult result =
      simulate(source, platform::load_platform("h100-pcie"), model.get(), SimulationOptions{}, SimulationOutput{});
  EXPECT_EQ(source.passes, 2);
  EXPECT_EQ(result.kernels, 1u);
  EXPECT_GT(result.simulated_kernel_s, 0);
  EXPECT_DOUBLE_EQ(result.recorded_kernel_s, 1000e-9);
}

// The file source as simulate streams it: each event once per pass, the trace's own order, counters intact.
TEST(StreamedSimulation, AFileSourceComesOutEventForEvent) {
  const auto path = warpsim::testing::fresh_temp_dir() / "sample.wstrace";
  std::vector<Event> events = warpsim::testing::sample_events();
  warpsim::testing::write_trace(path, warpsim::testing::two_gpu_header(), events);
  std::erase_if(events, [](const Event& event) { return event.has_marker(); });
  TraceFileSource file(path.string());
  const auto model = models::make_model("wave-blocks");
  std::vector<Event> out;
  const SimulationResult result =
      simulate(file, platform::load_platform("2xh100-nvlink"), model.get(), SimulationOptions{},
               {[](const TraceHeader& header) { EXPECT_EQ(header.mode(), CAPTURE_MODE_SIMULATED); },
                [&out](const Event& event) { out.push_back(event); }});
  ASSERT_EQ(out.size(), events.size());
  std::size_t borrowed = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    ASSERT_EQ(out[i].kind_case(), events[i].kind_case()) << "event " << i;
    if (!out[i].has_kernel()) continue;
    EXPECT_EQ(out[i].kernel().correlation_id(), events[i].kernel().correlation_id());
    if (has_core_counters(events[i].kernel()))
      EXPECT_TRUE(MessageDifferencer::Equals(out[i].kernel().counters(), events[i].kernel().counters())) << i;
    else if (has_core_counters(out[i].kernel()))
      ++borrowed;  // those of an identical launch, as predicted
  }
  EXPECT_EQ(result.kernels, 24u);
  EXPECT_EQ(borrowed, result.counters_borrowed);
  EXPECT_GT(borrowed, 0u);
}

// A kernel recorded without counters before the identical launch that has them borrows them in the replay, and with
// them reads its peer's memory: the route it needs was planned before either was replayed.
TEST(StreamedSimulation, AKernelThatBorrowsPeerTrafficFromALaterLaunchHasItsRoute) {
  Event lender = full_kernel(2, 2'000'000);
  lender.mutable_kernel()->mutable_counters()->mutable_memory()->set_l2_peer_sectors(std::uint64_t{1} << 20);
  Event borrower = with_correlation(kernel_event(1, 7, "stencil", 1'000'000, 1000), 1);
  const std::vector<Event> events{borrower, lender};
  CountingSource source("synthetic", warpsim::testing::two_gpu_header(), events);
  const auto model = models::make_model("roofline");
  const SimulationResult result =
      simulate(source, platform::load_platform("2xh100-nvlink"), model.get(), SimulationOptions{}, SimulationOutput{});
  EXPECT_EQ(result.counters_borrowed, 1u);
  EXPECT_EQ(result.kernels_without_counters, 0u);
}

}  // namespace
}  // namespace warpsim::replay
