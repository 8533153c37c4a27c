#include "analysis/kernel_match.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "analysis/kernel_name.h"
#include "trace_reader.h"

namespace warpsim::report {
namespace {

std::array<std::uint32_t, 3> dims(const Dim3& d) { return {d.x(), d.y(), d.z()}; }

// Accumulates one trace's kernels, span and its attribution while the reader streams its events.
class KernelCollector {
 public:
  explicit KernelCollector(TraceKernels& out) : out_(out) {}

  void add(const Event& event) {
    attributor_.add(event);
    switch (event.kind_case()) {
      case Event::kKernel: add_kernel(event.kernel()); break;
      case Event::kMemcpy: add_span(event.memcpy().start_ns(), event.memcpy().end_ns()); break;
      case Event::kMemset: add_span(event.memset().start_ns(), event.memset().end_ns()); break;
      case Event::kApiCall: add_span(event.api_call().start_ns(), event.api_call().end_ns()); break;
      default: break;
    }
  }

  void finish() { out_.attribution = attributor_.finish(); }

 private:
  void add_kernel(const KernelLaunch& kernel) {
    out_.streams[{kernel.device_id(), kernel.stream_id()}].push_back(
        {kernel.name(), kernel.correlation_id(), kernel.start_ns(), kernel.end_ns(), dims(kernel.grid()),
         dims(kernel.block()), kernel.simulated_bound()});
    ++out_.kernels;
    out_.kernel_time_ns += kernel.end_ns() - kernel.start_ns();
    add_span(kernel.start_ns(), kernel.end_ns());
  }

  // Counters-mode traces leave times at 0: such events have no place in a span.
  void add_span(std::uint64_t start_ns, std::uint64_t end_ns) {
    if (end_ns == 0) return;
    out_.first_ns = std::min(out_.first_ns.value_or(start_ns), start_ns);
    out_.last_ns = std::max(out_.last_ns.value_or(end_ns), end_ns);
  }

  TraceKernels& out_;
  SpanAttributor attributor_;
};

void sort_by_launch_order(std::vector<KernelRecord>& kernels) {
  std::stable_sort(kernels.begin(), kernels.end(), [](const KernelRecord& x, const KernelRecord& y) {
    return std::tie(x.correlation_id, x.start_ns) < std::tie(y.correlation_id, y.start_ns);
  });
}

std::string where(const StreamKey& key) { return fmt::format("GPU {} stream {}", key.device, key.stream); }

// Short names read best; two kernels whose short names agree (overloads, template arguments) need the full ones.
std::pair<std::string, std::string> distinct_names(const std::string& a, const std::string& b) {
  const std::string short_a = short_kernel_name(a);
  const std::string short_b = short_kernel_name(b);
  if (short_a != short_b) return {short_a, short_b};
  return {a, b};
}

[[noreturn]] void missing_stream(const StreamKey& key, const std::vector<KernelRecord>& present, bool in_a) {
  throw KernelMismatch(fmt::format("traces differ at {}: {} launched {} kernels there (first: {}), {} none", where(key),
                                   in_a ? "A" : "B", present.size(), short_kernel_name(present.front().name),
                                   in_a ? "B" : "A"));
}

[[noreturn]] void different_counts(const StreamKey& key, const std::vector<KernelRecord>& a,
                                   const std::vector<KernelRecord>& b) {
  const bool a_longer = a.size() > b.size();
  const std::size_t first_extra = std::min(a.size(), b.size());
  const std::string extra = short_kernel_name((a_longer ? a : b)[first_extra].name);
  throw KernelMismatch(
      fmt::format("traces differ at {}: A launched {} kernels, B {}; kernel {} ({}) of {} has no counterpart in {}",
                  where(key), a.size(), b.size(), first_extra, extra, a_longer ? "A" : "B", a_longer ? "B" : "A"));
}

void match_stream(const StreamKey& key, const std::vector<KernelRecord>& a, const std::vector<KernelRecord>& b,
                  std::vector<KernelPair>& pairs) {
  const std::size_t common = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < common; ++i) {
    if (a[i].name != b[i].name) {
      const auto [name_a, name_b] = distinct_names(a[i].name, b[i].name);
      throw KernelMismatch(
          fmt::format("traces differ at {} kernel {}: A launched {}, B launched {}", where(key), i, name_a, name_b));
    }
    pairs.push_back({key, i, &a[i], &b[i]});
  }
  if (a.size() != b.size()) different_counts(key, a, b);
}

}  // namespace

TraceKernels read_trace_kernels(const std::filesystem::path& path) {
  TraceReader reader(path);
  TraceKernels out;
  out.path = path.string();
  out.header = reader.header();
  KernelCollector collector(out);
  Event event;
  while (reader.next(event)) collector.add(event);
  collector.finish();
  out.truncation_warning = reader.truncation_warning();
  for (auto& [key, kernels] : out.streams) sort_by_launch_order(kernels);
  return out;
}

std::vector<KernelPair> match_kernels(const TraceKernels& a, const TraceKernels& b) {
  std::set<StreamKey> keys;
  for (const auto& [key, kernels] : a.streams) keys.insert(key);
  for (const auto& [key, kernels] : b.streams) keys.insert(key);
  std::vector<KernelPair> pairs;
  pairs.reserve(a.kernels);
  for (const StreamKey& key : keys) {
    const auto in_a = a.streams.find(key);
    const auto in_b = b.streams.find(key);
    if (in_b == b.streams.end()) missing_stream(key, in_a->second, true);
    if (in_a == a.streams.end()) missing_stream(key, in_b->second, false);
    match_stream(key, in_a->second, in_b->second, pairs);
  }
  return pairs;
}

}  // namespace warpsim::report
