#pragma once
// What the CUDA driver reports of the device (cudaGetDeviceProperties, as the tracer records it in every trace's
// header): counts, sizes and limits, taken as they are.
#include "measurement.h"
#include "trace.pb.h"

namespace warpsim::calibrate {

/// The GpuSpec fields a Device gives (compute capability, SM count and clock, the SM's limits, L2 and DRAM size,
/// the driver's DRAM bandwidth), each with a "DEVICE PROPERTY" comment; fields the device left out are left out.
Measurements device_values(const Device& device);

}  // namespace warpsim::calibrate
