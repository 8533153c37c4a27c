#include "analysis/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_map>

#include "analysis/trace_labels.h"

namespace warpsim::report {
namespace {

TraceOrigin origin_of(const TraceKernels& trace) {
  TraceOrigin origin;
  origin.path = trace.path;
  origin.mode = capture_mode_label(trace.header.mode());
  if (trace.header.has_simulation()) {
    origin.platform = trace.header.simulation().platform();
    origin.model = trace.header.simulation().model();
  }
  for (const Device& device : trace.header.devices()) origin.devices.push_back(device.name());
  return origin;
}

// Counters-mode traces serialize kernels under replay and record no times: comparing against them would report
// 100% errors that say nothing about the model.
void require_kernel_times(const TraceKernels& trace, const char* which) {
  if (trace.kernels == 0) throw std::runtime_error(fmt::format("{}: {} has no kernels to compare", trace.path, which));
  if (trace.kernel_time_ns == 0)
    throw std::runtime_error(
        fmt::format("{}: {} has no kernel times: all {} kernels last 0 ns (counters-mode trace? compare a timeline or "
                    "merged trace)",
                    trace.path, which, trace.kernels));
}

std::optional<double> relative_error_pct(std::uint64_t a, std::uint64_t b) {
  if (a == 0) return std::nullopt;
  return (static_cast<double>(b) - static_cast<double>(a)) / static_cast<double>(a) * 100.0;
}

KernelError kernel_error(const KernelPair& pair) {
  const std::uint64_t a_ns = pair.a->duration_ns();
  const std::uint64_t b_ns = pair.b->duration_ns();
  return {pair.stream, pair.index, pair.a->name, a_ns, b_ns, relative_error_pct(a_ns, b_ns)};
}

// Totals per kernel name; the MAPE of a name averages its launches, as the overall MAPE averages all kernels.
std::vector<NameError> errors_by_name(const std::vector<KernelError>& kernels) {
  std::unordered_map<std::string, NameError> by_name;
  std::unordered_map<std::string, std::pair<double, std::size_t>> absolute_errors;  // sum, count
  for (const KernelError& kernel : kernels) {
    NameError& totals = by_name[kernel.name];
    totals.name = kernel.name;
    ++totals.launches;
    totals.a_ns += kernel.a_ns;
    totals.b_ns += kernel.b_ns;
    if (!kernel.error_pct) continue;
    auto& [sum, count] = absolute_errors[kernel.name];
    sum += std::abs(*kernel.error_pct);
    ++count;
  }
  std::vector<NameError> out;
  out.reserve(by_name.size());
  for (auto& [name, totals] : by_name) {
    totals.sum_error_pct = relative_error_pct(totals.a_ns, totals.b_ns);
    if (const auto found = absolute_errors.find(name); found != absolute_errors.end())
      totals.mape_pct = found->second.first / static_cast<double>(found->second.second);
    out.push_back(std::move(totals));
  }
  std::sort(out.begin(), out.end(), [](const NameError& x, const NameError& y) {
    return x.a_ns != y.a_ns ? x.a_ns > y.a_ns : x.name < y.name;
  });
  return out;
}

void summarize_errors(Comparison& comparison) {
  std::vector<double> absolute;
  absolute.reserve(comparison.kernels.size());
  for (const KernelError& kernel : comparison.kernels)
    if (kernel.error_pct) absolute.push_back(std::abs(*kernel.error_pct));
  comparison.matched = comparison.kernels.size();
  comparison.skipped = comparison.matched - absolute.size();
  double sum = 0;
  for (const double value : absolute) sum += value;
  comparison.mape_pct = absolute.empty() ? 0.0 : sum / static_cast<double>(absolute.size());
  comparison.median_ape_pct = median(absolute);
}

std::uint64_t span(const TraceKernels& trace) { return trace.first_ns ? *trace.last_ns - *trace.first_ns : 0; }

}  // namespace

Comparison compare_kernels(const TraceKernels& a, const TraceKernels& b) {
  require_kernel_times(a, "A");
  require_kernel_times(b, "B");
  Comparison comparison;
  comparison.a = origin_of(a);
  comparison.b = origin_of(b);
  for (const KernelPair& pair : match_kernels(a, b)) comparison.kernels.push_back(kernel_error(pair));
  comparison.by_name = errors_by_name(comparison.kernels);
  summarize_errors(comparison);
  comparison.kernel_time_ns = {a.kernel_time_ns, b.kernel_time_ns};
  comparison.span_ns = {span(a), span(b)};
  comparison.span_error_pct = relative_error_pct(comparison.span_ns.a, comparison.span_ns.b);
  comparison.attribution = attribution_diff(a.attribution, b.attribution);
  comparison.api_calls = {a.attribution.api_calls, b.attribution.api_calls};
  for (const TraceKernels* trace : {&a, &b})
    if (!trace->truncation_warning.empty()) comparison.warnings.push_back(trace->truncation_warning);
  return comparison;
}

Comparison compare_traces(const std::filesystem::path& a, const std::filesystem::path& b) {
  return compare_kernels(read_trace_kernels(a), read_trace_kernels(b));
}

}  // namespace warpsim::report
