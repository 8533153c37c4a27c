#pragma once
// The header of a simulated trace: the source's, with the devices and links of the platform it ran on and a
// SimulationInfo saying how it was made.
#include <string>

#include "platform.h"
#include "trace.pb.h"

namespace warpsim::replay {

TraceHeader simulated_header(const TraceHeader& source, const std::string& source_path,
                             const platform::Platform& platform, const std::string& model_name,
                             bool reuses_recorded_kernel_times);

}  // namespace warpsim::replay
