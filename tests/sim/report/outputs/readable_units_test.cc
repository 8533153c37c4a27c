#include <gtest/gtest.h>

#include "outputs/readable_units.h"

namespace warpsim::report {
namespace {

// The suite keeps the name it had when these helpers lived in summary_text.h.
TEST(TraceSummary, ReadableUnits) {
  EXPECT_EQ(format_duration(999), "999 ns");
  EXPECT_EQ(format_duration(1'500), "1.5 us");
  EXPECT_EQ(format_duration(2'000'000), "2.000 ms");
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(3ull << 20), "3.0 MiB");
}

}  // namespace
}  // namespace warpsim::report
