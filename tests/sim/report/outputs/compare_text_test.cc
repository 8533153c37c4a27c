#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compare_pairs.h"
#include "outputs/compare_text.h"

namespace warpsim::report {
namespace {

using testing::hand_made;
using ::testing::HasSubstr;
using testing::host_gap_pair;

TEST(Compare, TextListsTopNamesAndTotals) {
  const std::string text = comparison_to_text(hand_made(CAPTURE_MODE_SIMULATED), 1);
  EXPECT_THAT(text, HasSubstr("sums"));
  EXPECT_THAT(text, ::testing::Not(HasSubstr("step ")));
  EXPECT_THAT(text, HasSubstr("(1 more kernel names"));
  EXPECT_THAT(text, HasSubstr("matched      3 kernels\n"));
  EXPECT_THAT(text, HasSubstr("MAPE         6.67%  (median 10.00%)"));
  EXPECT_THAT(text, HasSubstr("kernel time  A 700 ns  B 690 ns  B/A 0.986"));
  EXPECT_THAT(text, HasSubstr("simulated trace"));
}

TEST(Compare, TextStartsWithTheSpanThenItsAttribution) {
  const std::string text = comparison_to_text(host_gap_pair());
  EXPECT_EQ(text.rfind("span         A 17.0 us  B 19.0 us  B/A 1.118  error +11.8%\n", 0), 0u) << text;
  const std::size_t table = text.find("span by activity");
  const std::size_t kernels = text.find("  kernels               5.0 us        7.0 us       +2.0 us\n");
  const std::size_t host = text.find("  host                 10.0 us       10.0 us          0 ns\n");
  const std::size_t kernel_table = text.find("\nkernel ");
  EXPECT_LT(table, kernels) << text;
  EXPECT_LT(kernels, host) << text;
  EXPECT_LT(host, kernel_table) << text;
  EXPECT_NE(kernel_table, std::string::npos) << text;
  EXPECT_THAT(text, ::testing::Not(HasSubstr("no API calls")));
}

TEST(Compare, WithoutApiCallsTheAttributionSaysSo) {
  const Comparison c = hand_made();
  EXPECT_EQ(c.attribution[2].a_ns + c.attribution[3].a_ns + c.attribution[2].b_ns + c.attribution[3].b_ns, 0u);
  EXPECT_EQ(c.attribution[4].a_ns, 1'400u - 600u);  // idle: between the kernels
  EXPECT_THAT(comparison_to_text(c), HasSubstr("(no API calls in either trace: api and host are 0"));
}

}  // namespace
}  // namespace warpsim::report
