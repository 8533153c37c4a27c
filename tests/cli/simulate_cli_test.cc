// `warpsim simulate` as users run it: each run is its own process, as SimGrid needs.
#include <sys/stat.h>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "full_disk.h"
#include "json_schema.h"
#include "read_all.h"
#include "run_warpsim.h"
#include "sample_trace.h"
#include "trace_reader.h"

namespace warpsim {
namespace {

using ::testing::HasSubstr;

using testing::CommandResult;
using testing::data;
using testing::run_warpsim;
using testing::shipped_trace;

std::vector<std::uint64_t> kernel_durations(const std::filesystem::path& trace) {
  std::vector<std::uint64_t> durations;
  for (const Event& event : testing::read_all(testing::read_file(trace)).events) {
    if (event.has_kernel()) durations.push_back(event.kernel().end_ns() - event.kernel().start_ns());
  }
  return durations;
}

TEST(SimulateCli, SimulatesTheSampleOnTwoNvlinkedH200) {
  const auto out = testing::fresh_temp_dir() / "sim.wstrace";
  const CommandResult result =
      run_warpsim("simulate " + data("sample.wstrace") + " --platform 2xh200-nvlink -o " + out.string());
  ASSERT_EQ(result.exit_status, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("with wave-blocks"));
  TraceReader reader(out);
  EXPECT_EQ(reader.header().mode(), CAPTURE_MODE_SIMULATED);
  EXPECT_EQ(reader.header().simulation().model(), "wave-blocks");
  EXPECT_FALSE(reader.header().simulation().reuses_recorded_kernel_times());
  // The sample has no API calls (like traces recorded before the tracer kept them): it says host time is unknown.
  EXPECT_THAT(result.err, HasSubstr("host time is unknown"));
  EXPECT_FALSE(reader.header().simulation().host_time_recorded());
  const auto durations = kernel_durations(out);
  EXPECT_EQ(durations.size(), kernel_durations(data("sample.wstrace")).size());
  for (std::uint64_t d : durations) EXPECT_GT(d, 0u);
}

TEST(SimulateCli, JsonHasEveryNumberOfTheTextAndMatchesItsSchema) {
  const auto dir = testing::fresh_temp_dir();
  const std::string common =
      "simulate " + data("sample.wstrace") + " --platform 2xh200-nvlink --csv " + (dir / "k.csv").string();
  const CommandResult json_run = run_warpsim(common + " --json");
  ASSERT_EQ(json_run.exit_status, 0) << json_run.err;
  const nlohmann::json summary = nlohmann::json::parse(json_run.out);
  testing::expect_matches_schema(summary, testing::schema("simulate"), "summary");
  const CommandResult text = run_warpsim(common);
  ASSERT_EQ(text.exit_status, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr(fmt::format("kernels {}, counters borrowed {}, without counters {}",
                                              summary["kernels"].get<int>(), summary["counters_borrowed"].get<int>(),
                                              summary["kernels_without_counters"].get<int>())));
  EXPECT_THAT(text.out, HasSubstr(fmt::format("kernel time: simulated {:.3f} ms, recorded {:.3f} ms",
                                              summary["kernel_time_s"]["simulated"].get<double>() * 1e3,
                                              summary["kernel_time_s"]["recorded"].get<double>() * 1e3)));
  EXPECT_THAT(text.out, HasSubstr(fmt::format("simulated: {:.3f} ms", summary["span_s"].get<double>() * 1e3)));
  EXPECT_EQ(summary["outputs"]["csv"], (dir / "k.csv").string());
  EXPECT_TRUE(summary["outputs"]["trace"].is_null());
  EXPECT_EQ(json_run.err, text.err);  // the same warnings either way
}

// Progress goes to a terminal only: run under script(1), stderr is one; through a pipe it is not.
TEST(SimulateCli, ShowsProgressOnATerminalAndNowhereElse) {
  if (std::system("command -v script >/dev/null 2>&1") != 0) GTEST_SKIP() << "script(1) (util-linux) is not installed";
  const auto dir = testing::fresh_temp_dir();
  const std::string simulate = std::string(WARPSIM_BINARY) + " simulate " + data("sample.wstrace") +
                               " --platform 2xh200-nvlink --timeline " + (dir / "t.json").string();
  const CommandResult piped = run_warpsim("simulate " + data("sample.wstrace") +
                                          " --platform 2xh200-nvlink --timeline " + (dir / "u.json").string());
  ASSERT_EQ(piped.exit_status, 0) << piped.err;
  EXPECT_EQ(piped.err.find('\r'), std::string::npos);
  const std::string log = (dir / "terminal.log").string();
  ASSERT_EQ(std::system(("script -qec '" + simulate + "' " + log + " >/dev/null 2>&1").c_str()), 0);
  const std::string terminal = testing::read_file(log);
  EXPECT_THAT(terminal, HasSubstr("\r\033[Kreading: 0 events"));
  EXPECT_THAT(terminal, HasSubstr("\r\033[Kwriting: 0 of"));
  EXPECT_THAT(terminal, HasSubstr("\r\033[Kwarning: "));  // erased before the first line after it
}

TEST(SimulateCli, RefusesToWriteOverItsInputsOrOneOutputTwice) {
  const auto dir = testing::fresh_temp_dir();
  const auto trace = dir / "t.wstrace";
  std::filesystem::copy_file(data("sample.wstrace"), trace);
  const std::string before = testing::read_file(trace);
  const std::string simulate = "simulate " + trace.string() + " -p 2xh200-nvlink ";
  for (const std::string& outputs :
       {"-o " + trace.string(), "--timeline " + trace.string(), "--csv " + trace.string()}) {
    const CommandResult result = run_warpsim(simulate + outputs);
    EXPECT_NE(result.exit_status, 0) << outputs;
    EXPECT_THAT(result.err, HasSubstr("is an input of this command")) << outputs;
    EXPECT_EQ(testing::read_file(trace), before) << outputs;
  }
  const std::string both = (dir / "k.csv").string();
  const CommandResult twice = run_warpsim(simulate + "--csv " + both + " --timeline " + both);
  EXPECT_NE(twice.exit_status, 0);
  EXPECT_THAT(twice.err, HasSubstr("two outputs"));
  EXPECT_EQ(testing::files_in(dir), 1u);
}

TEST(SimulateCli, ADirectoryAsOutputIsRefusedAndNothingIsLeftBesideIt) {
  const auto dir = testing::fresh_temp_dir();
  std::filesystem::create_directory(dir / "out");
  const CommandResult result =
      run_warpsim("simulate " + data("sample.wstrace") + " -p 2xh200-nvlink -o " + (dir / "out").string());
  EXPECT_NE(result.exit_status, 0);
  EXPECT_THAT(result.err, HasSubstr("is a directory"));
  EXPECT_EQ(testing::files_in(dir), 1u);  // no out.partial
  EXPECT_EQ(testing::files_in(dir / "out"), 0u);
}

TEST(SimulateCli, ExportsLeaveNothingButThemselves) {
  // The simulated trace behind --csv and --timeline is a scratch file beside them (no shared /tmp file), removed.
  const auto dir = testing::fresh_temp_dir();
  const CommandResult result = run_warpsim("simulate " + data("sample.wstrace") + " -p 2xh200-nvlink --csv " +
                                           (dir / "k.csv").string() + " --timeline " + (dir / "t.json").string());
  ASSERT_EQ(result.exit_status, 0) << result.err;
  EXPECT_EQ(testing::files_in(dir), 2u);
}

// The timeline names the simulation by the recording and the platform, not by the scratch trace behind it.
TEST(SimulateCli, TimelineNamesTheSimulationByTheRecordingAndPlatform) {
  const auto dir = testing::fresh_temp_dir();
  const CommandResult result =
      run_warpsim("simulate " + data("sample.wstrace") + " -p 2xh200-nvlink --timeline " + (dir / "t.json").string());
  ASSERT_EQ(result.exit_status, 0) << result.err;
  const nlohmann::json timeline = nlohmann::json::parse(testing::read_file(dir / "t.json"));
  std::size_t simulated = 0;
  for (const auto& e : timeline["traceEvents"]) {
    if (e["name"] != "process_name") continue;
    const std::string name = e["args"]["name"].get<std::string>();
    EXPECT_EQ(name.find(".simulated-"), std::string::npos) << name;
    simulated += name.starts_with("simulated: sample.wstrace on 2xh200-nvlink ");
  }
  EXPECT_GT(simulated, 0u);
}

// The recording's half of the timeline is written while the replay runs: the same slices as the timeline command
// writes of the recording and the simulated trace afterwards.
TEST(SimulateCli, TimelineHoldsTheSlicesOfTheTimelineCommand) {
  const auto dir = testing::fresh_temp_dir();
  const std::string simulated = (dir / "s.wstrace").string();
  const CommandResult simulate = run_warpsim("simulate " + data("sample.wstrace") + " -p 2xh200-nvlink -o " +
                                             simulated + " --timeline " + (dir / "a.json").string());
  ASSERT_EQ(simulate.exit_status, 0) << simulate.err;
  const CommandResult timeline =
      run_warpsim("timeline " + data("sample.wstrace") + " " + simulated + " -o " + (dir / "b.json").string());
  ASSERT_EQ(timeline.exit_status, 0) << timeline.err;
  const auto slices = [](const std::filesystem::path& path) {
    std::multiset<std::string> kept;
    const nlohmann::json parsed = nlohmann::json::parse(testing::read_file(path));
    for (const auto& e : parsed["traceEvents"])
      if (e["ph"] != "M") kept.insert(e.dump());
    return kept;
  };
  const std::multiset<std::string> during_replay = slices(dir / "a.json");
  EXPECT_GT(during_replay.size(), 10u);
  EXPECT_EQ(during_replay, slices(dir / "b.json"));
}

// A simulation that fails once the timeline has begun leaves neither the timeline nor its temporary file.
TEST(SimulateCli, AFailedSimulationLeavesNoTimeline) {
  const auto dir = testing::fresh_temp_dir();
  const CommandResult result =  // a two-GPU recording on a one-GPU node
      run_warpsim("simulate " + data("sample.wstrace") + " -p h200 --timeline " + (dir / "t.json").string());
  EXPECT_NE(result.exit_status, 0);
  EXPECT_THAT(result.err, HasSubstr("GPU(s)"));
  EXPECT_EQ(testing::files_in(dir), 0u);
}

TEST(SimulateCli, AFullDiskFailsAndKeepsTheOldOutput) {
  const auto dir = testing::fresh_temp_dir();
  const auto csv = dir / "k.csv";
  testing::write_file(csv, "an older result");
  const CommandResult result =
      run_warpsim("simulate " + data("sample.wstrace") + " -p 2xh200-nvlink --csv " + csv.string(), testing::kFullDisk);
  EXPECT_NE(result.exit_status, 0);
  EXPECT_EQ(testing::read_file(csv), "an older result");
  EXPECT_EQ(testing::files_in(dir), 1u);
}

TEST(SimulateCli, PlatformValuesBeyondPhysicalRangesAreRefusedNotAborted) {
  // Each of these made SimGrid abort (exit 134) or gave an INT64_MAX-ns kernel.
  for (const std::string assignment : {"gpu.sm_count=3000000000", "gpu.memory.dram_bandwidth_gb_per_s=1e308",
                                       "gpu.memory.dram_bandwidth_gb_per_s=5e-324", "gpu.sm.latency_cycles.dram=1e30",
                                       "gpu.sm.latency_cycles.dram=1e-300"}) {
    const CommandResult result =
        run_warpsim("simulate " + data("sample.wstrace") + " -p 2xh200-nvlink --set " + assignment);
    EXPECT_EQ(result.exit_status, 1) << assignment;
    EXPECT_THAT(result.err, HasSubstr("must be between")) << assignment;
    EXPECT_THAT(result.err, HasSubstr(assignment.substr(4, assignment.find('=') - 4))) << assignment;
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
  }
}

TEST(SimulateCli, AFifoAsPlatformIsRefusedAtOnce) {
  const auto fifo = testing::fresh_temp_dir() / "node.textproto";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const CommandResult result =
      run_warpsim("simulate " + data("sample.wstrace") + " -p " + fifo.string(), "timeout 20 ");
  EXPECT_EQ(result.exit_status, 1);  // timeout's 124 when it waits for a writer
  EXPECT_THAT(result.err, HasSubstr("is not a regular file"));
}

TEST(SimulateCli, SameInputsGiveByteIdenticalOutputs) {
  const auto dir = testing::fresh_temp_dir();
  for (const char* name : {"a.wstrace", "b.wstrace"}) {
    ASSERT_EQ(
        run_warpsim("simulate " + data("sample.wstrace") + " -p 2xh200-nvlink -o " + (dir / name).string()).exit_status,
        0);
  }
  EXPECT_EQ(testing::read_file(dir / "a.wstrace"), testing::read_file(dir / "b.wstrace"));
}

// The predictive rule: a model never sees a kernel's recorded duration, so changing every recorded kernel time
// (order kept) changes no prediction.
TEST(SimulateCli, RecordedKernelTimesDoNotChangePredictions) {
  const auto dir = testing::fresh_temp_dir();
  std::vector<Event> events = testing::sample_events();
  testing::write_trace(dir / "original.wstrace", testing::two_gpu_header(), events);
  for (Event& event : events) {
    if (!event.has_kernel()) continue;
    KernelLaunch& k = *event.mutable_kernel();
    k.set_end_ns(k.start_ns() + 3 * (k.end_ns() - k.start_ns()) + 12'345);
  }
  testing::write_trace(dir / "retimed.wstrace", testing::two_gpu_header(), events);
  for (const char* name : {"original", "retimed"}) {
    const std::string in = (dir / (std::string(name) + ".wstrace")).string();
    const std::string out = (dir / (std::string(name) + ".sim.wstrace")).string();
    ASSERT_EQ(run_warpsim("simulate " + in + " -p 2xh200-nvlink -o " + out).exit_status, 0);
  }
  EXPECT_EQ(kernel_durations(dir / "original.sim.wstrace"), kernel_durations(dir / "retimed.sim.wstrace"));
  // ...while the topology-study mode does read them, and says so.
  const auto study = dir / "study.wstrace";
  const CommandResult result = run_warpsim("simulate " + (dir / "retimed.wstrace").string() +
                                           " -p 2xh200-nvlink --reuse-kernel-times -o " + study.string());
  ASSERT_EQ(result.exit_status, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("NOT predictive"));
  EXPECT_TRUE(TraceReader(study).header().simulation().reuses_recorded_kernel_times());
  EXPECT_NE(kernel_durations(study), kernel_durations(dir / "original.sim.wstrace"));
}

TEST(SimulateCli, UnknownPlatformFailsInOneLineAndKeepsTheOldOutput) {
  const auto out = testing::fresh_temp_dir() / "sim.wstrace";
  testing::write_file(out, "precious");
  const CommandResult result =
      run_warpsim("simulate " + data("sample.wstrace") + " -p no-such-node -o " + out.string());
  EXPECT_EQ(result.exit_status, 1);
  EXPECT_THAT(result.err, HasSubstr("no-such-node"));
  EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
  EXPECT_EQ(testing::read_file(out), "precious");
}

TEST(SimulateCli, ATraceWithMoreGpusThanTheNodeIsRefused) {
  const CommandResult result = run_warpsim("simulate " + data("sample.wstrace") + " -p h100-pcie");
  EXPECT_EQ(result.exit_status, 1);
  EXPECT_THAT(result.err, HasSubstr("uses device 1"));
}

TEST(SimulateCli, UnknownModelIsNamed) {
  const CommandResult result = run_warpsim("simulate " + data("sample.wstrace") + " -p 2xh200-nvlink --model nope");
  EXPECT_EQ(result.exit_status, 1);
  EXPECT_THAT(result.err, HasSubstr("unknown model 'nope'"));
}

// A counters-mode recording has counters but no real timeline: kernels were replayed one by one, no host side.
TEST(SimulateCli, ACountersOnlyTraceIsSimulatedWithAWarningThatItHasNoTimeline) {
  const std::string trace = shipped_trace("H100-80GB-HBM3/backprop.counters.wstrace");
  const CommandResult result = run_warpsim("simulate " + trace + " -p h100-pcie");
  EXPECT_EQ(result.exit_status, 0) << result.err;
  EXPECT_THAT(result.err, HasSubstr(trace + " is a counters-mode recording"));
  const CommandResult merged =
      run_warpsim("simulate " + shipped_trace("H100-80GB-HBM3/backprop.merged.wstrace") + " -p h100-pcie");
  EXPECT_THAT(merged.err, ::testing::Not(HasSubstr("counters-mode recording")));
}

// A timeline-only recording has no counters: its kernel times would be guesses. Refused unless asked for.
TEST(SimulateCli, ATraceWithoutAnyCountersIsRefusedUnlessEstimatesAreAllowed) {
  const std::string trace = data("real/h100-matmul.timeline.wstrace");
  const CommandResult refused = run_warpsim("simulate " + trace + " -p h100-pcie");
  EXPECT_EQ(refused.exit_status, 1);
  EXPECT_EQ(refused.out, "");
  EXPECT_THAT(refused.err, HasSubstr(trace + ": none of its 6 kernels has counters"));
  EXPECT_THAT(refused.err, HasSubstr("--allow-estimates"));
  for (const char* node : {"h100-pcie", "h200"}) {
    const CommandResult result = run_warpsim("simulate " + trace + " --allow-estimates -p " + node);
    EXPECT_EQ(result.exit_status, 0) << node << ": " << result.err;
    EXPECT_THAT(result.out, HasSubstr("kernels 6, counters borrowed 0, without counters 6"));
    EXPECT_THAT(result.err, HasSubstr("6 of 6 kernels have no counters (e.g. (anonymous namespace)::matmul_naive("));
  }
}

TEST(SimulateCli, AShippedTraceWithApiCallsReplaysItsHostAndLastsAsLongAsRecorded) {
  const auto out = testing::fresh_temp_dir() / "sim.wstrace";
  const std::string real = shipped_trace("H100-80GB-HBM3/matmul.timeline.wstrace");
  const CommandResult result =
      run_warpsim("simulate " + real + " -p h100-pcie --reuse-kernel-times --host-scale 1 -o " + out.string());
  ASSERT_EQ(result.exit_status, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("host: 1 thread(s)"));
  EXPECT_THAT(result.err, ::testing::Not(HasSubstr("host time is unknown")));
  const CommandResult compared = run_warpsim("compare --json " + real + " " + out.string());
  ASSERT_EQ(compared.exit_status, 0) << compared.err;
  const double span_error = nlohmann::json::parse(compared.out).at("span_error_pct").get<double>();
  EXPECT_LT(std::abs(span_error), 5.0);  // 0.2 of the recorded span before the host was replayed
}

TEST(ScaleCli, AShippedPairScaledToFourGpusReplaysOnAFourGpuNodeAndKeepsItsInput) {
  const auto dir = testing::fresh_temp_dir();
  const std::string input = shipped_trace("2xH100-80GB-HBM3/convolution_5x5_2gpu.merged.wstrace");
  const std::string scaled = (dir / "four.wstrace").string();
  const CommandResult refused = run_warpsim("scale " + input + " --gpus 4 -o " + input);
  EXPECT_EQ(refused.exit_status, 1);
  EXPECT_THAT(refused.err, HasSubstr("the output is the input trace"));
  const CommandResult scale = run_warpsim("scale " + input + " --gpus 4 -o " + scaled);
  ASSERT_EQ(scale.exit_status, 0) << scale.err;
  EXPECT_THAT(scale.out, HasSubstr("2 copies of the recorded pair"));
  const CommandResult simulate = run_warpsim("simulate " + scaled + " -p 4xh100-nvswitch");
  EXPECT_EQ(simulate.exit_status, 0) << simulate.err;
  EXPECT_THAT(simulate.out, HasSubstr("kernels 20,"));  // 10 recorded kernels, twice
}

}  // namespace
}  // namespace warpsim
