#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <sstream>

#include "outputs/timeline_export.h"
#include "report_test_traces.h"
#include "trace_writer.h"

namespace warpsim::report {
namespace {

using testing::launch;
using testing::trace_file;

constexpr std::uint64_t kT0 = 1'795'324'604'857'851'873;  // a CUPTI timestamp from a real trace

nlohmann::json export_json(const std::vector<TimelineSource>& sources, const TimelineOptions& options = {}) {
  std::ostringstream out;
  write_timeline(sources, out, options);
  return nlohmann::json::parse(out.str());
}

// Names of processes and of threads ("pid/tid" -> name) from the metadata events.
struct Names {
  std::map<int, std::string> processes;
  std::map<std::pair<int, int>, std::string> threads;
};

Names names_of(const nlohmann::json& timeline) {
  Names names;
  for (const auto& e : timeline["traceEvents"]) {
    if (e["ph"] != "M") continue;
    if (e["name"] == "process_name") names.processes[e["pid"]] = e["args"]["name"];
    if (e["name"] == "thread_name") names.threads[{e["pid"], e["tid"]}] = e["args"]["name"];
  }
  return names;
}

std::vector<nlohmann::json> slices_named(const nlohmann::json& timeline, const std::string& name) {
  std::vector<nlohmann::json> out;
  for (const auto& e : timeline["traceEvents"])
    if (e["ph"] != "M" && e["name"] == name) out.push_back(e);
  return out;
}

std::string thread_of(const Names& names, const nlohmann::json& event) {
  return names.processes.at(event["pid"]) + " / " + names.threads.at({event["pid"], event["tid"]});
}

std::vector<Event> two_gpu_events() {
  Event counted = launch(1, 7, "_Z6matmulPfS_S_i", 3, kT0 + 3'000, 1'500);
  *counted.mutable_kernel()->mutable_counters() = testing::sample_counters(1 << 20);
  Event counters_only = launch(0, 7, "_Z6matmulPfS_S_i", 4, 0, 0);  // no time: left out
  Event copy = testing::copy_event(Memcpy::HTOD, 1 << 20, 0, 7, kT0, 1'000);
  Event peer = testing::copy_event(Memcpy::PTOP, 2 << 20, 0, 13, kT0 + 2'500, 2'000);
  Event mark = testing::marker_event("iteration", kT0 + 100, kT0 + 5'000);
  return {copy,          launch(0, 7, "_Z6matmulPfS_S_i", 1, kT0 + 1'234, 567),
          peer,          counted,
          counters_only, testing::memset_event(0, 7, 64'000, kT0 + 6'000),
          mark,          testing::sync_event(Synchronization::EVENT_RECORD, 0, 7, 1, kT0 + 10)};
}

TEST(TimelineJson, ProcessesTracksAndSlices) {
  const auto path = trace_file("run.wstrace", two_gpu_events());
  const nlohmann::json timeline = export_json({{"A: run", path}});
  const Names names = names_of(timeline);
  EXPECT_EQ(names.processes.size(), 3u);  // host, GPU0, GPU1
  EXPECT_THAT(names.processes, ::testing::Contains(::testing::Pair(::testing::_, "A: run GPU0 NVIDIA H100 80GB HBM3")));
  EXPECT_THAT(names.processes, ::testing::Contains(::testing::Pair(::testing::_, "A: run GPU1 NVIDIA H100 80GB HBM3")));
  EXPECT_THAT(names.processes, ::testing::Contains(::testing::Pair(::testing::_, "A: run host")));

  std::size_t slices = 0;
  for (const auto& e : timeline["traceEvents"]) slices += e["ph"] != "M";
  EXPECT_EQ(slices, 8u);  // kernel x2, HtoD on stream and link, PtoP on stream and link, memset, marker

  const auto kernels = slices_named(timeline, "matmul");
  ASSERT_EQ(kernels.size(), 2u);
  const nlohmann::json& first = kernels[0];
  EXPECT_EQ(first["ph"], "X");
  EXPECT_EQ(first["cat"], "kernel");
  EXPECT_DOUBLE_EQ(first["ts"].get<double>(), 1.234);  // trace starts at its HtoD copy
  EXPECT_DOUBLE_EQ(first["dur"].get<double>(), 0.567);
  EXPECT_EQ(first["args"]["grid"], "108x1x1");
  EXPECT_EQ(first["args"]["block"], "256x1x1");
  EXPECT_EQ(first["args"]["registers_per_thread"], 32);
  EXPECT_EQ(first["args"]["shared_memory_bytes"], 4096);
  EXPECT_EQ(first["args"]["correlation_id"], 1);
  EXPECT_EQ(first["args"]["kernel"], "matmul(float*, float*, float*, int)");
  EXPECT_FALSE(first["args"].contains("counters"));
  EXPECT_EQ(thread_of(names, first), "A: run GPU0 NVIDIA H100 80GB HBM3 / stream 7");
  EXPECT_EQ(kernels[1]["args"]["counters"]["dram_bytes"], (1 << 20) + (1 << 19));
  EXPECT_EQ(thread_of(names, kernels[1]), "A: run GPU1 NVIDIA H100 80GB HBM3 / stream 7");

  const auto htod = slices_named(timeline, "Memcpy HtoD 1.0 MiB");
  ASSERT_EQ(htod.size(), 2u);
  EXPECT_EQ(htod[0]["ts"], 0.0);
  EXPECT_DOUBLE_EQ(htod[0]["args"]["GB/s"].get<double>(), 1048.58);
  EXPECT_EQ(htod[0]["args"]["src"], "host");
  EXPECT_EQ(htod[0]["args"]["dst"], "GPU 0");
  std::set<std::string> htod_tracks = {thread_of(names, htod[0]), thread_of(names, htod[1])};
  EXPECT_TRUE(htod_tracks.count("A: run GPU0 NVIDIA H100 80GB HBM3 / PCIe HtoD"));

  const auto peer = slices_named(timeline, "Memcpy PtoP 2.0 MiB");
  ASSERT_EQ(peer.size(), 2u);
  std::set<std::string> peer_tracks = {thread_of(names, peer[0]), thread_of(names, peer[1])};
  EXPECT_TRUE(peer_tracks.count("A: run GPU0 NVIDIA H100 80GB HBM3 / peer (NVLink)"));
  EXPECT_TRUE(peer_tracks.count("A: run GPU0 NVIDIA H100 80GB HBM3 / stream 13"));
  EXPECT_EQ(peer[0]["args"]["dst"], "GPU 1");

  const auto marker = slices_named(timeline, "iteration");
  ASSERT_EQ(marker.size(), 1u);
  EXPECT_EQ(thread_of(names, marker[0]), "A: run host / thread 4242");
  EXPECT_EQ(slices_named(timeline, "Memset 62.5 KiB").size(), 1u);
}

TEST(TimelineJson, TwoTracesEachStartAtZeroInTheOrderGiven) {
  const auto real = trace_file("real.wstrace", {launch(0, 7, "k", 1, kT0, 1'000)});
  const auto simulated = trace_file("sim.wstrace", {launch(0, 7, "k", 1, 50'000, 1'200)});
  const nlohmann::json timeline = export_json({{"A: real", real}, {"B: sim", simulated}});
  const auto kernels = slices_named(timeline, "k");
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0]["ts"], 0.0);
  EXPECT_EQ(kernels[1]["ts"], 0.0);
  EXPECT_DOUBLE_EQ(kernels[1]["dur"].get<double>(), 1.2);
  const Names names = names_of(timeline);
  EXPECT_EQ(names.processes.at(kernels[0]["pid"]), "A: real GPU0 NVIDIA H100 80GB HBM3");
  EXPECT_EQ(names.processes.at(kernels[1]["pid"]), "B: sim GPU0 NVIDIA H100 80GB HBM3");
  // The sort index puts A's GPUs before B's.
  std::map<int, int> sort_index;
  for (const auto& e : timeline["traceEvents"])
    if (e["name"] == "process_sort_index") sort_index[e["pid"]] = e["args"]["sort_index"];
  EXPECT_LT(sort_index.at(kernels[0]["pid"]), sort_index.at(kernels[1]["pid"]));

  const nlohmann::json common = export_json({{"A", real}, {"B", simulated}}, {.common_clock = true, .progress = {}});
  const auto shared = slices_named(common, "k");
  EXPECT_DOUBLE_EQ(shared[0]["ts"].get<double>(), static_cast<double>(kT0 - 50'000) / 1000.0);
  EXPECT_EQ(shared[1]["ts"], 0.0);
}

TEST(TimelineJson, OverlappingSlicesOfAStreamGetASecondLane) {
  const auto path = trace_file("overlap.wstrace", {launch(0, 7, "a", 1, 1'000, 500), launch(0, 7, "b", 2, 1'200, 500),
                                                   launch(0, 7, "c", 3, 1'800, 100)});
  const nlohmann::json timeline = export_json({{"S", path}});
  const Names names = names_of(timeline);
  EXPECT_EQ(thread_of(names, slices_named(timeline, "a")[0]), "S GPU0 NVIDIA H100 80GB HBM3 / stream 7");
  EXPECT_EQ(thread_of(names, slices_named(timeline, "b")[0]), "S GPU0 NVIDIA H100 80GB HBM3 / stream 7 #2");
  EXPECT_EQ(thread_of(names, slices_named(timeline, "c")[0]), "S GPU0 NVIDIA H100 80GB HBM3 / stream 7");
}

// A track whose slices the trace holds out of start order is assigned after the first pass, as in start order.
TEST(TimelineJson, SlicesOutOfStartOrderGetTheLanesOfStartOrder) {
  const auto path = trace_file("late.wstrace", {launch(0, 7, "c", 3, 1'800, 100), launch(0, 7, "a", 1, 1'000, 500),
                                                launch(0, 7, "b", 2, 1'200, 500), launch(0, 9, "d", 4, 1'000, 50)});
  const nlohmann::json timeline = export_json({{"S", path}});
  const Names names = names_of(timeline);
  EXPECT_EQ(thread_of(names, slices_named(timeline, "a")[0]), "S GPU0 NVIDIA H100 80GB HBM3 / stream 7");
  EXPECT_EQ(thread_of(names, slices_named(timeline, "b")[0]), "S GPU0 NVIDIA H100 80GB HBM3 / stream 7 #2");
  EXPECT_EQ(thread_of(names, slices_named(timeline, "c")[0]), "S GPU0 NVIDIA H100 80GB HBM3 / stream 7");
  EXPECT_EQ(thread_of(names, slices_named(timeline, "d")[0]), "S GPU0 NVIDIA H100 80GB HBM3 / stream 9");
}

// Speed is a benchmark matter (scripts/bench-replay.sh times simulate with --timeline); this checks the counts.
TEST(TimelineJson, HundredThousandEventsExportCompletely) {
  const auto path = testing::fresh_temp_dir() / "large.wstrace";
  {
    TraceWriter writer(path, testing::two_gpu_header());
    for (std::uint64_t i = 0; i < 100'000; ++i) {
      const auto device = static_cast<std::uint32_t>(i / 4 % 2);  // copies (i % 4 == 3) on both GPUs
      writer.write(i % 4 == 3 ? testing::copy_event(Memcpy::PTOP, 4096, device, 13, kT0 + i * 1'000, 800)
                              : launch(device, 7, "_Z6kernelPfi", i, kT0 + i * 1'000, 900));
    }
    writer.close();
  }
  std::ostringstream out;
  const TimelineResult result = write_timeline({{"L", path}}, out);
  EXPECT_EQ(result.events, 125'000u);  // each PtoP copy shows on its stream and its link
  // Metadata: per GPU a name and sort index for the process and for each of stream 7, stream 13 and peer.
  EXPECT_EQ(nlohmann::json::parse(out.str())["traceEvents"].size(), 125'000u + 2 * (2 + 3 * 2));
}

}  // namespace
}  // namespace warpsim::report
