#pragma once
/// @brief Where a trace's span goes: its time from the first start to the last end, split into disjoint categories.
///
/// A sweep over time gives every instant of the span to one category, the first that applies:
///   kernels  some kernel runs
///   copies   a copy or memset runs (no kernel)
///   api      no GPU work; some host thread is inside a CUDA API call
///   host     no GPU work, no API call, but a host thread is between two of its calls (host computation)
///   idle     none of these (only traces without API calls have idle time between GPU operations)
/// The categories add up to the span, so for two traces of one program the per-category differences add up to the
/// difference of the spans: which part of the program a simulation got wrong. Traces without API calls (recorded
/// before the tracer recorded them) have no api or host time: their gaps between GPU operations are idle.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/host_calls.h"
#include "trace.pb.h"

namespace warpsim::report {

enum class SpanCategory : std::uint8_t { kKernels, kCopies, kApi, kHost, kIdle };
inline constexpr std::size_t kSpanCategories = 5;

/// "kernels", "copies", "api", "host", "idle".
const char* span_category_name(SpanCategory category);

struct SpanAttribution {
  std::uint64_t span_ns = 0;                        ///< last end - first start of GPU operations and API calls
  std::array<std::uint64_t, kSpanCategories> ns{};  ///< by SpanCategory; adds up to span_ns
  std::uint64_t api_calls = 0;
  std::uint64_t at(SpanCategory category) const { return ns[static_cast<std::size_t>(category)]; }
};

/// Collects a trace's kernels, copies, memsets and API calls while the reader streams it, then splits its span.
/// Events without an end time (counters-mode kernels) are left out, as from compare's span. Memory: a few words per
/// collected event.
class SpanAttributor {
 public:
  void add(const Event& event);
  SpanAttribution finish() const;

 private:
  struct Interval {
    std::uint64_t start_ns;
    std::uint64_t end_ns;
    SpanCategory category;
  };
  void add_interval(std::uint64_t start_ns, std::uint64_t end_ns, SpanCategory category);

  std::vector<Interval> intervals_;
  std::vector<HostCall> calls_;
};

/// One category of two traces: A, B and B - A.
struct CategoryDiff {
  std::string category;
  std::uint64_t a_ns = 0;
  std::uint64_t b_ns = 0;
  std::int64_t diff_ns = 0;
};

/// Every category in SpanCategory order; the diffs add up to b.span_ns - a.span_ns.
std::vector<CategoryDiff> attribution_diff(const SpanAttribution& a, const SpanAttribution& b);

}  // namespace warpsim::report
