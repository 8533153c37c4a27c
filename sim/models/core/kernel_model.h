#pragma once
// The interface every SM timing model implements: a KernelView (kernel_view.h) and a GpuSpec in, a KernelPrediction
// out.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "kernel_view.h"
#include "platform.pb.h"

namespace warpsim::models {

/// What a model predicts for one kernel on one GPU. The replay turns it into SimGrid activities: sm_time_s as work on
/// the GPU's SMs and the bytes as transfers over the GPU's L2, DRAM, NVLink and PCIe resources, all in parallel, so the
/// kernel lasts as long as the slowest of them under contention (a roofline the node level completes).
struct KernelPrediction {
  // SM-side time of all waves (tail included). roofline leaves memory bandwidth to the replay; wave, mwp and petri
  // include bounds of their own. Either way the replay runs the bytes in parallel (max, not sum), so only
  // contention with concurrent work adds to it.
  double sm_time_s = 0;
  double launch_overhead_s = 0;  // GPU-side launch cost, paid before the kernel's work
  uint32_t sms_used = 0;         // SMs the kernel occupies (1..sm_count): how it shares the GPU with other kernels
  uint64_t dram_bytes = 0;       // to and from this GPU's DRAM
  uint64_t l2_bytes = 0;         // through this GPU's L2
  uint64_t peer_bytes = 0;       // read from or written to other GPUs' memory (NVLink or PCIe peer access)
  uint64_t sysmem_bytes = 0;     // host memory read directly (zero-copy over PCIe)
  uint64_t sysmem_write_bytes = 0;  // host memory written directly (zero-copy stores over PCIe)
  uint32_t blocks_per_sm = 0;    // resident blocks per SM (occupancy limit)
  uint32_t waves = 0;
  double theoretical_occupancy = 0;         // resident warps / max warps per SM, 0..1
  bool estimated_without_counters = false;  // no counters: launch-configuration-only estimate (see the model's doc)
  std::string limiter;                      // what bounds sm_time_s, e.g. "fma pipe", "issue", "l1 bandwidth"
};

class KernelModel {
 public:
  virtual ~KernelModel() = default;
  virtual std::string_view name() const = 0;
  virtual KernelPrediction predict(const KernelView& kernel, const platform::GpuSpec& gpu) const = 0;
};

}  // namespace warpsim::models
