#pragma once
/// @brief Reads from the CUDA driver what CUPTI's DEVICE records lack (memory clock, bus width, PCI bus id, peer
/// access) for every visible device.

#include <vector>

#include "sink/activity_records.h"

namespace warpsim::tracer {

/// Needs an initialized driver (call it from a context-created callback). Devices the driver cannot describe are
/// left out.
std::vector<DriverDeviceInfo> read_driver_devices();

/// The compute capability of device `ordinal` as major*10+minor (90 for H100), the architecture number fatbins
/// label their cubins with; nothing when the driver cannot say.
std::optional<std::uint32_t> device_architecture(std::uint32_t ordinal);

}  // namespace warpsim::tracer
