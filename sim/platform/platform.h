#pragma once
// A platform ready for the replay: a node file with its GPU specs resolved and --set overrides applied, checked.
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "platform.pb.h"

namespace warpsim::platform {

/// Bad platform input. The message is one line naming where: "FILE:LINE: FIELD: problem" when a line is known.
class PlatformError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Platform {
  std::filesystem::path node_file;     // the node file it was loaded from
  NodeSpec node;                       // as written, overrides applied
  std::vector<GpuSpec> gpus;           // gpus[i]: the spec of node GPU i, overrides applied
  std::vector<std::string> overrides;  // the --set key=value strings, as given
  // Every spec of the gpus/ folder by the CUDA device names it lists (GpuSpec.device_names), as written: what a
  // recording's device was, whose counters a trace holds.
  std::map<std::string, GpuSpec> gpus_by_device_name;
};

/// Where shipped platforms live: $WARPSIM_PLATFORMS if set, else share/warpsim/platforms beside the running program's
/// bin/ (an installed warpsim: `cmake --install`), else the source tree's platforms/ folder (a build tree).
std::filesystem::path default_platforms_root();

/// Loads a node by file path or by name (`h100-pcie` -> PLATFORMS_ROOT/nodes/h100-pcie.textproto), resolves its GPUs
/// from the gpus/ folder beside nodes/, applies overrides in order and validates the result.
/// Throws PlatformError naming the file, line and field of the first problem.
Platform load_platform(const std::string& node_file_or_name, const std::vector<std::string>& overrides = {},
                       const std::filesystem::path& platforms_root = default_platforms_root());

/// Per-direction bandwidth of a PCIe link: its bandwidth_gb_per_s when set, else derived from generation and lanes.
double pcie_bandwidth_gb_per_s(const PcieLink& link);

}  // namespace warpsim::platform
