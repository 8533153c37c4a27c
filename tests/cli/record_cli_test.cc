// `warpsim record` where it cannot record: this machine and CI have no GPU, so any program leaves no trace.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "run_warpsim.h"
#include "sample_trace.h"

namespace warpsim {
namespace {

using ::testing::AnyOf;
using ::testing::HasSubstr;

// Without a GPU (or without the tracer, where warpsim was built without CUDA) a recording fails in one line and a
// non-zero status: it used to exit 0 having written nothing.
TEST(RecordCli, NoTraceWrittenIsAnErrorNotASilentSuccess) {
  const auto dir = testing::fresh_temp_dir();
  const auto out = dir / "app.wstrace";
  const testing::CommandResult result = testing::run_warpsim("record -o " + out.string() + " -- true");
  EXPECT_NE(result.exit_status, 0);
  EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
  EXPECT_THAT(result.err, AnyOf(HasSubstr("no trace was written to " + out.string()),
                                HasSubstr("cannot find libwarpsim_tracer.so")));
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(RecordCli, AllStopsAtTheFirstPassThatWritesNothingAndMergesNothing) {
  const auto dir = testing::fresh_temp_dir();
  const testing::CommandResult result =
      testing::run_warpsim("record --all -o " + (dir / "app.wstrace").string() + " -- true");
  if (result.err.find("cannot find libwarpsim_tracer.so") != std::string::npos) GTEST_SKIP() << "built without CUDA";
  EXPECT_EQ(result.exit_status, 1);
  EXPECT_THAT(result.err, HasSubstr("pass 1 of 5: timeline mode -> " + (dir / "app.timeline.wstrace").string()));
  EXPECT_THAT(result.err, HasSubstr("pass 1 (timeline) failed; the passes before it are kept, nothing was merged"));
  EXPECT_THAT(result.err, ::testing::Not(HasSubstr("pass 2 of 5")));
  EXPECT_FALSE(std::filesystem::exists(dir / "app.wstrace"));
}

TEST(RecordCli, TheApplicationsOwnFailureStatusIsKept) {
  const auto out = testing::fresh_temp_dir() / "app.wstrace";
  const testing::CommandResult result = testing::run_warpsim("record -o " + out.string() + " -- sh -c 'exit 7'");
  if (result.err.find("cannot find libwarpsim_tracer.so") != std::string::npos) GTEST_SKIP() << "built without CUDA";
  EXPECT_EQ(result.exit_status, 7) << result.err;
}

// What the traced application sees: `env` run as the application, with any regular file as the tracer library (the
// child only has to start; no trace comes of it here).
std::string environment_of_application(const std::string& record_options) {
  const auto dir = testing::fresh_temp_dir();
  const auto library = dir / "libwarpsim_tracer.so";
  testing::write_file(library, "not loaded: sh does not use CUDA");
  const auto env = dir / "env.txt";
  testing::run_warpsim("record " + record_options + " --tracer-lib " + library.string() + " -o " +
                           (dir / "app.wstrace").string() + " -- sh -c 'env > " + env.string() + "'",
                       "unset CUDA_LAUNCH_BLOCKING WARPSIM_TRAFFIC_INTERVAL_NS; ");
  return "\n" + testing::read_file(env);  // every variable between newlines
}

// Traffic mode attributes each PM sample to the one kernel then running: the application's launches are serialized.
TEST(RecordCli, TrafficModeSerializesTheLaunchesAndPassesTheInterval) {
  const std::string traffic = environment_of_application("--mode traffic --traffic-interval-ns 2000");
  EXPECT_THAT(traffic, HasSubstr("\nCUDA_LAUNCH_BLOCKING=1\n"));
  EXPECT_THAT(traffic, HasSubstr("\nWARPSIM_TRACE_MODE=traffic\n"));
  EXPECT_THAT(traffic, HasSubstr("\nWARPSIM_TRAFFIC_INTERVAL_NS=2000\n"));

  const std::string timeline = environment_of_application("--mode timeline");
  EXPECT_THAT(timeline, HasSubstr("\nWARPSIM_TRACE_MODE=timeline\n")) << "the application ran";
  EXPECT_THAT(timeline, ::testing::Not(HasSubstr("CUDA_LAUNCH_BLOCKING")));
  EXPECT_THAT(timeline, ::testing::Not(HasSubstr("WARPSIM_TRAFFIC_INTERVAL_NS"))) << "the tracer's default applies";
}

}  // namespace
}  // namespace warpsim
