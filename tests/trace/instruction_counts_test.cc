// Reading count_inject's instruction counts: the line format, files and directories adding up, and a one-line error
// naming the file and line of anything else.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "instruction_counts.h"
#include "trace_error.h"

namespace warpsim::trace {
namespace {

class InstructionCounts : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("warpsim-counts-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path write(const std::string& name, const std::string& text) {
    const auto path = dir_ / name;
    std::ofstream(path) << text;
    return path;
  }
  std::filesystem::path dir_;
};

TEST_F(InstructionCounts, LinesGiveWarpExecutionsByFunctionAndOffset) {
  const auto path = write("k.txt",
                          "# count_inject, H200\n"
                          "count _Z1kPf 0x0000 264\n"
                          "\n"
                          "count _Z1kPf 0x0010 2640\n"
                          "count _Z1gv 32 7\n");
  const ExecutionsByFunction counts = read_instruction_counts(path);
  ASSERT_EQ(counts.size(), 2u);
  EXPECT_EQ(counts.at("_Z1kPf").at(0x0), 264u);
  EXPECT_EQ(counts.at("_Z1kPf").at(0x10), 2640u);
  EXPECT_EQ(counts.at("_Z1gv").at(32), 7u) << "a decimal offset";
}

TEST_F(InstructionCounts, ADirectoryIsEveryFileInItAndRepeatsAddUp) {
  write("a.txt", "count _Z1kPf 0x10 5\ncount _Z1kPf 0x10 1\n");
  write("b.txt", "count _Z1kPf 0x10 4\ncount _Z1gv 0x0 1\n");
  const ExecutionsByFunction counts = read_instruction_counts(dir_);
  EXPECT_EQ(counts.at("_Z1kPf").at(0x10), 10u);
  EXPECT_EQ(counts.at("_Z1gv").at(0x0), 1u);
}

TEST_F(InstructionCounts, AMalformedLineIsNamedWithItsFileAndLine) {
  for (const std::string bad : {"count _Z1kPf 0x10\n", "count _Z1kPf 0xzz 5\n", "count _Z1kPf 0x10 -5\n",
                                "launch _Z1kPf\n", "count _Z1kPf 0x10 5 extra\n"}) {
    const auto path = write("bad.txt", "count _Z1kPf 0x0 1\n" + bad);
    try {
      read_instruction_counts(path);
      ADD_FAILURE() << "accepted: " << bad;
    } catch (const TraceError& e) {
      EXPECT_EQ(e.file(), path.string());
      EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
    }
  }
}

TEST_F(InstructionCounts, AMissingPathIsRefused) { EXPECT_THROW(read_instruction_counts(dir_ / "absent"), TraceError); }

}  // namespace
}  // namespace warpsim::trace
