// `warpsim sweep`: a grid of platform values over one trace, each point its own `simulate` process; the same grid
// as jobs for bash, GNU parallel or Slurm, merged into the same CSV.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "run_warpsim.h"
#include "sample_trace.h"

namespace warpsim {
namespace {

using testing::CommandResult;
using ::testing::HasSubstr;
using testing::run_warpsim;

// Three DRAM bandwidths times two SM counts over a shipped H100 recording with counters.
std::string grid_sweep(const std::filesystem::path& dir) {
  return "sweep " + testing::shipped_trace("H100-80GB-HBM3/backprop.merged.wstrace") +
         " -p h100-pcie --set gpu.memory.dram_bandwidth_gb_per_s=2000,3352,5000 --set gpu.sm_count=66,132 -o " +
         dir.string();
}

int count_lines(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

TEST(SweepCli, OneRowPerPointAndARerunRecomputesNothing) {
  const auto dir = testing::fresh_temp_dir() / "sweep";
  const CommandResult first = run_warpsim(grid_sweep(dir) + " -j 2");
  ASSERT_EQ(first.exit_status, 0) << first.err;
  const std::string csv = testing::read_file(dir / "sweep.csv");
  EXPECT_EQ(count_lines(csv), 7);
  EXPECT_THAT(csv, HasSubstr("point,gpu.memory.dram_bandwidth_gb_per_s,gpu.sm_count,kernels,"));
  EXPECT_THAT(csv, HasSubstr("\n5,5000,132,6,0,"));
  // The page beside it holds the same points (drawn in a browser by tests/browser/report_page_test.py).
  const std::string page = testing::read_file(dir / "sweep.html");
  EXPECT_THAT(page, HasSubstr("\"axes\":[\"gpu.memory.dram_bandwidth_gb_per_s\",\"gpu.sm_count\"]"));
  EXPECT_THAT(page, HasSubstr("\"values\":[\"5000\",\"132\"]"));
  const CommandResult again = run_warpsim(grid_sweep(dir));
  ASSERT_EQ(again.exit_status, 0) << again.err;
  EXPECT_THAT(again.err, HasSubstr("6 of 6 points already done, not run again"));
  EXPECT_EQ(testing::read_file(dir / "sweep.csv"), csv);
}

TEST(SweepCli, EmittedJobsRunAnywhereMergeToTheSameCsv) {
  const auto root = testing::fresh_temp_dir();
  ASSERT_EQ(run_warpsim(grid_sweep(root / "here")).exit_status, 0);
  const std::string jobs = (root / "jobs.txt").string();
  const CommandResult emitted = run_warpsim(grid_sweep(root / "cluster") + " --emit-jobs " + jobs);
  ASSERT_EQ(emitted.exit_status, 0) << emitted.err;
  EXPECT_EQ(count_lines(testing::read_file(jobs)), 6);
  EXPECT_FALSE(std::filesystem::exists(root / "cluster" / "points" / "00000.json"));  // nothing run yet
  // One runner after another: bash, then GNU parallel where installed (Debian: parallel).
  std::vector<std::string> runners = {"bash " + jobs};
  if (std::system("command -v parallel >/dev/null 2>&1") == 0) runners.push_back("parallel --will-cite < " + jobs);
  for (const std::string& runner : runners) {
    SCOPED_TRACE(runner);
    std::filesystem::remove_all(root / "cluster" / "points");
    std::filesystem::create_directories(root / "cluster" / "points");
    ASSERT_EQ(std::system((runner + " >/dev/null 2>&1").c_str()), 0);
    const CommandResult merged = run_warpsim("sweep --merge " + jobs + " -o " + (root / "merged").string());
    ASSERT_EQ(merged.exit_status, 0) << merged.err;
    EXPECT_EQ(testing::read_file(root / "merged" / "sweep.csv"), testing::read_file(root / "here" / "sweep.csv"));
  }
}

TEST(SweepCli, AFailedPointIsARowWithItsErrorAndTheSweepFails) {
  const auto dir = testing::fresh_temp_dir() / "sweep";
  const CommandResult result = run_warpsim("sweep " + testing::data("sample.wstrace") +
                                           " -p 2xh200-nvlink --set gpu.sm_count=0,66 -o " + dir.string());
  EXPECT_EQ(result.exit_status, 1);
  EXPECT_THAT(result.err, HasSubstr("1 points have no result"));
  const std::string csv = testing::read_file(dir / "sweep.csv");
  EXPECT_THAT(csv, HasSubstr("\n0,0,,,,,\"--set gpu.sm_count=0: gpu0.sm_count: must be > 0, is 0\"\n"));
  EXPECT_THAT(csv, HasSubstr("\n1,66,24,"));
  EXPECT_THAT(testing::read_file(dir / "sweep.html"), HasSubstr("gpu0.sm_count: must be > 0"));
}

TEST(SweepCli, ADirectoryHoldingAnotherSweepIsRefused) {
  const auto dir = testing::fresh_temp_dir() / "sweep";
  const std::string sample = testing::data("sample.wstrace");
  ASSERT_EQ(run_warpsim("sweep " + sample + " -p 2xh200-nvlink --set gpu.sm_count=66 -o " + dir.string()).exit_status,
            0);
  const CommandResult other =
      run_warpsim("sweep " + sample + " -p 2xh200-nvlink --set gpu.sm_count=100 -o " + dir.string());
  EXPECT_EQ(other.exit_status, 1);
  EXPECT_THAT(other.err, HasSubstr("holds another sweep"));
}

TEST(SweepCli, ShowsAProgressBarOnATerminal) {
  if (std::system("command -v script >/dev/null 2>&1") != 0) GTEST_SKIP() << "script(1) (util-linux) is not installed";
  const auto dir = testing::fresh_temp_dir();
  const std::string sweep = std::string(WARPSIM_BINARY) + " sweep " + testing::data("sample.wstrace") +
                            " -p 2xh200-nvlink --set gpu.sm_count=66,100,132 -j 1 -o " + (dir / "s").string();
  const std::string log = (dir / "terminal.log").string();
  ASSERT_EQ(std::system(("script -qec '" + sweep + "' " + log + " >/dev/null 2>&1").c_str()), 0);
  EXPECT_THAT(testing::read_file(log), HasSubstr("sweep: 3 of 3 points, about 0 s left (100%)"));
}

}  // namespace
}  // namespace warpsim
