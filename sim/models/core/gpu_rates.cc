#include "gpu_rates.h"

#include <algorithm>

#include "numeric.h"

namespace warpsim::models {

GpuRates GpuRates::of(const platform::GpuSpec& gpu) {
  const platform::MemorySpec& memory = gpu.memory();
  GpuRates r;
  r.clock_hz = gpu.sm_clock_mhz() * kHzPerMhz;
  r.sm_cycles_per_s = gpu.sm_count() * gpu.sm_clock_mhz() * kHzPerMhz;
  r.launch_overhead_s = gpu.kernel_launch_overhead_us() * kSecondsPerMicrosecond;
  r.l2_bytes_per_s = bytes_per_second(memory.l2_bandwidth_gb_per_s());
  r.dram_peak_bytes_per_s = bytes_per_second(memory.dram_bandwidth_gb_per_s());
  r.dram_sustained_bytes_per_s = r.dram_peak_bytes_per_s * memory.dram_efficiency();
  r.dram_scattered_bytes_per_s = bytes_per_second(memory.dram_scattered_sector_gb_per_s());
  r.l2_scattered_bytes_per_s = bytes_per_second(memory.l2_scattered_sector_gb_per_s());
  r.l2_write_bytes_per_s = bytes_per_second(memory.l2_write_sector_gb_per_s());
  r.l2_scattered_write_bytes_per_s = bytes_per_second(memory.l2_scattered_write_sector_gb_per_s());
  return r;
}

double streaming_equivalent_bytes(double bytes, double scattered_bytes, double streaming_rate, double scattered_rate) {
  if (scattered_rate <= 0 || scattered_rate >= streaming_rate) return bytes;
  const double scattered = std::clamp(scattered_bytes, 0.0, bytes);
  return bytes + scattered * (streaming_rate / scattered_rate - 1);
}

double dram_bytes_per_sm_cycle(double dram_bytes_per_s, const GpuRates& rates) {
  return ratio_or_zero(dram_bytes_per_s, rates.sm_cycles_per_s);
}

}  // namespace warpsim::models
