// PCIe link bandwidth from generation and lanes. Derivation and references: platforms/README.md, "PCIe bandwidth".
#include <string>

#include "platform.h"

namespace warpsim::platform {
namespace {

/// Usable data rate of one lane in one direction, GB/s: transfer rate (GT/s) x line-code efficiency / 8 bits.
/// Gen 1-2 use 8b/10b, gen 3-5 128b/130b; gen 6 sends 256-byte FLITs of which 242 bytes carry TLPs and DLLPs
/// (the other 14 are CRC and FEC), at 64 GT/s over PAM4.
double per_lane_gb_per_s(std::uint32_t generation) {
  switch (generation) {
    case 1: return 2.5 * (8.0 / 10.0) / 8.0;      // 0.25
    case 2: return 5.0 * (8.0 / 10.0) / 8.0;      // 0.5
    case 3: return 8.0 * (128.0 / 130.0) / 8.0;   // 0.985
    case 4: return 16.0 * (128.0 / 130.0) / 8.0;  // 1.969
    case 5: return 32.0 * (128.0 / 130.0) / 8.0;  // 3.938
    case 6: return 64.0 * (242.0 / 256.0) / 8.0;  // 7.563
    default: break;
  }
  throw PlatformError("PCIe generation " + std::to_string(generation) +
                      ": no known rate (1..6); set bandwidth_gb_per_s instead");
}

}  // namespace

double pcie_bandwidth_gb_per_s(const PcieLink& link) {
  if (link.bandwidth_gb_per_s() > 0) return link.bandwidth_gb_per_s();
  return per_lane_gb_per_s(link.generation()) * link.lanes();
}

}  // namespace warpsim::platform
