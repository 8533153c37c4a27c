// The models' shared numeric helpers.
#include "numeric.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace warpsim::models {
namespace {

TEST(Numeric, AsDoubleConvertsACounter) {
  EXPECT_EQ(as_double(0), 0.0);
  EXPECT_EQ(as_double(uint64_t{1} << 40), 1099511627776.0);
}

TEST(Numeric, RatioOrZeroIsZeroWithoutADivisor) {
  EXPECT_DOUBLE_EQ(ratio_or_zero(6, 4), 1.5);
  EXPECT_EQ(ratio_or_zero(6, 0), 0);
  EXPECT_EQ(ratio_or_zero(6, -1), 0);
}

TEST(Numeric, MedianOfOddAndEvenCounts) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median({7}), 7);
}

}  // namespace
}  // namespace warpsim::models
