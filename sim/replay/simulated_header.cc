#include "simulated_header.h"

#include <cmath>
#include <cstdint>

#include "warpsim/version.h"

namespace warpsim::replay {
namespace {

void describe_device(Device& device, const platform::GpuSpec& gpu) {
  device.set_name(gpu.name());
  device.set_compute_capability_major(gpu.compute_capability_major());
  device.set_compute_capability_minor(gpu.compute_capability_minor());
  device.set_sm_count(gpu.sm_count());
  device.set_sm_clock_khz(static_cast<std::uint32_t>(std::lround(gpu.sm_clock_mhz() * 1000)));
  device.set_dram_bandwidth_bytes_per_s(static_cast<std::uint64_t>(std::llround(gpu.memory().dram_bandwidth_gb_per_s() * 1e9)));
  device.set_global_memory_bytes(gpu.memory().dram_bytes());
  device.set_l2_cache_bytes(gpu.memory().l2_bytes());
  device.set_warp_size(gpu.sm().warp_size());
  device.set_max_warps_per_sm(gpu.sm().max_warps());
  device.set_max_blocks_per_sm(gpu.sm().max_blocks());
  device.set_max_registers_per_sm(gpu.sm().registers());
  device.set_max_shared_memory_per_sm_bytes(gpu.sm().shared_memory_bytes());
}

Endpoint device_endpoint(std::uint32_t gpu) {
  Endpoint end;
  end.set_kind(Endpoint::DEVICE);
  end.set_device_id(gpu);
  return end;
}

bool declares(const TraceHeader& header, std::uint32_t gpu) {
  for (const Device& device : header.devices()) {
    if (device.id() == gpu) return true;
  }
  return false;
}

// The node's links between the trace's devices (a trace may use fewer GPUs than the node has).
void add_links(TraceHeader& header, const platform::Platform& platform) {
  header.clear_links();
  for (const auto& nv : platform.node.nvlinks()) {
    if (!declares(header, nv.gpu_a()) || !declares(header, nv.gpu_b())) continue;
    Link& link = *header.add_links();
    link.set_type(Link::NVLINK);
    *link.mutable_a() = device_endpoint(nv.gpu_a());
    *link.mutable_b() = device_endpoint(nv.gpu_b());
    link.set_link_count(nv.link_count());
    // Total over the bundle, both directions, as CUPTI reports NVLink bandwidth.
    link.set_bandwidth_bytes_per_s(static_cast<std::uint64_t>(std::llround(2e9 * nv.link_count() * nv.per_link_bandwidth_gb_per_s())));
  }
  for (const auto& gpu : platform.node.gpus()) {
    if (!declares(header, gpu.id())) continue;
    Link& link = *header.add_links();
    link.set_type(Link::PCIE);
    *link.mutable_a() = device_endpoint(gpu.id());
    link.mutable_b()->set_kind(gpu.attach().empty() ? Endpoint::HOST : Endpoint::PCIE_SWITCH);
    link.set_pcie_generation(gpu.pcie().generation());
    link.set_pcie_lanes(gpu.pcie().lanes());
    link.set_bandwidth_bytes_per_s(static_cast<std::uint64_t>(std::llround(1e9 * platform::pcie_bandwidth_gb_per_s(gpu.pcie()))));
  }
}

}  // namespace

TraceHeader simulated_header(const TraceHeader& source, const std::string& source_path,
                             const platform::Platform& platform, const std::string& model_name,
                             bool reuses_recorded_kernel_times) {
  TraceHeader header = source;
  header.set_mode(CAPTURE_MODE_SIMULATED);
  header.set_tool_version(kVersion);
  for (Device& device : *header.mutable_devices()) {
    if (device.id() < platform.gpus.size()) describe_device(device, platform.gpus[device.id()]);
  }
  add_links(header, platform);
  SimulationInfo& info = *header.mutable_simulation();
  info.set_platform(platform.node.name().empty() ? platform.node_file.string() : platform.node.name());
  info.set_model(model_name);
  info.set_reuses_recorded_kernel_times(reuses_recorded_kernel_times);
  for (const auto& override_text : platform.overrides) info.add_overrides(override_text);
  info.set_source_trace(source_path);
  return header;
}

}  // namespace warpsim::replay
