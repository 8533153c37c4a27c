#include "outputs/timeline_slices.h"

#include <fmt/format.h>

#include <cmath>

#include "analysis/kernel_name.h"
#include "analysis/trace_labels.h"
#include "outputs/readable_units.h"

namespace warpsim::report {
namespace {

std::string dim3_text(const Dim3& d) { return fmt::format("{}x{}x{}", d.x(), d.y(), d.z()); }

// The counters people look at first; the trace (inspect --events) has all of them.
void add_counters_summary(const KernelCounters& c, std::vector<SliceArgument>& args) {
  constexpr const char* kGroup = "counters";
  if (c.warp_instructions().has_total()) args.emplace_back("inst_executed", c.warp_instructions().total(), kGroup);
  const MemoryTraffic& m = c.memory();
  if (m.has_dram_read_bytes() || m.has_dram_write_bytes())
    args.emplace_back("dram_bytes", m.dram_read_bytes() + m.dram_write_bytes(), kGroup);
  if (m.has_l2_bytes()) args.emplace_back("l2_bytes", m.l2_bytes(), kGroup);
  if (m.has_nvlink_rx_bytes() || m.has_nvlink_tx_bytes())
    args.emplace_back("nvlink_bytes", m.nvlink_rx_bytes() + m.nvlink_tx_bytes(), kGroup);
  if (c.has_achieved_occupancy_pct()) args.emplace_back("achieved_occupancy_pct", c.achieved_occupancy_pct(), kGroup);
}

SliceText kernel_text(const KernelLaunch& k) {
  std::vector<SliceArgument> args;
  args.emplace_back("kernel", readable_kernel_name(k.name()));
  args.emplace_back("grid", dim3_text(k.grid()));
  args.emplace_back("block", dim3_text(k.block()));
  args.emplace_back("registers_per_thread", std::uint64_t{k.registers_per_thread()});
  args.emplace_back("shared_memory_bytes",
                    std::uint64_t{k.static_shared_memory_bytes()} + k.dynamic_shared_memory_bytes());
  args.emplace_back("correlation_id", k.correlation_id());
  if (k.has_counters()) add_counters_summary(k.counters(), args);
  return {short_kernel_name(k.name()), "kernel", std::move(args)};
}

std::string memory_end(bool has_device, std::uint32_t device) {
  return has_device ? fmt::format("GPU {}", device) : "host";
}

SliceText copy_text(const Memcpy& m) {
  std::vector<SliceArgument> args;
  args.emplace_back("bytes", m.bytes());
  args.emplace_back("src", memory_end(m.has_src_device_id(), m.src_device_id()));
  args.emplace_back("dst", memory_end(m.has_dst_device_id(), m.dst_device_id()));
  args.emplace_back("correlation_id", m.correlation_id());
  const std::uint64_t ns = m.end_ns() - m.start_ns();
  if (ns > 0)  // bytes per ns are GB/s
    args.emplace_back("GB/s", std::round(static_cast<double>(m.bytes()) / static_cast<double>(ns) * 100.0) / 100.0);
  return {fmt::format("Memcpy {} {}", copy_kind_label(m.kind()), format_bytes(m.bytes())), "memcpy", std::move(args)};
}

SliceText memset_text(const Memset& m) {
  return {fmt::format("Memset {}", format_bytes(m.bytes())),
          "memset",
          {{"bytes", m.bytes()},
           {"value", std::uint64_t{m.value()}},
           {"correlation_id", std::uint64_t{m.correlation_id()}}}};
}

SliceText marker_text(const Marker& m) {
  std::vector<SliceArgument> args;
  if (m.has_domain()) args.emplace_back("domain", m.domain());
  if (m.has_device_id()) args.emplace_back("device", std::uint64_t{m.device_id()});
  return {m.name(), "marker", std::move(args), !m.has_end_ns()};
}

// CUPTI names calls by their versioned symbol ("cudaLaunchKernel_v7000", "cuMemAlloc_v2"); people know them by
// the name they call.
std::string api_call_name(const std::string& name) {
  const std::size_t suffix = name.rfind("_v");
  if (suffix == std::string::npos || suffix == 0 || suffix + 2 == name.size()) return name;
  for (std::size_t i = suffix + 2; i < name.size(); ++i)
    if (name[i] < '0' || name[i] > '9') return name;
  return name.substr(0, suffix);
}

const char* domain_label(ApiCall::Domain domain) {
  switch (domain) {
    case ApiCall::RUNTIME: return "runtime";
    case ApiCall::DRIVER: return "driver";
    default: return "unknown";
  }
}

SliceText api_call_text(const ApiCall& c) {
  std::vector<SliceArgument> args;
  args.emplace_back("correlation_id", c.correlation_id());
  args.emplace_back("cbid", std::uint64_t{c.callback_id()});
  args.emplace_back("domain", std::string(domain_label(c.domain())));
  if (c.has_return_value() && c.return_value() != 0) args.emplace_back("return_value", std::uint64_t{c.return_value()});
  return {api_call_name(c.name()), "api", std::move(args)};
}

}  // namespace

SliceText slice_text(const Event& event) {
  switch (event.kind_case()) {
    case Event::kKernel: return kernel_text(event.kernel());
    case Event::kMemcpy: return copy_text(event.memcpy());
    case Event::kMemset: return memset_text(event.memset());
    case Event::kMarker: return marker_text(event.marker());
    case Event::kApiCall: return api_call_text(event.api_call());
    default: return {"synchronization", "sync", {}};
  }
}

}  // namespace warpsim::report
