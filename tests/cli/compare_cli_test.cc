// `warpsim compare` and `warpsim timeline` as users run them: the binary, real files, exit statuses and stderr.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "full_disk.h"
#include "host_events.h"
#include "json_schema.h"
#include "run_warpsim.h"
#include "sample_trace.h"

namespace warpsim {
namespace {

using ::testing::HasSubstr;

using testing::CommandResult;
using testing::data;
using testing::run_warpsim;
using testing::shipped_trace;

Event launch(std::uint32_t stream, const std::string& name, std::uint64_t correlation, std::uint64_t start_ns,
             std::uint64_t duration_ns) {
  Event event = testing::kernel_event(0, stream, name, start_ns, duration_ns);
  event.mutable_kernel()->set_correlation_id(correlation);
  return event;
}

std::string trace(const std::string& name, const std::vector<Event>& events,
                  CaptureMode mode = CAPTURE_MODE_SYNTHETIC) {
  TraceHeader header = testing::two_gpu_header();
  header.set_mode(mode);
  const auto path = testing::fresh_temp_dir() / name;
  testing::write_trace(path, header, events);
  return path.string();
}

// 100 -> 110 and 200 -> 180: MAPE 10%.
std::pair<std::string, std::string> ten_percent_pair() {
  return {trace("a.wstrace", {launch(7, "_Z4stepv", 1, 1'000, 100), launch(13, "_Z4stepv", 2, 1'000, 200)}),
          trace("b.wstrace", {launch(7, "_Z4stepv", 1, 1'000, 110), launch(13, "_Z4stepv", 2, 1'000, 180)})};
}

void expect_one_line_failure(const CommandResult& result, const std::string& problem) {
  EXPECT_EQ(result.exit_status, 1);
  EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
  EXPECT_THAT(result.err, HasSubstr(problem));
  EXPECT_EQ(result.out, "");
}

std::set<std::string> process_names(const nlohmann::json& timeline) {
  std::set<std::string> names;
  for (const auto& e : timeline["traceEvents"])
    if (e["name"] == "process_name") names.insert(e["args"]["name"].get<std::string>());
  return names;
}

TEST(CompareCli, TextReportsMapeAndTheKernelTable) {
  const auto [a, b] = ten_percent_pair();
  const CommandResult result = run_warpsim("compare " + a + " " + b);
  EXPECT_EQ(result.exit_status, 0) << result.err;
  EXPECT_EQ(result.err, "");
  EXPECT_THAT(result.out, HasSubstr("MAPE         10.00%  (median 10.00%)"));
  EXPECT_THAT(result.out, HasSubstr("step "));
  EXPECT_THAT(result.out, HasSubstr("matched      2 kernels"));
}

// A: cudaLaunchKernel, 10 us of host work, a second launch; the kernels run 5 us (A) or 7 us (B) each.
std::pair<std::string, std::string> host_pair() {
  auto events = [](std::uint64_t kernel_ns) {
    return std::vector<Event>{testing::api_call_event("cudaLaunchKernel_v7000", 4200, 0, 1'000, 1),
                              launch(7, "_Z4stepv", 1, 1'000, kernel_ns),
                              testing::api_call_event("cudaLaunchKernel_v7000", 4200, 11'000, 12'000, 2),
                              launch(7, "_Z4stepv", 2, 12'000, kernel_ns)};
  };
  return {trace("a.wstrace", events(5'000), CAPTURE_MODE_TIMELINE),
          trace("b.wstrace", events(7'000), CAPTURE_MODE_SIMULATED)};
}

TEST(CompareCli, TextStartsWithTheSpanErrorAndWhereItGoes) {
  const auto [a, b] = host_pair();
  const CommandResult result = run_warpsim("compare " + a + " " + b);
  ASSERT_EQ(result.exit_status, 0) << result.err;
  // A: 0 .. 17 us, B: 0 .. 19 us; the second kernel's 2 us make the whole difference.
  EXPECT_EQ(result.out.rfind("span         A 17.0 us  B 19.0 us  B/A 1.118  error +11.8%\n", 0), 0u) << result.out;
  EXPECT_THAT(result.out, HasSubstr("  kernels              10.0 us       14.0 us       +4.0 us\n"));
  EXPECT_LT(result.out.find("span by activity"), result.out.find("\nkernel "));
  EXPECT_THAT(result.out, HasSubstr("MAPE         40.00%"));  // validate.sh reads this line and "kernel time"
}

TEST(CompareCli, JsonMatchesItsSchema) {
  const auto [a, b] = ten_percent_pair();
  const CommandResult result = run_warpsim("compare --json " + a + " " + b);
  ASSERT_EQ(result.exit_status, 0) << result.err;
  const nlohmann::json json = nlohmann::json::parse(result.out);
  testing::expect_matches_schema(json, testing::schema("compare"), "comparison");
  ASSERT_EQ(json["attribution"].size(), 5u);
  EXPECT_EQ(json["attribution"][0]["category"], "kernels");
  EXPECT_EQ(json["attribution"][4]["category"], "idle");
  EXPECT_EQ(json["matched"], 2);
  EXPECT_NEAR(json["mape_pct"].get<double>(), 10.0, 1e-9);
  EXPECT_EQ(json["kernels"][1]["stream"], 13);
  EXPECT_EQ(json["a"]["path"], a);
  EXPECT_EQ(json["b"]["mode"], "synthetic");
}

TEST(CompareCli, DifferentProgramsFailNamingTheFirstDifference) {
  const auto a = trace("a.wstrace", {launch(7, "_Z4stepv", 1, 0, 100), launch(7, "_Z4stepv", 2, 200, 100)});
  const auto renamed = trace("renamed.wstrace", {launch(7, "_Z4stepv", 1, 0, 100), launch(7, "_Z4sumsv", 2, 200, 90)});
  const auto shorter = trace("shorter.wstrace", {launch(7, "_Z4stepv", 1, 0, 100)});
  expect_one_line_failure(run_warpsim("compare " + a + " " + renamed),
                          "traces differ at GPU 0 stream 7 kernel 1: A launched step, B launched sums");
  expect_one_line_failure(run_warpsim("compare --json " + a + " " + shorter),
                          "traces differ at GPU 0 stream 7: A launched 2 kernels, B 1");
}

TEST(CompareCli, CountersModeReferenceIsRejected) {
  const auto counters = trace("counters.wstrace", {launch(7, "k", 1, 0, 0)}, CAPTURE_MODE_COUNTERS);
  const auto [a, b] = ten_percent_pair();
  expect_one_line_failure(run_warpsim("compare " + counters + " " + b), "A has no kernel times");
  expect_one_line_failure(run_warpsim("compare " + a + " /no/such/trace.wstrace"), "no such file");
}

TEST(CompareCli, ShippedRecordingAgreesWithItsMergedCopy) {
  // The merged trace is the timeline trace with counters added: same kernels, same times.
  const CommandResult result = run_warpsim("compare --json " + shipped_trace("H100-80GB-HBM3/matmul.timeline.wstrace") +
                                           " " + shipped_trace("H100-80GB-HBM3/matmul.merged.wstrace"));
  ASSERT_EQ(result.exit_status, 0) << result.err;
  const nlohmann::json json = nlohmann::json::parse(result.out);
  EXPECT_EQ(json["matched"], 6);
  EXPECT_EQ(json["mape_pct"], 0.0);
  EXPECT_EQ(json["kernel_time_ns"]["a"], json["kernel_time_ns"]["b"]);
}

TEST(CompareCli, TimelineShowsBothTracesSideBySide) {
  const auto [a, b] = ten_percent_pair();
  const auto out = testing::fresh_temp_dir() / "both.json";
  const CommandResult result = run_warpsim("compare " + a + " " + b + " --timeline " + out.string());
  ASSERT_EQ(result.exit_status, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("timeline     " + out.string()));
  const nlohmann::json timeline = nlohmann::json::parse(testing::read_file(out));
  EXPECT_EQ(process_names(timeline), (std::set<std::string>{"A: a.wstrace GPU0 NVIDIA H100 80GB HBM3",
                                                            "B: b.wstrace GPU0 NVIDIA H100 80GB HBM3"}));
}

TEST(TimelineCli, ExportsSeveralTraces) {
  const auto [a, b] = ten_percent_pair();
  const auto out = testing::fresh_temp_dir() / "t.json";
  const CommandResult result = run_warpsim("timeline " + a + " " + b + " -o " + out.string());
  ASSERT_EQ(result.exit_status, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("4 events from 2 traces"));
  const nlohmann::json timeline = nlohmann::json::parse(testing::read_file(out));
  EXPECT_EQ(process_names(timeline).size(), 2u);
}

TEST(TimelineCli, ShippedTwoGpuTraceExports) {
  const auto out = testing::fresh_temp_dir() / "stencil.json";
  const CommandResult result =
      run_warpsim("timeline " + shipped_trace("2xH200/stencil3d_dist_z_r4.timeline.wstrace") + " -o " + out.string());
  ASSERT_EQ(result.exit_status, 0) << result.err;
  const nlohmann::json timeline = nlohmann::json::parse(testing::read_file(out));
  std::size_t kernels = 0;
  std::size_t peer = 0;
  for (const auto& e : timeline["traceEvents"]) {
    kernels += e["cat"] == "kernel";
    peer += e["name"] == "Memcpy PtoP 1.0 MiB";
  }
  EXPECT_EQ(kernels, 103u);   // as `warpsim inspect` counts them
  EXPECT_EQ(peer, 2u * 40u);  // on the stream and on the peer link
  // The host (the 2026-11-28 re-recording holds its API calls) and the two GPUs.
  EXPECT_EQ(process_names(timeline),
            (std::set<std::string>{"stencil3d_dist_z_r4.timeline.wstrace host",
                                   "stencil3d_dist_z_r4.timeline.wstrace GPU0 NVIDIA H200",
                                   "stencil3d_dist_z_r4.timeline.wstrace GPU1 NVIDIA H200"}));
}

TEST(TimelineCli, CountsTheFlowArrows) {
  const auto [a, b] = host_pair();
  const auto out = testing::fresh_temp_dir() / "t.json";
  const CommandResult result = run_warpsim("timeline " + a + " -o " + out.string());
  ASSERT_EQ(result.exit_status, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("5 events and 2 flow arrows from 1 trace"));  // 2 calls, 1 host work, 2 kernels
}

TEST(TimelineCli, RefusesToWriteOverItsInputAndLeavesItWhole) {
  const auto dir = testing::fresh_temp_dir();
  const auto trace = dir / "t.wstrace";
  std::filesystem::copy_file(data("sample.wstrace"), trace);
  const std::string before = testing::read_file(trace);
  for (const std::string& command :
       {"timeline " + trace.string() + " -o " + trace.string(),
        "compare " + trace.string() + " " + data("sample.wstrace") + " --timeline " + trace.string()}) {
    const CommandResult result = run_warpsim(command);
    EXPECT_NE(result.exit_status, 0) << command;
    EXPECT_THAT(result.err, HasSubstr("is an input of this command")) << command;
    EXPECT_EQ(testing::read_file(trace), before) << command;
  }
  EXPECT_EQ(testing::files_in(dir), 1u);
}

TEST(TimelineCli, AFullDiskFailsAndLeavesNoFile) {
  const auto dir = testing::fresh_temp_dir();
  const CommandResult result =
      run_warpsim("timeline " + data("sample.wstrace") + " -o " + (dir / "t.json").string(), testing::kFullDisk);
  EXPECT_NE(result.exit_status, 0);
  EXPECT_THAT(result.err, HasSubstr("t.json"));
  EXPECT_EQ(testing::files_in(dir), 0u);
}

TEST(InspectCli, AFailedWriteOfStandardOutputFails) {
  const CommandResult result = run_warpsim("inspect --json " + data("sample.wstrace"), testing::kFullDisk);
  EXPECT_NE(result.exit_status, 0);
  EXPECT_THAT(result.err, HasSubstr("standard output"));
}

TEST(TimelineCli, BadInputFailsCleanly) {
  const auto out = testing::fresh_temp_dir() / "t.json";
  expect_one_line_failure(run_warpsim("timeline /no/such/trace.wstrace -o " + out.string()), "no such file");
  EXPECT_NE(run_warpsim("timeline").exit_status, 0);
}

}  // namespace
}  // namespace warpsim
