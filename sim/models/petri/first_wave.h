#pragma once
// The net `warpsim petri export` writes: one SM of a kernel's first wave, built as the model builds it, so that
// Petri-net tools can open the very net the model runs.
#include <cstdint>

#include "petri/kernel_nets.h"
#include "petri/net.h"
#include "petri/variant.h"
#include "platform.pb.h"
#include "trace.pb.h"

namespace warpsim::models::petri {

struct FirstWaveNet {
  Net net;
  uint32_t warps = 0;  // resident warps of that SM
};

/// The net of one SM in `kernel`'s first wave: a full wave when there is one, else the busiest SM of the only, partial
/// one. `kernel` must have counters (the mix comes from them).
FirstWaveNet first_wave_net(const KernelLaunch& kernel, const platform::GpuSpec& gpu, Variant variant);

}  // namespace warpsim::models::petri
