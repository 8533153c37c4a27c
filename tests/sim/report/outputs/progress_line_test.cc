// The progress line: nothing unless enabled, rewritten in place, erased at the end.
#include "outputs/progress_line.h"

#include <gtest/gtest.h>

#include <sstream>

namespace warpsim::report {
namespace {

TEST(ProgressLine, SaysNothingWhenNotOnATerminal) {
  std::ostringstream out;
  {
    ProgressLine progress(out, false);
    progress.update("replaying", "operations", 5, 10);
  }
  EXPECT_EQ(out.str(), "");
}

TEST(ProgressLine, RewritesOneLineInPlaceAndErasesItAtTheEnd) {
  std::ostringstream out;
  {
    ProgressLine progress(out, true, std::chrono::milliseconds(0));
    progress.update("reading", "events", 1234567, 0);
    progress.update("replaying", "operations", 450000, 1000000);
  }
  EXPECT_EQ(out.str(),
            "\r\033[Kreading: 1,234,567 events"
            "\r\033[Kreplaying: 450,000 of 1,000,000 operations (45%)"
            "\r\033[K");
}

TEST(ProgressLine, WithinAnIntervalOnlyANewPhaseIsShown) {
  std::ostringstream out;
  ProgressLine progress(out, true, std::chrono::hours(1));
  progress.update("reading", "events", 1, 0);
  progress.update("reading", "events", 2, 0);  // too soon
  progress.update("writing", "events", 2, 3);
  progress.update("writing", "events", 2, 3);  // too soon
  progress.update("writing", "events", 3, 3);  // the last step
  EXPECT_EQ(out.str(),
            "\r\033[Kreading: 1 events\r\033[Kwriting: 2 of 3 events (66%)\r\033[Kwriting: 3 of 3 events (100%)");
}

}  // namespace
}  // namespace warpsim::report
