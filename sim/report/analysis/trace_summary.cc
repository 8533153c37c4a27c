#include "analysis/trace_summary.h"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <utility>

namespace warpsim::report {
namespace {

// Accumulates a summary one event at a time.
class SummaryBuilder {
 public:
  explicit SummaryBuilder(TraceSummary& summary) : summary_(summary) {}

  void add(const Event& event) {
    ++summary_.events;
    switch (event.kind_case()) {
      case Event::kKernel: add_kernel(event.kernel()); break;
      case Event::kMemcpy: add_copy(event.memcpy()); break;
      case Event::kMemset:
        ++summary_.memsets;
        add_span(event.memset().start_ns(), event.memset().end_ns());
        break;
      case Event::kSync: ++summary_.synchronizations; break;
      case Event::kMarker: ++summary_.markers; break;
      case Event::kApiCall:
        ++summary_.api_calls;
        add_span(event.api_call().start_ns(), event.api_call().end_ns());
        break;
      case Event::kHostThread: ++summary_.host_threads; break;
      case Event::kStream: ++summary_.streams; break;
      case Event::kTrafficSamples: break;  // raw PM samples of a traffic run: not operations
      case Event::KIND_NOT_SET: break;     // the reader refuses these
    }
  }

  void finish(std::size_t top_count) {
    summary_.kernel_streams = streams_.size();
    auto& top = summary_.top_kernels;
    top.reserve(by_name_.size());
    for (auto& [name, totals] : by_name_) top.push_back(std::move(totals));
    std::sort(top.begin(), top.end(), [](const KernelTotals& a, const KernelTotals& b) {
      return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.name < b.name;
    });
    if (top.size() > top_count) top.resize(top_count);
  }

 private:
  void add_kernel(const KernelLaunch& kernel) {
    const std::uint64_t duration = kernel.end_ns() - kernel.start_ns();
    ++summary_.kernels;
    if (kernel.has_counters()) ++summary_.kernels_with_counters;
    summary_.kernel_time_ns += duration;
    streams_.emplace(kernel.device_id(), kernel.stream_id());
    KernelTotals& totals = by_name_[kernel.name()];
    if (totals.launches == 0) totals.name = kernel.name();
    ++totals.launches;
    totals.total_ns += duration;
    add_span(kernel.start_ns(), kernel.end_ns());
  }

  void add_copy(const Memcpy& copy) {
    CopyTotals& totals = summary_.copies.at(static_cast<std::size_t>(copy.kind()));
    ++totals.count;
    totals.bytes += copy.bytes();
    add_span(copy.start_ns(), copy.end_ns());
  }

  void add_span(std::uint64_t start_ns, std::uint64_t end_ns) {
    summary_.first_ns = std::min(summary_.first_ns.value_or(start_ns), start_ns);
    summary_.last_ns = std::max(summary_.last_ns.value_or(end_ns), end_ns);
  }

  TraceSummary& summary_;
  std::unordered_map<std::string, KernelTotals> by_name_;
  std::set<std::pair<std::uint32_t, std::uint32_t>> streams_;
};

}  // namespace

TraceSummary summarize(TraceReader& reader, std::size_t top_count) {
  TraceSummary summary;
  summary.file = reader.name();
  summary.format_version = reader.format_version();
  summary.record_checksums = reader.has_checksums();
  summary.header = reader.header();
  SummaryBuilder builder(summary);
  Event event;
  while (reader.next(event)) builder.add(event);
  builder.finish(top_count);
  summary.truncation_warning = reader.truncation_warning();
  return summary;
}

}  // namespace warpsim::report
