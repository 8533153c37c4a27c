#include "kernel_view.h"

namespace warpsim::models {

KernelView KernelView::of(const KernelLaunch& launch, uint32_t recorded_l2_slices) {
  KernelLaunch copy = launch;
  // The predictive rule: what a model cannot see, it cannot fit to.
  copy.clear_start_ns();
  copy.clear_end_ns();
  // Which launch this is (its device, stream, call, graph node, context) is the replay's business, not the model's:
  // without it, two launches that do the same work are the same view (MemoizedModel relies on it).
  copy.clear_device_id();
  copy.clear_stream_id();
  copy.clear_correlation_id();
  copy.clear_graph_id();
  copy.clear_graph_node_id();
  copy.clear_context_id();
  return KernelView(std::move(copy), recorded_l2_slices);
}

KernelView KernelView::without_remote_traffic() const {
  KernelView local = *this;
  if (!local.launch_.has_counters()) return local;
  MemoryTraffic& memory = *local.launch_.mutable_counters()->mutable_memory();
  memory.clear_l2_peer_sectors();
  memory.clear_nvlink_rx_bytes();
  memory.clear_nvlink_tx_bytes();
  memory.clear_pcie_read_bytes();
  memory.clear_pcie_write_bytes();
  return local;
}

}  // namespace warpsim::models
