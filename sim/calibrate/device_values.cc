#include "device_values.h"

#include <fmt/format.h>

namespace warpsim::calibrate {
namespace {

class DeviceFields {
 public:
  explicit DeviceFields(const Device& device) : device_(device) {}

  template <typename Value>
  void add(bool present, const char* field, Value value, const char* property) {
    if (!present) return;
    found_.push_back({field, fmt::format("{}", value),
                      fmt::format("DEVICE PROPERTY of {}: {} (cudaGetDeviceProperties)", device_.name(), property)});
  }
  Measurements take() { return std::move(found_); }

 private:
  const Device& device_;
  Measurements found_;
};

}  // namespace

Measurements device_values(const Device& d) {
  DeviceFields fields(d);
  fields.add(d.has_compute_capability_major(), "compute_capability_major", d.compute_capability_major(), "major");
  fields.add(d.has_compute_capability_minor(), "compute_capability_minor", d.compute_capability_minor(), "minor");
  fields.add(d.has_sm_count(), "sm_count", d.sm_count(), "multiProcessorCount");
  fields.add(d.has_sm_clock_khz(), "sm_clock_mhz", d.sm_clock_khz() / 1000.0, "clockRate (the boost clock)");
  fields.add(d.has_warp_size(), "sm.warp_size", d.warp_size(), "warpSize");
  fields.add(d.has_max_warps_per_sm(), "sm.max_warps", d.max_warps_per_sm(), "maxThreadsPerMultiProcessor / 32");
  fields.add(d.has_max_blocks_per_sm(), "sm.max_blocks", d.max_blocks_per_sm(), "maxBlocksPerMultiProcessor");
  fields.add(d.has_max_threads_per_block(), "sm.max_threads_per_block", d.max_threads_per_block(),
             "maxThreadsPerBlock");
  fields.add(d.has_max_registers_per_sm(), "sm.registers", d.max_registers_per_sm(), "regsPerMultiprocessor");
  fields.add(d.has_max_shared_memory_per_sm_bytes(), "sm.shared_memory_bytes", d.max_shared_memory_per_sm_bytes(),
             "sharedMemPerMultiprocessor");
  fields.add(d.has_max_shared_memory_per_block_optin_bytes(), "sm.max_shared_memory_per_block_bytes",
             d.max_shared_memory_per_block_optin_bytes(), "sharedMemPerBlockOptin");
  fields.add(d.has_l2_cache_bytes(), "memory.l2_bytes", d.l2_cache_bytes(), "l2CacheSize");
  fields.add(d.has_global_memory_bytes(), "memory.dram_bytes", d.global_memory_bytes(), "totalGlobalMem");
  fields.add(d.has_dram_bandwidth_bytes_per_s(), "memory.dram_bandwidth_gb_per_s",
             static_cast<double>(d.dram_bandwidth_bytes_per_s()) / 1e9, "memory clock x bus width, the peak");
  return fields.take();
}

}  // namespace warpsim::calibrate
