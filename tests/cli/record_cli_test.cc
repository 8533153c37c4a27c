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

}  // namespace
}  // namespace warpsim
