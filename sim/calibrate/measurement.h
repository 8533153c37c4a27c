#pragma once
// One value `warpsim calibrate` measured (or read from the device's properties), with where it came from: the
// comment the written GPU file carries beside it.
#include <string>
#include <vector>

namespace warpsim::calibrate {

struct Measurement {
  std::string field;   // dotted GpuSpec path, as `--set` takes it: "memory.l2_bandwidth_gb_per_s"
  std::string value;   // as text, parsed by the field's type
  std::string source;  // "MEASURED ...", "DEVICE PROPERTY ...": the comment beside the value
};

using Measurements = std::vector<Measurement>;

}  // namespace warpsim::calibrate
