#pragma once
// The summary of a few events, for the inspect summary's tests (analysis/) and those of its JSON and text (outputs/).
#include <cstddef>
#include <vector>

#include "analysis/trace_summary.h"
#include "read_all.h"
#include "sample_trace.h"

namespace warpsim::testing {

inline report::TraceSummary summarize_events(const std::vector<Event>& events, std::size_t top = 10) {
  TraceReader reader = memory_reader(trace_bytes(two_gpu_header(), events));
  return report::summarize(reader, top);
}

}  // namespace warpsim::testing
