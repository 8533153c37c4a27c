#include "petri/first_wave.h"

namespace warpsim::models::petri {

FirstWaveNet first_wave_net(const KernelLaunch& kernel, const platform::GpuSpec& gpu, Variant variant) {
  const WarpPlan plan = warp_plan(kernel, gpu);
  const uint32_t warps = plan.waves.full_waves > 0 ? plan.full_wave_warps() : plan.tail_wave_warps();
  return FirstWaveNet{KernelNets(variant, kernel.counters(), plan.total_warps(), gpu).build(warps), warps};
}

}  // namespace warpsim::models::petri
