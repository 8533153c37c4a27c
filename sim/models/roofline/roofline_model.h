#pragma once
// roofline: a kernel's SM-side time as the slowest SM resource its blocks use, wave by wave.
//
// One block with the whole SM takes the longest of: its warp instructions over the schedulers (one issue per
// scheduler per clock), each pipe's warp instructions over that pipe's warp rate (lanes / warp size), its L1 bytes
// over the L1 bandwidth, its shared-memory wavefronts at one per clock. Blocks resident together share the SM, so a
// full wave takes blocks_per_sm block-times; the last, partial wave spreads its blocks over the SMs and takes
// ceil(blocks left / SMs) block-times. Each wave lasts at least one memory latency (a DRAM latency when the kernel
// reads global memory, else an FP32 latency): no warp finishes faster than its own dependent path.
// DRAM, L2 and link time are not in sm_time_s: the prediction carries the bytes and the replay makes them transfers.
//
// Fallback: a kernel without counters (a timeline-only trace) gets only the latency floor of its waves, a DRAM latency
// each, and no bytes; the prediction says estimated_without_counters and the replay warns. See README.md.
#include <string_view>

#include "kernel_model.h"
#include "wave_plan.h"

namespace warpsim::models {

class RooflineModel final : public KernelModel {
 public:
  std::string_view name() const override { return "roofline"; }
  KernelPrediction predict(const KernelView& kernel, const platform::GpuSpec& gpu) const override;
};

/// Cycles for all waves of `plan`: full waves of blocks_per_sm block-times, then the tail, as many block-times as its
/// busiest SM holds blocks; each wave at least floor_cycles. The block's time is the core's block_time.
double wave_cycles(const WavePlan& plan, double block_cycles, double floor_cycles);

}  // namespace warpsim::models
