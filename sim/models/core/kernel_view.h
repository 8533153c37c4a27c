#pragma once
// What a model may see of one kernel launch.
//
// The predictive rule (DESIGN.md): a model predicts from the launch configuration, the counters and the GPU spec,
// never from the kernel's recorded duration. KernelView enforces it: it holds a copy of the launch with its times
// cleared, so no model can read them. It also clears what tells one launch from another (device, stream,
// correlation, graph node, context): a model sees what the launch does, so equal work gives equal views.
#include <cstdint>
#include <utility>

#include "trace.pb.h"

namespace warpsim::models {

class KernelView {
 public:
  /// A view of `launch` without start_ns/end_ns and without its identity (device, stream, correlation, graph, context).
  /// `recorded_l2_slices`: the L2 slices of the GPU the counters were recorded on, whose busiest-slice counters they
  /// are (0: unknown, taken as the target GPU's).
  static KernelView of(const KernelLaunch& launch, uint32_t recorded_l2_slices = 0);
  /// The same launch with its remote traffic taken out (the peer aperture's sectors, NVLink's and PCIe's bytes): what
  /// the kernel's SMs do with its local data alone. The replay runs a kernel's remote and local work apart when its
  /// traffic profile says they ran apart (traffic_overlap.h); its local phase is this view's time, since a model's
  /// time for the whole kernel already waits on its remote loads.
  KernelView without_remote_traffic() const;
  const KernelLaunch& launch() const { return launch_; }
  uint32_t recorded_l2_slices() const { return recorded_l2_slices_; }
  /// Whether the launch has the counters a model's equations need: its instruction mix (warp instructions or pipes).
  /// A launch that only one other group measured (the `cache` group's DRAM bytes, links, tensor ops) has not; the
  /// models then estimate it from the launch configuration and whatever bytes it carries (prediction_shape.h).
  bool has_counters() const {
    return launch_.has_counters() && (launch_.counters().has_warp_instructions() || launch_.counters().has_pipes());
  }

 private:
  KernelView(KernelLaunch launch, uint32_t recorded_l2_slices)
      : launch_(std::move(launch)), recorded_l2_slices_(recorded_l2_slices) {}
  KernelLaunch launch_;
  uint32_t recorded_l2_slices_ = 0;
};

}  // namespace warpsim::models
