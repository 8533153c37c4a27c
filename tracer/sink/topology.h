#pragma once
/// @brief Gathers what CUPTI (DEVICE, NVLINK, PCIE records) and the driver say about the devices and the links
/// between them, and turns it into the header's devices and links. Pure: no CUDA.

#include <map>
#include <vector>

#include "sink/activity_records.h"
#include "trace.pb.h"

namespace warpsim::tracer {

class Topology {
 public:
  void add(const DeviceActivity& device) { devices_[device.id] = device; }
  void add(const NvLinkActivity& link) { nvlinks_.push_back(link); }
  void add(const PcieActivity& link) { pcie_[link.device_id] = link; }
  void add(const DriverDeviceInfo& info) { driver_[info.ordinal] = info; }

  /// Devices seen by CUPTI or the driver, by ordinal: each field from the DEVICE record where it has it, else from
  /// the driver; fields neither gives stay unset.
  std::vector<Device> devices() const;
  /// NVLink bundles between GPUs (or to NVSwitches) and each GPU's PCIe link to the host.
  std::vector<Link> links() const;

 private:
  std::optional<std::uint32_t> ordinal_of(const Uuid& uuid) const;
  std::optional<Endpoint> nvlink_endpoint(bool is_gpu, const Uuid& uuid, std::uint32_t npu_index) const;

  std::map<std::uint32_t, DeviceActivity> devices_;
  std::map<std::uint32_t, DriverDeviceInfo> driver_;
  std::vector<NvLinkActivity> nvlinks_;
  std::map<std::uint32_t, PcieActivity> pcie_;
};

/// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as nvidia-smi prints UUIDs.
std::string format_uuid(const Uuid& uuid);

}  // namespace warpsim::tracer
