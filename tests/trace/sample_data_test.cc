// The traces committed in tests/data/ are exactly what tests/tools/make_sample_trace writes.
#include <gtest/gtest.h>

#include <cstdlib>

#include "sample_trace.h"

namespace warpsim {
namespace {

TEST(SampleData, CommittedSamplesMatchTheirGenerator) {
  const auto dir = testing::fresh_temp_dir();
  const std::string command = std::string(MAKE_SAMPLE_TRACE) + " " + dir.string();
  ASSERT_EQ(std::system(command.c_str()), 0);
  for (const char* name : {"sample.wstrace", "sample-truncated.wstrace"}) {
    EXPECT_EQ(testing::read_file(dir / name), testing::read_file(std::string(WARPSIM_TEST_DATA) + "/" + name))
        << name << " is stale: run make_sample_trace tests/data";
  }
}

}  // namespace
}  // namespace warpsim
