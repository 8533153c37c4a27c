#pragma once
// Rates the models derive from a GpuSpec, each unit conversion written once: the spec's MHz, GB/s and microseconds
// become Hz, bytes per second and seconds here, nowhere else.
//
// Outputs must stay bit-identical, and floating-point products do not associate: (a x 1e9) x e can differ from
// (a x e) x 1e9 in the last bit. So each rate is the exact expression its models computed before it lived here; where
// two models compute a similar quantity in a different order, both forms are kept, named, and say which model uses it.
#include <algorithm>
#include <cstdint>

#include "platform.pb.h"

namespace warpsim::models {

inline constexpr double kBytesPerGigabyte = 1e9;  // the spec's GB/s are decimal
inline constexpr double kHzPerMhz = 1e6;
inline constexpr double kSecondsPerMicrosecond = 1e-6;

/// The spec's GB/s in bytes per second.
inline double bytes_per_second(double gb_per_s) { return gb_per_s * kBytesPerGigabyte; }

/// Bytes per second in bytes per SM clock; 0 for a GPU without a clock.
inline double bytes_per_cycle(double bytes_per_s, double clock_hz) {
  return clock_hz <= 0 ? 0 : bytes_per_s / clock_hz;
}

/// Warp instructions a pipe of `lanes` lanes per SM retires per clock: lanes / warp_size.
inline double pipe_warp_rate(double lanes, uint32_t warp_size) { return lanes / std::max<uint32_t>(warp_size, 1); }

struct GpuRates {
  double clock_hz = 0;                    // SM clock: sm_clock_mhz x 1e6
  double sm_cycles_per_s = 0;             // all SMs together: (sm_count x sm_clock_mhz) x 1e6
  double launch_overhead_s = 0;           // kernel_launch_overhead_us x 1e-6
  double l2_bytes_per_s = 0;              // l2_bandwidth_gb_per_s x 1e9
  double dram_peak_bytes_per_s = 0;       // dram_bandwidth_gb_per_s x 1e9: the datasheet peak
  double dram_sustained_bytes_per_s = 0;  // the peak x dram_efficiency: what a streaming kernel reaches

  static GpuRates of(const platform::GpuSpec& gpu);
};

/// One SM's share of the DRAM peak per SM clock, peak / (SMs x clock) divided once (mwp's departure delays).
double dram_peak_bytes_per_sm_cycle(const GpuRates& rates);

/// One SM's share of `dram_bytes_per_s` per SM clock, divided by the SMs, then by the clock (petri's DRAM slots).
/// Not the same rounding as dram_peak_bytes_per_sm_cycle's single division: both kept, outputs stay identical.
double dram_bytes_per_sm_cycle(double dram_bytes_per_s, uint32_t sm_count, const GpuRates& rates);

}  // namespace warpsim::models
