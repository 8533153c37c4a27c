#include "analysis/span_attribution.h"

#include <algorithm>

namespace warpsim::report {
namespace {

// A start (+1) or end (-1) of an interval of one category.
struct Boundary {
  std::uint64_t ns;
  int delta;
  SpanCategory category;
};

// The first category that has an open interval; the order of SpanCategory is the priority.
SpanCategory current(const std::array<std::int64_t, kSpanCategories>& open) {
  for (std::size_t c = 0; c + 1 < kSpanCategories; ++c)
    if (open[c] > 0) return static_cast<SpanCategory>(c);
  return SpanCategory::kIdle;
}

SpanAttribution sweep(std::vector<Boundary>& boundaries) {
  SpanAttribution out;
  if (boundaries.empty()) return out;
  std::sort(boundaries.begin(), boundaries.end(), [](const Boundary& x, const Boundary& y) { return x.ns < y.ns; });
  std::array<std::int64_t, kSpanCategories> open{};
  std::uint64_t now = boundaries.front().ns;
  for (const Boundary& b : boundaries) {
    out.ns[static_cast<std::size_t>(current(open))] += b.ns - now;  // the stretch before this boundary
    now = b.ns;
    open[static_cast<std::size_t>(b.category)] += b.delta;
  }
  out.span_ns = now - boundaries.front().ns;
  return out;
}

}  // namespace

const char* span_category_name(SpanCategory category) {
  switch (category) {
    case SpanCategory::kKernels: return "kernels";
    case SpanCategory::kCopies: return "copies";
    case SpanCategory::kApi: return "api";
    case SpanCategory::kHost: return "host";
    case SpanCategory::kIdle: break;
  }
  return "idle";
}

void SpanAttributor::add(const Event& event) {
  switch (event.kind_case()) {
    case Event::kKernel:
      add_interval(event.kernel().start_ns(), event.kernel().end_ns(), SpanCategory::kKernels);
      break;
    case Event::kMemcpy: add_interval(event.memcpy().start_ns(), event.memcpy().end_ns(), SpanCategory::kCopies); break;
    case Event::kMemset: add_interval(event.memset().start_ns(), event.memset().end_ns(), SpanCategory::kCopies); break;
    case Event::kApiCall: {
      const ApiCall& call = event.api_call();
      if (call.end_ns() == 0) break;
      add_interval(call.start_ns(), call.end_ns(), SpanCategory::kApi);
      calls_.push_back({{call.process_id(), call.thread_id()}, call.start_ns(), call.end_ns()});
      break;
    }
    default: break;  // synchronizations are API calls' side effects; markers and metadata take no time
  }
}

void SpanAttributor::add_interval(std::uint64_t start_ns, std::uint64_t end_ns, SpanCategory category) {
  if (end_ns == 0) return;  // counters mode: no time
  intervals_.push_back({start_ns, end_ns, category});
}

SpanAttribution SpanAttributor::finish() const {
  const CallStructure structure = structure_calls(calls_);
  std::vector<Boundary> boundaries;
  boundaries.reserve(2 * (intervals_.size() + structure.gaps.size()));
  for (const Interval& i : intervals_) {
    boundaries.push_back({i.start_ns, +1, i.category});
    boundaries.push_back({i.end_ns, -1, i.category});
  }
  // Gaps lie within their thread's calls, so they never widen the span.
  for (const HostInterval& gap : structure.gaps) {
    boundaries.push_back({gap.start_ns, +1, SpanCategory::kHost});
    boundaries.push_back({gap.end_ns, -1, SpanCategory::kHost});
  }
  SpanAttribution out = sweep(boundaries);
  out.api_calls = calls_.size();
  return out;
}

std::vector<CategoryDiff> attribution_diff(const SpanAttribution& a, const SpanAttribution& b) {
  std::vector<CategoryDiff> out;
  for (std::size_t c = 0; c < kSpanCategories; ++c)
    out.push_back({span_category_name(static_cast<SpanCategory>(c)), a.ns[c], b.ns[c],
                   static_cast<std::int64_t>(b.ns[c]) - static_cast<std::int64_t>(a.ns[c])});
  return out;
}

}  // namespace warpsim::report
