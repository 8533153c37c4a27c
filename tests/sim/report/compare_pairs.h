#pragma once
// The trace pairs that the compare tests (analysis/) and the tests of its JSON and text (outputs/) share.
#include "analysis/compare.h"
#include "report_test_traces.h"

namespace warpsim::testing {

// Durations 100 -> 110 (+10%) and 200 -> 180 (-10%) on two streams, and 400 -> 400 (0%) of another name.
inline report::Comparison hand_made(CaptureMode b_mode = CAPTURE_MODE_SYNTHETIC) {
  const auto a =
      trace_file("a.wstrace", {launch(0, 7, "_Z4stepv", 1, 1'000, 100), launch(0, 13, "_Z4stepv", 2, 1'000, 200),
                               launch(0, 7, "_Z4sumsv", 3, 2'000, 400)});
  const auto b = trace_file("b.wstrace",
                            {launch(0, 7, "_Z4stepv", 1, 5'000, 110), launch(0, 13, "_Z4stepv", 2, 5'000, 180),
                             launch(0, 7, "_Z4sumsv", 3, 6'000, 400)},
                            b_mode);
  return report::compare_traces(a, b);
}

// A: 10 us of host work, then a 5 us kernel; B: the same with a 7 us kernel. The whole span error is the kernel's.
inline report::Comparison host_gap_pair() {
  return report::compare_traces(trace_file("a.wstrace", host_gap_then_kernel(5'000), CAPTURE_MODE_TIMELINE),
                                trace_file("b.wstrace", host_gap_then_kernel(7'000), CAPTURE_MODE_SIMULATED));
}

}  // namespace warpsim::testing
