#pragma once
// Rates the models derive from a GpuSpec, each unit conversion written once: the spec's MHz, GB/s and microseconds
// become Hz, bytes per second and seconds here, nowhere else, and every model takes the DRAM rates from here.
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
  double dram_scattered_bytes_per_s = 0;  // dram_scattered_sector_gb_per_s x 1e9: random single sectors (0: unmeasured)
  double l2_scattered_bytes_per_s = 0;    // l2_scattered_sector_gb_per_s x 1e9: single-sector requests (0: unmeasured)
  double l2_write_bytes_per_s = 0;        // l2_write_sector_gb_per_s x 1e9: written sectors (0: unmeasured)
  double l2_scattered_write_bytes_per_s = 0;  // l2_scattered_write_sector_gb_per_s x 1e9: single-sector stores

  static GpuRates of(const platform::GpuSpec& gpu);
};

/// The bytes a streaming pattern moves in the time DRAM needs for `bytes`, of which `scattered_bytes` are random
/// single sectors served at `scattered_rate` instead of `streaming_rate` (any one unit for both rates). Without a
/// scattered rate (0: unmeasured), or a faster one than streaming, every byte streams.
double streaming_equivalent_bytes(double bytes, double scattered_bytes, double streaming_rate, double scattered_rate);

/// One SM's share of a whole-GPU DRAM rate (the peak for mwp's departure delays, the sustained rate for petri's DRAM
/// slots), in bytes per SM clock: bytes_per_s / (SMs x clock); 0 for a GPU without SMs or a clock.
double dram_bytes_per_sm_cycle(double dram_bytes_per_s, const GpuRates& rates);

}  // namespace warpsim::models
