#pragma once
/// @brief Reads from the CUDA driver what CUPTI's DEVICE records lack (memory clock, bus width, PCI bus id, peer
/// access) for every visible device.

#include <vector>

#include "sink/activity_records.h"

namespace warpsim::tracer {

/// Needs an initialized driver (call it from a context-created callback). Devices the driver cannot describe are
/// left out.
std::vector<DriverDeviceInfo> read_driver_devices();

}  // namespace warpsim::tracer
