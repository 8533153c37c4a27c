// The timeline in Perfetto's protobuf format: the same slices and flow arrows as the JSON, in a file whose events
// nest per track in file order and whose interned ids are defined before they are used, as trace_processor needs.
#include "outputs/timeline_perfetto.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "host_events.h"
#include "outputs/timeline_export.h"
#include "perfetto_trace.pb.h"
#include "report_test_traces.h"

namespace warpsim::report {
namespace {

namespace pf = warpsim::perfetto;
using testing::api_call_event;
using testing::launch;
using testing::trace_file;

constexpr std::uint64_t kT0 = 1'795'324'604'857'851'873;

std::string export_in(TimelineFormat format, const std::vector<TimelineSource>& sources) {
  std::ostringstream out;
  TimelineOptions options;
  options.format = format;
  write_timeline(sources, out, options);
  return out.str();
}

// A host thread launching a kernel (the driver's launch nested in the runtime's) and copying, on a sample of two GPUs.
std::vector<TimelineSource> sources() {
  std::vector<Event> host = {
      testing::host_thread_event(4200, "main"),
      api_call_event("cudaLaunchKernel_v7000", 4200, kT0 + 5'000, kT0 + 8'000, 2),
      api_call_event("cuLaunchKernel", 4200, kT0 + 5'500, kT0 + 7'500, 102, 307),
      launch(0, 7, "_Z4headv", 2, kT0 + 9'000, 5'000),
      launch(0, 7, "_Z4nextv", 9, kT0 + 14'000, 0),  // zero length, starting as the one before ends
  };
  return {{"host", trace_file("host.wstrace", host)}, {"sample", std::string(WARPSIM_TEST_DATA) + "/sample.wstrace"}};
}

struct Decoded {
  std::size_t begins = 0, ends = 0, instants = 0;
  std::vector<std::string> problems;
  std::multiset<std::uint64_t> flows_out, flows_in;
  std::multiset<std::string> names;
};

// Reads the file as trace_processor would, checking what it relies on.
Decoded decode(const std::string& bytes) {
  pf::Trace trace;
  EXPECT_TRUE(trace.ParseFromString(bytes));
  Decoded d;
  std::map<std::uint64_t, std::string> names;
  std::set<std::uint64_t> categories, argument_names, strings, tracks;
  std::map<std::uint64_t, std::vector<std::uint64_t>> open;  // track -> begin times
  std::uint64_t last_ns = 0;
  for (const pf::TracePacket& p : trace.packet()) {
    for (const auto& n : p.interned_data().event_names()) names[n.iid()] = n.name();
    for (const auto& c : p.interned_data().event_categories()) categories.insert(c.iid());
    for (const auto& a : p.interned_data().debug_annotation_names()) argument_names.insert(a.iid());
    for (const auto& s : p.interned_data().debug_annotation_string_values()) strings.insert(s.iid());
    if (p.has_track_descriptor()) {
      tracks.insert(p.track_descriptor().uuid());
      continue;
    }
    const pf::TrackEvent& e = p.track_event();
    if (p.timestamp() < last_ns) d.problems.push_back("time goes back");
    last_ns = p.timestamp();
    if (!tracks.contains(e.track_uuid())) d.problems.push_back("event on an undeclared track");
    if (e.type() != pf::TrackEvent::TYPE_SLICE_END) {
      if (!names.contains(e.name_iid())) d.problems.push_back("name used before it is defined");
      for (std::uint64_t c : e.category_iids())
        if (!categories.contains(c)) d.problems.push_back("category used before it is defined");
      for (const auto& a : e.debug_annotations()) {
        if (!argument_names.contains(a.name_iid())) d.problems.push_back("argument name used before it is defined");
        if (a.has_string_value_iid() && !strings.contains(a.string_value_iid()))
          d.problems.push_back("string used before it is defined");
      }
      if ((p.sequence_flags() & 2) == 0) d.problems.push_back("interned ids without SEQ_NEEDS_INCREMENTAL_STATE");
      d.names.insert(names[e.name_iid()]);
    }
    switch (e.type()) {
      case pf::TrackEvent::TYPE_SLICE_BEGIN: ++d.begins; open[e.track_uuid()].push_back(p.timestamp()); break;
      case pf::TrackEvent::TYPE_SLICE_END:
        ++d.ends;
        if (open[e.track_uuid()].empty()) d.problems.push_back("an end without its begin");
        else open[e.track_uuid()].pop_back();
        break;
      case pf::TrackEvent::TYPE_INSTANT: ++d.instants; break;
      default: d.problems.push_back("an event of no type");
    }
    d.flows_out.insert(e.flow_ids().begin(), e.flow_ids().end());
    d.flows_in.insert(e.terminating_flow_ids().begin(), e.terminating_flow_ids().end());
  }
  for (const auto& [track, begins] : open)
    if (!begins.empty()) d.problems.push_back("a begin without its end");
  return d;
}

TEST(TimelinePerfetto, HoldsTheJsonsSlicesAndFlowsNestedInFileOrder) {
  const nlohmann::json json = nlohmann::json::parse(export_in(TimelineFormat::kJson, sources()));
  std::multiset<std::string> json_names;
  std::size_t slices = 0, instants = 0, flows = 0;
  for (const auto& e : json["traceEvents"]) {
    if (e["ph"] == "X") ++slices;
    if (e["ph"] == "i") ++instants;
    if (e["ph"] == "s") ++flows;
    if (e["ph"] == "X" || e["ph"] == "i") json_names.insert(e["name"].get<std::string>());
  }
  const Decoded d = decode(export_in(TimelineFormat::kPerfetto, sources()));
  EXPECT_TRUE(d.problems.empty()) << d.problems.front();
  EXPECT_EQ(d.begins, slices);
  EXPECT_EQ(d.ends, slices);
  EXPECT_EQ(d.instants, instants);
  EXPECT_EQ(d.names, json_names);
  ASSERT_GT(flows, 0u);
  EXPECT_EQ(d.flows_out.size(), flows);
  EXPECT_EQ(d.flows_out, d.flows_in) << "every arrow leaves one slice and ends in another";
}

TEST(TimelinePerfetto, AtOneInstantEndsComeFirstOuterSlicesOpenFirstAndAZeroLengthSliceClosesAfterItOpens) {
  std::ostringstream out;
  PerfettoTimelineSink sink(out);
  const SliceText text{"k", "kernel", {}};
  sink.process(1, "p");
  sink.thread(1, 1, "t");
  sink.slice({1, 1, 10, 0, &text});   // zero length at 10
  sink.slice({1, 1, 10, 10, &text});  // [10, 20]
  sink.slice({1, 1, 0, 10, &text});   // [0, 10]
  sink.slice({1, 1, 10, 5, &text});   // [10, 15], inside [10, 20]
  sink.finish();
  const Decoded d = decode(out.str());
  EXPECT_TRUE(d.problems.empty()) << d.problems.front();
  EXPECT_EQ(d.begins, 4u);
}

TEST(TimelinePerfetto, TheFormatFollowsTheNameOrTheExtension) {
  EXPECT_EQ(timeline_format_of("auto", "t.pftrace"), TimelineFormat::kPerfetto);
  EXPECT_EQ(timeline_format_of("auto", "t.perfetto-trace"), TimelineFormat::kPerfetto);
  EXPECT_EQ(timeline_format_of("auto", "t.json"), TimelineFormat::kJson);
  EXPECT_EQ(timeline_format_of("perfetto", "t.json"), TimelineFormat::kPerfetto);
  EXPECT_EQ(timeline_format_of("json", "t.pftrace"), TimelineFormat::kJson);
  EXPECT_THROW(timeline_format_of("svg", "t"), std::invalid_argument);
}

}  // namespace
}  // namespace warpsim::report
