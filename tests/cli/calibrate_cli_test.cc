// `warpsim calibrate` as users run it: from a folder of recordings (no GPU), and where it cannot run anything.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "run_warpsim.h"
#include "sample_trace.h"

namespace warpsim {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const fs::path kWorkloads = fs::path(WARPSIM_TEST_DATA) / "../../workloads";

fs::path h100_recordings() {
  const fs::path folder = testing::fresh_temp_dir() / "recordings";
  fs::create_directories(folder);
  auto copy = [&](const fs::path& from, const std::string& to) { fs::copy_file(kWorkloads / from, folder / to); };
  copy("microbench_l1/results/H100-80GB-HBM3.txt", "microbench_l1.log");
  copy("traces/H100-80GB-HBM3/microbench_launch.timeline.wstrace", "microbench_launch.wstrace");
  copy("traces/H100-80GB-HBM3/microbench_launch.timeline.log", "microbench_launch.log");
  copy("microbench_copy/results/sweep/H100-80GB-HBM3.1.wstrace", "microbench_copy.wstrace");
  copy("microbench_copy/results/sweep/H100-80GB-HBM3.1.log", "microbench_copy.log");
  copy("microbench_latency/results-H100.txt", "microbench_latency.log");
  copy("microbench_dram_inflight/traces/H100-80GB-HBM3/microbench_dram_inflight.timeline.wstrace",
       "microbench_dram_inflight.wstrace");
  copy("microbench_dram_inflight/traces/H100-80GB-HBM3/microbench_dram_inflight.timeline.log",
       "microbench_dram_inflight.log");
  return folder;
}

TEST(CalibrateCli, FromRecordingsWritesAGpuFileThatSimulatesANode) {
  const fs::path recordings = h100_recordings();
  const fs::path root = recordings.parent_path() / "platforms";
  fs::create_directories(root / "gpus");
  fs::create_directories(root / "nodes");
  const testing::CommandResult result = testing::run_warpsim("calibrate --from " + recordings.string() + " -o " +
                                                             (root / "gpus/mine.textproto").string());
  ASSERT_EQ(result.exit_status, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("the rest from H100-SXM5-80GB"));
  std::ofstream(root / "nodes/mine.textproto")
      << "name: \"mine\"\ngpus { id: 0 gpu: \"H100-80GB-HBM3-calibrated\" pcie { generation: 5 lanes: 16 } }\n"
         "host { memory_bandwidth_gb_per_s: 300 pageable_copy_bandwidth_gb_per_s: 10 }\n";
  const testing::CommandResult simulated =
      testing::run_warpsim("simulate " + testing::shipped_trace("H100-80GB-HBM3/matmul.merged.wstrace") +
                           " --platform " + (root / "nodes/mine.textproto").string());
#ifdef WARPSIM_HAS_REPLAY_TESTS
  EXPECT_EQ(simulated.exit_status, 0) << simulated.err;
#endif
}

TEST(CalibrateCli, RefusesToWriteOverOneOfItsRecordings) {
  const fs::path recordings = h100_recordings();
  const fs::path log = recordings / "microbench_l1.log";
  const std::string before = testing::read_file(log);
  const testing::CommandResult result =
      testing::run_warpsim("calibrate --from " + recordings.string() + " -o " + log.string());
  EXPECT_NE(result.exit_status, 0);
  EXPECT_THAT(result.err, HasSubstr("is one of the recordings it reads"));
  EXPECT_EQ(testing::read_file(log), before);
}

// No GPU here: `record` fails, and the benchmark's log holds what it and `record` printed, both streams in order.
TEST(CalibrateCli, ABenchmarkThatFailsNamesItsLogWhichHoldsItsOutput) {
  const fs::path dir = testing::fresh_temp_dir();
  std::ofstream(dir / "ws_microbench_l1") << "#!/bin/sh\necho out-line\necho err-line >&2\n";
  fs::permissions(dir / "ws_microbench_l1", fs::perms::owner_all);
  const testing::CommandResult result =
      testing::run_warpsim("calibrate --benchmarks " + dir.string() + " --keep " + (dir / "k").string() + " -o " +
                           (dir / "gpu.textproto").string());
  const fs::path log = dir / "k/run1/microbench_l1.log";
  EXPECT_NE(result.exit_status, 0);
  EXPECT_THAT(result.err, HasSubstr("ws_microbench_l1 failed (status "));
  EXPECT_THAT(result.err, HasSubstr("its output is in " + log.string()));
  EXPECT_FALSE(fs::exists(dir / "gpu.textproto"));
  // Built without CUDA, `record` stops before starting the benchmark: its one line is the whole log.
  if (testing::read_file(log).find("cannot find libwarpsim_tracer.so") != std::string::npos)
    GTEST_SKIP() << "built without CUDA";
  EXPECT_THAT(testing::read_file(log), ::testing::StartsWith("out-line\nerr-line\n"));
}

TEST(CalibrateCli, WithoutTheBenchmarksItFailsInOneLineAndWritesNothing) {
  const fs::path dir = testing::fresh_temp_dir();
  const testing::CommandResult result = testing::run_warpsim("calibrate --benchmarks " + (dir / "none").string() +
                                                             " -o " + (dir / "gpu.textproto").string());
  EXPECT_NE(result.exit_status, 0);
  EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
  EXPECT_THAT(result.err, HasSubstr("cannot find ws_microbench_l1"));
  EXPECT_FALSE(fs::exists(dir / "gpu.textproto"));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 0) << "a work folder was left";
}

}  // namespace
}  // namespace warpsim
