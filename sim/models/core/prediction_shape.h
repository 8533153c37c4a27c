#pragma once
// What every model's prediction shares, whatever its timing equations: how the grid sits on the GPU (resident blocks,
// waves, occupancy, SMs used, launch cost), the bytes per level the replay moves, the no-counters floor, and cycles
// to seconds. One place, so that the models differ only in how they time a wave.
#include <cstdint>

#include "gpu_rates.h"
#include "kernel_model.h"
#include "kernel_work.h"
#include "occupancy.h"

namespace warpsim::models {

/// A prediction with the grid's shape filled in: blocks_per_sm (at least 1: a block that does not fit still runs,
/// alone), waves, theoretical_occupancy, sms_used and launch_overhead_s (the GPU's kernel_launch_overhead_us).
KernelPrediction shaped_prediction(const KernelLaunch& launch, const Occupancy& occupancy,
                                   const platform::GpuSpec& gpu);

/// Copies the kernel's bytes per level (kernel_work.h) into the prediction, for the replay's links.
void add_bytes(KernelPrediction& prediction, const KernelWork& work);

/// The fallback without an instruction mix: one DRAM latency per wave in cycles (most kernels read global memory), or,
/// where the launch carries DRAM bytes (a one-group recording, e.g. `cache`), at least those bytes at the sustained
/// DRAM rate; flagged as estimated without counters with the limiter "latency (no counters)" or "dram bytes (no
/// counters)".
double no_counters_cycles(KernelPrediction& prediction, const platform::GpuSpec& gpu, const KernelLaunch& launch);

/// Names the occupancy limit when a block does not fit on an SM at all.
void mark_does_not_fit(KernelPrediction& prediction, const Occupancy& occupancy);

/// SM cycles at the GPU's clock, in seconds.
inline double cycles_to_seconds(double cycles, const platform::GpuSpec& gpu) {
  return gpu.sm_clock_mhz() > 0 ? cycles / GpuRates::of(gpu).clock_hz : 0;
}

}  // namespace warpsim::models
