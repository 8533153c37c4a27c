#pragma once
// What one GPU operation asks of the node, in platform terms: a setup delay, work on a GPU's SMs, and transfers
// between topology vertices, all running together once the setup is over. Pure: no SimGrid.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "kernel_model.h"
#include "platform.h"
#include "platform.pb.h"
#include "topology.h"
#include "trace.pb.h"

namespace warpsim::replay {

struct Transfer {
  std::size_t from = 0, to = 0;  // topology vertices (SimGrid hosts)
  std::uint64_t bytes = 0;
  bool remote = false;  // a kernel's access to a peer GPU's or the host's memory
};

struct OpWork {
  double setup_s = 0;              // first part of the operation (a kernel's GPU-side launch cost), before the rest
  std::size_t sm_vertex = 0;       // where sm_time_s runs
  double sm_time_s = 0;            // per SM, on sms_used SMs
  std::uint32_t sms_used = 1;
  std::vector<Transfer> transfers;
  std::optional<std::size_t> copy_engine;  // a copy: the engine it needs (held while it runs)
  // A kernel's share of its remote and of its local work that did not overlap in time (serial_share, from its
  // recorded traffic profile): that share of the remote transfers runs alone, then that share of the SM work and local
  // transfers, after the rest has run together. 0: everything together (no profile: the assumption).
  double serial_share = 0;
  // The SM time of the kernel's local work alone (the model's time for its view without remote traffic), which the
  // serial share's local phase runs: the whole kernel's sm_time_s also waits on its remote loads, which the remote
  // phase's transfers already take. Unset: sm_time_s.
  std::optional<double> local_sm_time_s;
};

/// The (from, to) vertex pairs the transfers of `work` use, each once: the only routes the replay needs.
std::vector<std::pair<std::size_t, std::size_t>> transfer_routes(const std::vector<OpWork>& work);

/// A kernel on node GPU `gpu`: the model's SM time and its bytes over DRAM, L2, peers' memory and host memory.
/// Peer bytes are split evenly over `peers` (the GPUs it can access); none: they are dropped. `serial_share` and
/// `local_sm_time_s` (default: the prediction's SM time) as in OpWork; they apply only when the kernel has both remote
/// and local work.
OpWork kernel_op_work(const models::KernelPrediction& prediction, const Topology& topology, std::uint32_t gpu,
                      const std::vector<std::uint32_t>& peers, double serial_share = 0,
                      std::optional<double> local_sm_time_s = std::nullopt);

/// A copy along its route: host (pinned or pageable), a GPU's memory, or two GPUs' memories. A copy between host and
/// GPU first pays the node's measured fixed cost of a copy in that direction, less the latency its route already adds.
/// A pageable copy moves its first chunk on the pinned route and the rest through the staging buffer, side by side. A
/// copy within one GPU pays the measured fixed cost of such a copy, then reads and writes its DRAM at the GPU's
/// measured in-GPU copy rate where known (else twice its bytes at the DRAM link's rate).
OpWork memcpy_work(const Memcpy& copy, const Topology& topology, const platform::Platform& platform);

/// A memset pays the node's measured fixed cost of a memset, then writes its bytes into the GPU's DRAM at the GPU's
/// measured memset rate where known.
OpWork memset_work(const Memset& memset, const Topology& topology, const platform::Platform& platform);

}  // namespace warpsim::replay
