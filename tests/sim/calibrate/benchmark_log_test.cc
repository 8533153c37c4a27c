#include "benchmark_log.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace warpsim::calibrate {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

BenchmarkLog log_of(std::vector<std::vector<std::string>> lines) { return BenchmarkLog("bench.log", std::move(lines)); }

TEST(BenchmarkLog, NumbersComeFromEveryLineWithThePrefix) {
  const BenchmarkLog log = log_of({{"device", "NVIDIA", "H200", "sms", "132"},
                                   {"l1", "l2_ld_cg", "16", "9821.0", "37.6"},
                                   {"l1", "global_ld", "16", "32841.9", "125.66"},
                                   {"l1", "l2_ld_cg", "16", "10168.0", "38.9"}});
  EXPECT_THAT(log.numbers({"l1", "l2_ld_cg", "16"}, 3), ElementsAre(9821.0, 10168.0));
  EXPECT_EQ(log.device_name(), "NVIDIA H200");
}

TEST(BenchmarkLog, AMissingLineOrAWordThatIsNoNumberIsNamed) {
  const BenchmarkLog log = log_of({{"latency", "unloaded", "dram", "268435456", "n/a"}});
  try {
    log.numbers({"latency", "unloaded", "l2"}, 4);
    FAIL() << "no line has the prefix";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("bench.log: no line starts with 'latency unloaded l2'"));
  }
  try {
    log.numbers({"latency", "unloaded", "dram"}, 4);
    FAIL() << "word 5 is not a number";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("word 5 is not a number"));
  }
}

TEST(BenchmarkLog, AnUnreadableFileIsNamed) {
  EXPECT_THROW(BenchmarkLog::read("/nonexistent/microbench_l1.log"), std::runtime_error);
}

}  // namespace
}  // namespace warpsim::calibrate
