#pragma once
// wave: paper 001's analytical wave model (Kleimenov & Popova 2021), with the kernel tuple from traced counters.
//
//   time_kernel = time_launch + sum over waves of time_wave
// time_launch comes from the GPU's launch regression (launch_time.h); a wave's time is the busiest SM's busiest
// processing block, latency-bound or issue-bound, raised by the bandwidth fixed points of shared memory, L1, L2,
// DRAM and uncoalesced requests (wave_time.h). Full waves are alike, so one is computed and multiplied; the tail
// wave, spread over the SMs by the block scheduler, is computed on its own.
//
// Unlike roofline, sm_time_s already includes the memory levels' bandwidth. The replay still gets the kernel's DRAM,
// L2 and peer bytes: it runs them in parallel with the SM time (the kernel lasts the longer), so they only add
// time under contention with other work.
//
// Without counters: launch time plus one DRAM latency per wave, estimated_without_counters (as roofline's fallback).
// See README.md for every equation and where each quantity comes from.
#include <string_view>

#include "kernel_model.h"
#include "wave/gpu_tuple.h"

namespace warpsim::models {

/// `wave` as published (issue delays summed over classes), `wave-pipes` (pipes overlap: wave/gpu_tuple.h, IssueRule)
/// or `wave-blocks` (wave-pipes with pipelined blocks: wave/gpu_tuple.h, BlockRule).
class WaveModel final : public KernelModel {
 public:
  explicit WaveModel(wave::IssueRule issue = wave::IssueRule::kSumOfDelays,
                     wave::BlockRule blocks = wave::BlockRule::kDispatchFirst)
      : issue_(issue), blocks_(blocks) {}
  std::string_view name() const override;
  KernelPrediction predict(const KernelView& kernel, const platform::GpuSpec& gpu) const override;

 private:
  wave::IssueRule issue_;
  wave::BlockRule blocks_;
};

}  // namespace warpsim::models
