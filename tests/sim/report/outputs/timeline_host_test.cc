// The host side of the timeline: thread tracks with API calls and host work, and flow arrows to the GPU.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>

#include "host_events.h"
#include "outputs/timeline_export.h"
#include "report_test_traces.h"
#include "trace_writer.h"

namespace warpsim::report {
namespace {

using testing::api_call_event;
using ::testing::ElementsAre;
using testing::launch;
using testing::trace_file;

constexpr std::uint64_t kT0 = 1'795'324'604'857'851'873;
constexpr std::uint64_t kMain = 4200;
constexpr std::uint64_t kWorker = 4207;

nlohmann::json export_json(const std::vector<TimelineSource>& sources, TimelineResult* result = nullptr) {
  std::ostringstream out;
  const TimelineResult r = write_timeline(sources, out);
  if (result) *result = r;
  return nlohmann::json::parse(out.str());  // throws on invalid JSON
}

Event at(Event event, std::uint64_t correlation) {
  if (event.has_memcpy()) event.mutable_memcpy()->set_correlation_id(correlation);
  return event;
}

// Two host threads. main: cudaMalloc, a launch (with the driver's launch nested in it) of a kernel on GPU 0, an
// async copy (nested driver copy) and a graph launch of two kernels. worker: a launch of a kernel on GPU 1 and a
// synchronize. Correlation ids tie each call to its GPU work.
std::vector<Event> two_thread_events() {
  return {
      testing::host_thread_event(kMain, "main"),
      testing::host_thread_event(kWorker),  // no name: ended before the tracer asked
      api_call_event("cudaMalloc_v3020", kMain, kT0, kT0 + 1'000, 1),
      api_call_event("cudaLaunchKernel_v7000", kMain, kT0 + 5'000, kT0 + 8'000, 2),
      api_call_event("cuLaunchKernel", kMain, kT0 + 5'500, kT0 + 7'500, 102, 307),
      api_call_event("cudaLaunchKernel_v7000", kWorker, kT0 + 6'000, kT0 + 6'500, 4),
      launch(1, 7, "_Z4tailv", 4, kT0 + 7'000, 1'000),
      launch(0, 7, "_Z4headv", 2, kT0 + 9'000, 5'000),
      api_call_event("cudaStreamSynchronize_v3020", kWorker, kT0 + 9'000, kT0 + 16'000, 5),
      api_call_event("cudaMemcpyAsync_v3020", kMain, kT0 + 10'000, kT0 + 11'000, 3),
      api_call_event("cuMemcpyHtoDAsync_v2", kMain, kT0 + 10'200, kT0 + 10'800, 103, 279),
      at(testing::copy_event(Memcpy::HTOD, 1 << 20, 0, 7, kT0 + 14'000, 1'000), 3),  // right after the kernel
      api_call_event("cudaGraphLaunch_v10000", kMain, kT0 + 12'000, kT0 + 12'500, 6),
      launch(0, 13, "_Z5graphv", 6, kT0 + 13'000, 500),
      launch(0, 13, "_Z5graphv", 6, kT0 + 13'600, 500),
  };
}

struct Timeline {
  nlohmann::json json;
  std::map<std::pair<int, int>, std::string> threads;  // (pid, tid) -> thread name
  std::map<int, std::string> processes;
};

Timeline read(const nlohmann::json& json) {
  Timeline t{json, {}, {}};
  for (const auto& e : json["traceEvents"]) {
    if (e["ph"] != "M") continue;
    if (e["name"] == "thread_name") t.threads[{e["pid"], e["tid"]}] = e["args"]["name"];
    if (e["name"] == "process_name") t.processes[e["pid"]] = e["args"]["name"];
  }
  return t;
}

std::vector<nlohmann::json> with(const nlohmann::json& json, const std::string& key, const std::string& value) {
  std::vector<nlohmann::json> out;
  for (const auto& e : json["traceEvents"])
    if (e.contains(key) && e[key] == value) out.push_back(e);
  return out;
}

std::string thread_of(const Timeline& t, const nlohmann::json& e) { return t.threads.at({e["pid"], e["tid"]}); }

// The X slice on the same pid/tid whose [ts, ts + dur] holds `ts`, innermost (shortest) first.
std::optional<nlohmann::json> enclosing(const nlohmann::json& json, const nlohmann::json& point) {
  std::optional<nlohmann::json> best;
  const double ts = point["ts"].get<double>();
  for (const auto& e : json["traceEvents"]) {
    if (e["ph"] != "X" || e["pid"] != point["pid"] || e["tid"] != point["tid"]) continue;
    const double start = e["ts"].get<double>();
    const double dur = e["dur"].get<double>();
    if (start < ts && ts < start + dur && (!best || dur < (*best)["dur"].get<double>())) best = e;
  }
  return best;
}

TEST(TimelineHost, ThreadTracksAreNamedAndHoldTheCalls) {
  const Timeline t = read(export_json({{"A", trace_file("host.wstrace", two_thread_events())}}));
  EXPECT_THAT(t.processes, ::testing::Contains(::testing::Pair(::testing::_, "A host")));
  std::set<std::string> names;
  for (const auto& [thread, name] : t.threads) names.insert(name);
  EXPECT_TRUE(names.count("main"));
  EXPECT_TRUE(names.count("thread 4207"));

  const auto launches = with(t.json, "name", "cudaLaunchKernel");  // the version suffix is gone
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_EQ(launches[0]["ph"], "X");
  EXPECT_EQ(launches[0]["cat"], "api");
  EXPECT_EQ(launches[0]["args"]["correlation_id"], 2);
  EXPECT_EQ(launches[0]["args"]["cbid"], 211);
  EXPECT_EQ(launches[0]["args"]["domain"], "runtime");
  EXPECT_EQ(thread_of(t, launches[0]), "main");
  EXPECT_EQ(thread_of(t, launches[1]), "thread 4207");
  EXPECT_DOUBLE_EQ(launches[0]["ts"].get<double>(), 5.0);  // the trace starts at its first call
  EXPECT_DOUBLE_EQ(launches[0]["dur"].get<double>(), 3.0);

  // Nested driver calls share their runtime call's track: Chrome nests "X" slices of one tid by time.
  const auto driver = with(t.json, "name", "cuLaunchKernel");
  ASSERT_EQ(driver.size(), 1u);
  EXPECT_EQ(driver[0]["args"]["domain"], "driver");
  EXPECT_EQ(driver[0]["tid"], launches[0]["tid"]);
  EXPECT_EQ(driver[0]["pid"], launches[0]["pid"]);
  EXPECT_EQ(with(t.json, "name", "cuMemcpyHtoDAsync").size(), 1u);
  EXPECT_EQ(with(t.json, "name", "cudaMalloc").size(), 1u);
}

TEST(TimelineHost, HostWorkFillsTheGapsBetweenTopLevelCalls) {
  const Timeline t = read(export_json({{"A", trace_file("host.wstrace", two_thread_events())}}));
  std::vector<std::tuple<std::string, double, double>> work;
  for (const auto& e : with(t.json, "name", "host work")) {
    EXPECT_EQ(e["cat"], "host");
    work.emplace_back(thread_of(t, e), e["ts"].get<double>(), e["dur"].get<double>());
  }
  std::sort(work.begin(), work.end());
  // main: malloc -> launch, launch -> copy, copy -> graph launch; worker: launch -> synchronize.
  EXPECT_THAT(work, ElementsAre(std::tuple{"main", 1.0, 4.0}, std::tuple{"main", 8.0, 2.0},
                                std::tuple{"main", 11.0, 1.0}, std::tuple{"thread 4207", 6.5, 2.5}));
}

TEST(TimelineHost, EveryFlowStartHasOneFinishOnTheGpuWork) {
  TimelineResult result;
  const Timeline t = read(export_json({{"A", trace_file("host.wstrace", two_thread_events())}}, &result));
  std::map<std::uint64_t, nlohmann::json> starts;
  std::map<std::uint64_t, nlohmann::json> finishes;
  for (const auto& e : with(t.json, "ph", "s")) EXPECT_TRUE(starts.emplace(e["id"], e).second) << e;
  for (const auto& e : with(t.json, "ph", "f")) EXPECT_TRUE(finishes.emplace(e["id"], e).second) << e;
  EXPECT_EQ(starts.size(), 5u);  // launch x2, copy, graph launch (two kernels)
  EXPECT_EQ(result.flows, 5u);
  ASSERT_EQ(finishes.size(), starts.size());
  std::multiset<std::string> calls;
  std::multiset<std::string> targets;
  for (const auto& [id, start] : starts) {
    ASSERT_TRUE(finishes.count(id)) << id;
    const nlohmann::json& finish = finishes.at(id);
    EXPECT_EQ(finish["bp"], "e");
    EXPECT_EQ(finish["cat"], start["cat"]);
    EXPECT_EQ(finish["name"], start["name"]);
    // Each end lies strictly inside the slice it belongs to, on that slice's track.
    const auto call = enclosing(t.json, start);
    const auto target = enclosing(t.json, finish);
    ASSERT_TRUE(call && target) << start << finish;
    EXPECT_EQ((*call)["args"]["correlation_id"], (*target)["args"]["correlation_id"]);
    calls.insert((*call)["name"].get<std::string>());
    targets.insert((*target)["name"].get<std::string>());
  }
  EXPECT_EQ(calls, (std::multiset<std::string>{"cudaGraphLaunch", "cudaGraphLaunch", "cudaLaunchKernel",
                                               "cudaLaunchKernel", "cudaMemcpyAsync"}));
  EXPECT_EQ(targets, (std::multiset<std::string>{"Memcpy HtoD 1.0 MiB", "graph", "graph", "head", "tail"}));
}

TEST(TimelineHost, FlowIdsAreUniqueOverTracesInOneFile) {
  const auto a = trace_file("a.wstrace", two_thread_events());
  const auto b = trace_file("b.wstrace", two_thread_events());
  const nlohmann::json json = export_json({{"A", a}, {"B", b}});
  std::set<std::uint64_t> start_ids;
  std::set<std::uint64_t> finish_ids;
  for (const auto& e : with(json, "ph", "s")) start_ids.insert(e["id"].get<std::uint64_t>());
  for (const auto& e : with(json, "ph", "f")) finish_ids.insert(e["id"].get<std::uint64_t>());
  EXPECT_EQ(start_ids.size(), 10u);
  EXPECT_EQ(start_ids, finish_ids);
}

TEST(TimelineHost, TraceWithoutApiCallsHasNoHostTracksOrFlows) {
  const auto path = trace_file("old.wstrace", {launch(0, 7, "_Z4headv", 2, kT0, 1'000),
                                               at(testing::copy_event(Memcpy::HTOD, 1024, 0, 7, kT0 + 2'000, 100), 3)});
  TimelineResult result;
  const Timeline t = read(export_json({{"A", path}}, &result));
  EXPECT_EQ(result.flows, 0u);
  EXPECT_EQ(result.events, 3u);  // kernel, copy on its stream and on the link
  EXPECT_TRUE(with(t.json, "ph", "s").empty());
  EXPECT_TRUE(with(t.json, "ph", "f").empty());
  EXPECT_TRUE(with(t.json, "name", "host work").empty());
  for (const auto& [pid, name] : t.processes) EXPECT_THAT(name, ::testing::Not(::testing::HasSubstr("host")));
}

TEST(TimelineHost, MarkersOfAThreadWithCallsGetTheirOwnTrack) {
  std::vector<Event> events = two_thread_events();
  Event mark = testing::marker_event("step", kT0 + 4'000, kT0 + 12'000);
  mark.mutable_marker()->set_thread_id(kMain);
  events.push_back(mark);
  const Timeline t = read(export_json({{"A", trace_file("host.wstrace", events)}}));
  const auto step = with(t.json, "name", "step");
  ASSERT_EQ(step.size(), 1u);
  EXPECT_EQ(thread_of(t, step[0]), "main NVTX");
}

}  // namespace
}  // namespace warpsim::report
