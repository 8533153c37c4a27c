#pragma once
// A GPU file from measurements: the measured values and the device's properties over a base file (a shipped GPU of
// the same compute capability) for what calibration does not measure, each value with the comment that says where it
// comes from.
#include <map>
#include <string>
#include <vector>

#include "gpu_catalog.h"
#include "measurement.h"
#include "platform.pb.h"

namespace warpsim::calibrate {

struct CalibratedGpu {
  platform::GpuSpec spec;
  std::map<std::string, std::string> comments;   // dotted field path (no indices) -> where its value comes from
  std::vector<std::string> launch_fit_comments;  // one per spec.launch_fits element
  std::vector<std::string> header;               // the file's opening comment lines
};

/// The shipped GPU to start from: `chosen` by name; else the shipped file of the same GPU (listing `device_name`),
/// else a real GPU of compute capability `major`.`minor`, else the nearest of the same major. Throws
/// std::runtime_error when none fits (saying which exist).
const platform::CatalogEntry& choose_base(const platform::GpuCatalog& catalog, const std::string& device_name,
                                          std::uint32_t major, std::uint32_t minor, const std::string& chosen);

/// `base` with every measurement applied, named `name`, listing `device_name` as its CUDA name. Values left from
/// the base say so, with the base file's own comment. Throws std::runtime_error when a measurement names no field of
/// GpuSpec or the result breaks a rule of the platform checks (gpu_validation.cc).
CalibratedGpu calibrated_gpu(const platform::CatalogEntry& base, const Measurements& measurements,
                             const std::string& name, const std::string& device_name);

}  // namespace warpsim::calibrate
