// `warpsim report` as users run it: a page from one or two traces, one-line errors, inputs never overwritten.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "run_warpsim.h"

namespace warpsim {
namespace {

using ::testing::HasSubstr;
using testing::CommandResult;
using testing::run_warpsim;
using testing::shipped_trace;

TEST(ReportCli, TwoRecordingsOfOneProgramGiveAPageThatNamesBoth) {
  const auto page = testing::fresh_temp_dir() / "r.html";
  const std::string a = shipped_trace("H100-80GB-HBM3/matmul.timeline.wstrace");
  const std::string b = shipped_trace("H100-80GB-HBM3/matmul.merged.wstrace");
  const CommandResult result = run_warpsim("report " + a + " " + b + " -o " + page.string());
  ASSERT_EQ(result.exit_status, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr(page.string()));
  const std::string html = testing::read_file(page);
  EXPECT_THAT(html, HasSubstr("matmul.timeline.wstrace"));
  EXPECT_THAT(html, HasSubstr("matmul.merged.wstrace"));
  EXPECT_THAT(html, HasSubstr("\"matched\":6"));
}

TEST(ReportCli, AMissingTraceIsOneLineAndNoPage) {
  const auto page = testing::fresh_temp_dir() / "r.html";
  const CommandResult result = run_warpsim("report /nonexistent/a.wstrace -o " + page.string());
  EXPECT_EQ(result.exit_status, 1);
  EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
  EXPECT_THAT(result.err, HasSubstr("/nonexistent/a.wstrace"));
  EXPECT_FALSE(std::filesystem::exists(page));
}

TEST(ReportCli, ThePageNeverReplacesATrace) {
  const auto trace = testing::fresh_temp_dir() / "t.wstrace";
  std::filesystem::copy_file(testing::data("sample.wstrace"), trace);
  const std::string before = testing::read_file(trace);
  const CommandResult result = run_warpsim("report " + trace.string() + " -o " + trace.string());
  EXPECT_EQ(result.exit_status, 1);
  EXPECT_EQ(testing::read_file(trace), before);
}

}  // namespace
}  // namespace warpsim
