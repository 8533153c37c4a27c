#include "outputs/summary_text.h"

#include <fmt/format.h>

#include <iterator>
#include <utility>

#include "analysis/demangle.h"
#include "analysis/trace_labels.h"
#include "outputs/printable.h"
#include "outputs/readable_units.h"

namespace warpsim::report {
namespace {

template <typename... Args>
void append(std::string& out, fmt::format_string<Args...> format, Args&&... args) {
  fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

std::string endpoint_label(const Endpoint& endpoint) {
  const std::string index = endpoint.has_index() ? fmt::format(" {}", endpoint.index()) : "";
  switch (endpoint.kind()) {
    case Endpoint::DEVICE: return fmt::format("GPU {}", endpoint.device_id());
    case Endpoint::HOST: return "host" + index;
    case Endpoint::NVSWITCH: return "NVSwitch" + index;
    case Endpoint::PCIE_SWITCH: return "PCIe switch" + index;
    default: return "?";
  }
}

void append_device(std::string& out, const Device& d) {
  append(out, "  GPU {}  {}", d.id(), printable(d.name()));
  if (d.has_compute_capability_major())
    append(out, "  sm_{}{}", d.compute_capability_major(), d.compute_capability_minor());
  if (d.has_sm_count()) append(out, "  {} SMs", d.sm_count());
  if (d.has_sm_clock_khz()) append(out, "  {} MHz", d.sm_clock_khz() / 1000);
  if (d.has_l2_cache_bytes()) append(out, "  L2 {}", format_bytes(d.l2_cache_bytes()));
  if (d.has_dram_bandwidth_bytes_per_s())
    append(out, "  DRAM {:.0f} GB/s", static_cast<double>(d.dram_bandwidth_bytes_per_s()) / 1e9);
  out += '\n';
}

void append_link(std::string& out, const Link& link) {
  const char* type = link.type() == Link::NVLINK ? "NVLink" : link.type() == Link::PCIE ? "PCIe" : "link";
  append(out, "  {:<6}  {} <-> {}", type, endpoint_label(link.a()), endpoint_label(link.b()));
  if (link.has_link_count()) append(out, "  x{} links", link.link_count());
  if (link.has_pcie_generation()) append(out, "  gen{}", link.pcie_generation());
  if (link.has_pcie_lanes()) append(out, " x{}", link.pcie_lanes());
  if (link.has_bandwidth_bytes_per_s())
    append(out, "  {:.2f} GB/s", static_cast<double>(link.bandwidth_bytes_per_s()) / 1e9);
  out += '\n';
}

void append_copies(std::string& out, const TraceSummary& s) {
  out += "copies    ";
  for (const auto kind : {Memcpy::HTOD, Memcpy::DTOH, Memcpy::DTOD, Memcpy::PTOP, Memcpy::HTOH}) {
    const CopyTotals& totals = s.copies.at(static_cast<std::size_t>(kind));
    append(out, " {} {}", copy_kind_label(kind), totals.count);
    if (totals.count > 0) append(out, " ({})", format_bytes(totals.bytes));
    out += kind == Memcpy::HTOH ? "\n" : ",";
  }
}

std::uint64_t copy_count(const TraceSummary& s) {
  std::uint64_t count = 0;
  for (const CopyTotals& totals : s.copies) count += totals.count;
  return count;
}

void append_top_kernels(std::string& out, const TraceSummary& s) {
  if (s.top_kernels.empty()) return;
  append(out, "top kernels by total time\n  {:>12}  {:>8}  {:>12}  name\n", "total", "launches", "mean");
  for (const KernelTotals& k : s.top_kernels)
    append(out, "  {:>12}  {:>8}  {:>12}  {}\n", format_duration(k.total_ns), k.launches,
           format_duration(k.total_ns / k.launches), printable(demangle(k.name)));
}

}  // namespace

std::string summary_to_text(const TraceSummary& s) {
  const TraceHeader& h = s.header;
  std::string out;
  append(out, "trace      {} (format {}{}, {} mode, written by warpsim {})\n", printable(s.file), s.format_version,
         s.record_checksums ? "" : " without record checksums", capture_mode_label(h.mode()),
         printable(h.tool_version()));
  if (!h.capture_host().empty() || h.command_line_size() > 0)
    append(out, "captured   on {}: {}\n", printable(h.capture_host()),
           printable(fmt::format("{}", fmt::join(h.command_line(), " "))));
  append(out, "devices    {}\n", h.devices_size());
  for (const Device& device : h.devices()) append_device(out, device);
  append(out, "links      {}\n", h.links_size());
  for (const Link& link : h.links()) append_link(out, link);
  append(out, "events     {} (kernels {}, copies {}, memsets {}, synchronizations {}, markers {})\n", s.events,
         s.kernels, copy_count(s), s.memsets, s.synchronizations, s.markers);
  // The CPU side: only traces recorded since the tracer records it have these.
  if (s.api_calls + s.host_threads + s.streams > 0)
    append(out, "host       api calls {}, host threads {}, streams {}\n", s.api_calls, s.host_threads, s.streams);
  append(out, "kernels    {} on {} streams, {} with counters, total kernel time {}\n", s.kernels, s.kernel_streams,
         s.kernels_with_counters, format_duration(s.kernel_time_ns));
  append_copies(out, s);
  if (s.first_ns) append(out, "span       {}\n", format_duration(*s.last_ns - *s.first_ns));
  append_top_kernels(out, s);
  return out;
}

}  // namespace warpsim::report
