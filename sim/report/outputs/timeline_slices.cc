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
nlohmann::json counters_summary(const KernelCounters& c) {
  nlohmann::json summary = nlohmann::json::object();
  if (c.warp_instructions().has_total()) summary["inst_executed"] = c.warp_instructions().total();
  const MemoryTraffic& m = c.memory();
  if (m.has_dram_read_bytes() || m.has_dram_write_bytes())
    summary["dram_bytes"] = m.dram_read_bytes() + m.dram_write_bytes();
  if (m.has_l2_bytes()) summary["l2_bytes"] = m.l2_bytes();
  if (m.has_nvlink_rx_bytes() || m.has_nvlink_tx_bytes())
    summary["nvlink_bytes"] = m.nvlink_rx_bytes() + m.nvlink_tx_bytes();
  if (c.has_achieved_occupancy_pct()) summary["achieved_occupancy_pct"] = c.achieved_occupancy_pct();
  return summary;
}

SliceText kernel_text(const KernelLaunch& k) {
  nlohmann::json args = {{"kernel", readable_kernel_name(k.name())},
                         {"grid", dim3_text(k.grid())},
                         {"block", dim3_text(k.block())},
                         {"registers_per_thread", k.registers_per_thread()},
                         {"shared_memory_bytes", k.static_shared_memory_bytes() + k.dynamic_shared_memory_bytes()},
                         {"correlation_id", k.correlation_id()}};
  if (k.has_counters()) args["counters"] = counters_summary(k.counters());
  return {short_kernel_name(k.name()), "kernel", std::move(args)};
}

std::string memory_end(bool has_device, std::uint32_t device) {
  return has_device ? fmt::format("GPU {}", device) : "host";
}

SliceText copy_text(const Memcpy& m) {
  nlohmann::json args = {{"bytes", m.bytes()},
                         {"src", memory_end(m.has_src_device_id(), m.src_device_id())},
                         {"dst", memory_end(m.has_dst_device_id(), m.dst_device_id())},
                         {"correlation_id", m.correlation_id()}};
  const std::uint64_t ns = m.end_ns() - m.start_ns();
  if (ns > 0)  // bytes per ns are GB/s
    args["GB/s"] = std::round(static_cast<double>(m.bytes()) / static_cast<double>(ns) * 100.0) / 100.0;
  return {fmt::format("Memcpy {} {}", copy_kind_label(m.kind()), format_bytes(m.bytes())), "memcpy", std::move(args)};
}

SliceText memset_text(const Memset& m) {
  return {fmt::format("Memset {}", format_bytes(m.bytes())),
          "memset",
          {{"bytes", m.bytes()}, {"value", m.value()}, {"correlation_id", m.correlation_id()}}};
}

SliceText marker_text(const Marker& m) {
  nlohmann::json args = nlohmann::json::object();
  if (m.has_domain()) args["domain"] = m.domain();
  if (m.has_device_id()) args["device"] = m.device_id();
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
  nlohmann::json args = {
      {"correlation_id", c.correlation_id()}, {"cbid", c.callback_id()}, {"domain", domain_label(c.domain())}};
  if (c.has_return_value() && c.return_value() != 0) args["return_value"] = c.return_value();
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
    default: return {"synchronization", "sync", nlohmann::json::object()};
  }
}

}  // namespace warpsim::report
