#pragma once
// --set KEY=VALUE: change any field of a loaded platform without writing a new file, e.g. a GPU with twice the L2.
//
// Keys:
//   gpu.<path>=V    every node GPU's spec          gpu.memory.dram_bandwidth_gb_per_s=8000, gpu.sm.lanes.fp32=256
//   gpu<N>.<path>=V node GPU N's spec only          gpu1.memory.l2_bytes=104857600
//   node.<path>=V   the node itself                 node.host.api_call_overhead_us=3,
//                                                   node.nvlinks[0].link_count=12 (without [0]: every bundle)
// <path> is proto field names joined by '.' (see field_setter.h); values parse by the field's type.
#include <string>
#include <vector>

#include "platform.pb.h"

namespace warpsim::platform {

/// Applies one "KEY=VALUE" to `node` and `gpus` (gpus[i]: node GPU i's spec).
/// Throws PlatformError "--set KEY=VALUE: problem" for a malformed, unknown or unsettable key or a bad value.
void apply_override(const std::string& assignment, NodeSpec& node, std::vector<GpuSpec>& gpus);

}  // namespace warpsim::platform
