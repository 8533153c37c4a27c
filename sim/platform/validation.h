#pragma once
// The rules a GPU spec and a node must meet before a replay can use them. Checks report every issue they find, in
// file order where possible; callers report the first (see platform.cc for how issues become messages).
#include <vector>

#include "issues.h"
#include "platform.pb.h"

namespace warpsim::platform {

/// Rules for one GPU on its own: positive sizes, clocks, counts and rates; dram_efficiency in (0, 1]; launch_fits
/// in increasing block_warps with non-negative costs.
std::vector<Issue> check_gpu(const GpuSpec& gpu);

/// Rules for a node's wiring: GPU ids 0..n-1, links and switches that name existing GPUs and switches, no switch
/// cycles, every GPU reachable, host numbers positive. Which GpuSpec a name means is checked when resolving.
std::vector<Issue> check_node(const NodeSpec& node);

/// Whether the node has an NVSwitch: the schema's rule is "unset when no gpus are listed and links_per_gpu is 0".
bool has_nvswitch(const NodeSpec& node);

/// Part of check_node: PCIe switch parents and GPU reachability.
void check_topology(const NodeSpec& node, IssueList& issues);

/// Part of check_node: one PCIe link (a GPU's or a switch's uplink).
void check_pcie_link(const PcieLink& link, const FieldPath& field, IssueList& issues);

}  // namespace warpsim::platform
