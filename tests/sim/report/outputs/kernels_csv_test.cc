#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "outputs/kernels_csv.h"
#include "report_test_traces.h"

namespace warpsim::report {
namespace {

using testing::launch;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(KernelsCsv, QuotesFieldsThatNeedIt) {
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field("f(int, float)"), "\"f(int, float)\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
}

TEST(KernelsCsv, OneRowPerKernelWithCountersWhenPresent) {
  Event counted = launch(1, 13, "_Z4stepPKfPfi", 8, 2'000, 300);
  *counted.mutable_kernel()->mutable_counters() = testing::sample_counters(1 << 20);
  counted.mutable_kernel()->set_dynamic_shared_memory_bytes(1024);
  const auto path = testing::trace_file(
      "k.wstrace", {launch(0, 7, "plain", 5, 1'000, 100), testing::copy_event(Memcpy::HTOD, 8, 0, 7, 0, 10), counted});
  std::ostringstream out;
  const KernelsCsvResult result = write_kernels_csv(path, out);
  EXPECT_EQ(result.rows, 2u);
  const std::vector<std::string> lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0],
            "device,stream,correlation_id,name,demangled,grid_x,grid_y,grid_z,block_x,block_y,block_z,registers,"
            "shared_bytes,start_ns,end_ns,duration_ns,inst_executed,dram_bytes,l2_bytes");
  EXPECT_EQ(lines[1], "0,7,5,plain,plain,108,1,1,256,1,1,32,4096,1000,1100,100,,,");
  const std::uint64_t loads = (1 << 20) / 128;
  EXPECT_EQ(lines[2],
            "1,13,8,_Z4stepPKfPfi,\"step(float const*, float*, int)\",108,1,1,256,1,1,32,5120,2000,2300,300," +
                std::to_string(loads * 16) + "," + std::to_string((1 << 20) + (1 << 19)) + "," +
                std::to_string((1 << 20) * 3 / 2));
}

}  // namespace
}  // namespace warpsim::report
