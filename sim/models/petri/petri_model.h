#pragma once
// petri and petri-paper: a kernel's SM time as the step count of the paper's warp Petri net (paper 000), one SM per
// wave; one step per SM cycle in `petri`, three in `petri-paper` (warp_net.h, "Time unit").
//
// For each kind of wave (full waves: blocks_per_sm resident blocks; the partial last wave: the blocks of its busiest
// SM) the model builds the net of one SM with those warps, every warp carrying the kernel's average instruction mix,
// and runs it to its dead marking (slice.h bounds the cost). Identical full waves are simulated once and multiplied.
//   cycles = (full_waves * steps(full wave) + steps(tail wave)) / steps_per_cycle;   sm_time_s = cycles / clock
// DRAM, L2 and link time stay with the replay, which carries the kernel's bytes (as roofline does).
//
// `petri-paper` is the paper's net as published: arithmetic, shared and global instructions, l1 = 20, l2 = 2, one SM
// token per warp scheduler. `petri` takes latencies and pipe rates from the GPU spec, splits arithmetic by pipe, and
// bounds the SM's in-flight DRAM requests (extended_net.h, README.md).
//
// Without counters: the roofline's fallback, one DRAM latency per wave, estimated_without_counters set.
#include <string_view>

#include "kernel_model.h"
#include "petri/kernel_nets.h"
#include "petri/slice.h"

namespace warpsim::models::petri {

class PetriModel final : public KernelModel {
 public:
  explicit PetriModel(Variant variant, SliceOptions options = {}) : variant_(variant), options_(options) {}
  std::string_view name() const override { return variant_name(variant_); }
  KernelPrediction predict(const KernelView& kernel, const platform::GpuSpec& gpu) const override;

 private:
  Variant variant_;
  SliceOptions options_;
};

/// SM cycles of all waves of `launch` (which must have counters) and the share of them the SM sat idle.
struct KernelCycles {
  double cycles = 0;
  double idle_cycles = 0;
};
KernelCycles kernel_cycles(Variant variant, const KernelLaunch& launch, const platform::GpuSpec& gpu,
                           const SliceOptions& options = {});

}  // namespace warpsim::models::petri
