#include "gpu_rates.h"

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
  return r;
}

double dram_bytes_per_sm_cycle(double dram_bytes_per_s, const GpuRates& rates) {
  return ratio_or_zero(dram_bytes_per_s, rates.sm_cycles_per_s);
}

}  // namespace warpsim::models
