// Rules for a NodeSpec's GPUs, links and host. Topology rules (switch parents, reachability) are in
// topology_validation.cc.
#include <set>
#include <string>

#include "validation.h"

namespace warpsim::platform {
namespace {

constexpr std::uint32_t kMaxPcieGeneration = 6;
constexpr std::uint32_t kMaxPcieLanes = 32;

std::set<std::string> switch_names(const NodeSpec& node) {
  std::set<std::string> names;
  for (const PcieSwitch& pcie_switch : node.pcie_switches()) names.insert(pcie_switch.name());
  return names;
}

/// A GPU id used by a link or the NVSwitch must name one of the node's GPUs.
void check_gpu_id(std::uint32_t id, const NodeSpec& node, const FieldPath& field, IssueList& issues) {
  if (id >= static_cast<std::uint32_t>(node.gpus_size())) {
    issues.add(field, "GPU " + std::to_string(id) + " does not exist (the node has GPUs 0.." +
                          std::to_string(node.gpus_size() - 1) + ")");
  }
}

void check_gpus(const NodeSpec& node, IssueList& issues) {
  if (node.gpus_size() == 0) issues.add({{"gpus"}}, "a node needs at least one GPU");
  const std::set<std::string> switches = switch_names(node);
  for (int i = 0; i < node.gpus_size(); ++i) {
    const NodeGpu& gpu = node.gpus(i);
    const FieldPath at{{"gpus", i}};
    // Trace device i replays on node GPU i, so the ids are the positions.
    if (gpu.id() != static_cast<std::uint32_t>(i)) {
      issues.add(at.then("id"),
                 "must be " + std::to_string(i) + ": ids run 0..n-1 in file order, is " + std::to_string(gpu.id()));
    }
    if (gpu.gpu().empty()) issues.add(at.then("gpu"), "must name a GPU spec (GpuSpec.name)");
    if (!gpu.attach().empty() && switches.count(gpu.attach()) == 0) {
      issues.add(at.then("attach"), "no PCIe switch named \"" + gpu.attach() + "\" in pcie_switches");
    }
    if (gpu.has_pcie()) {
      check_pcie_link(gpu.pcie(), at.then("pcie"), issues);
    } else if (!gpu.attach().empty()) {
      issues.add(at.then("attach"), "names a switch but the GPU has no pcie link");
    }
  }
}

void check_nvlinks(const NodeSpec& node, IssueList& issues) {
  for (int i = 0; i < node.nvlinks_size(); ++i) {
    const NvlinkConnection& link = node.nvlinks(i);
    const FieldPath at{{"nvlinks", i}};
    check_gpu_id(link.gpu_a(), node, at.then("gpu_a"), issues);
    check_gpu_id(link.gpu_b(), node, at.then("gpu_b"), issues);
    if (link.gpu_a() == link.gpu_b()) {
      issues.add(at.then("gpu_b"), "links GPU " + std::to_string(link.gpu_a()) + " to itself");
    }
    issues.positive(at.then("link_count"), link.link_count());
    issues.positive(at.then("per_link_bandwidth_gb_per_s"), link.per_link_bandwidth_gb_per_s());
    issues.non_negative(at.then("latency_ns"), link.latency_ns());
  }
}

void check_nvswitch(const NodeSpec& node, IssueList& issues) {
  if (!has_nvswitch(node)) return;
  const NvSwitch& nvswitch = node.nvswitch();
  const FieldPath at{{"nvswitch"}};
  if (nvswitch.gpus_size() == 0) issues.add(at.then("gpus"), "an NVSwitch needs the GPUs attached to it");
  std::set<std::uint32_t> seen;
  for (int i = 0; i < nvswitch.gpus_size(); ++i) {
    check_gpu_id(nvswitch.gpus(i), node, at.then("gpus", i), issues);
    if (!seen.insert(nvswitch.gpus(i)).second) {
      issues.add(at.then("gpus", i), "GPU " + std::to_string(nvswitch.gpus(i)) + " is listed twice");
    }
  }
  issues.positive(at.then("links_per_gpu"), nvswitch.links_per_gpu());
  issues.positive(at.then("per_link_bandwidth_gb_per_s"), nvswitch.per_link_bandwidth_gb_per_s());
  issues.non_negative(at.then("latency_ns"), nvswitch.latency_ns());
}

void check_host(const NodeSpec& node, IssueList& issues) {
  const FieldPath at{{"host"}};
  issues.positive(at.then("memory_bandwidth_gb_per_s"), node.host().memory_bandwidth_gb_per_s());
  issues.positive(at.then("pageable_copy_bandwidth_gb_per_s"), node.host().pageable_copy_bandwidth_gb_per_s());
  issues.non_negative(at.then("api_call_overhead_us"), node.host().api_call_overhead_us());
  issues.non_negative(at.then("copy_to_device_fixed_ns"), node.host().copy_to_device_fixed_ns());
  issues.non_negative(at.then("copy_to_host_fixed_ns"), node.host().copy_to_host_fixed_ns());
  issues.non_negative(at.then("memset_fixed_ns"), node.host().memset_fixed_ns());
  issues.non_negative(at.then("pageable_copy_to_device_gb_per_s"), node.host().pageable_copy_to_device_gb_per_s());
  issues.non_negative(at.then("pageable_copy_to_host_gb_per_s"), node.host().pageable_copy_to_host_gb_per_s());
  issues.non_negative(at.then("device_copy_fixed_ns"), node.host().device_copy_fixed_ns());
  issues.non_negative(at.then("peer_copy_fixed_ns"), node.host().peer_copy_fixed_ns());
}

}  // namespace

void check_pcie_link(const PcieLink& link, const FieldPath& field, IssueList& issues) {
  issues.non_negative(field.then("latency_ns"), link.latency_ns());
  if (link.bandwidth_gb_per_s() != 0.0) {
    issues.positive(field.then("bandwidth_gb_per_s"), link.bandwidth_gb_per_s());
    return;
  }
  // bandwidth_gb_per_s 0 means "derive it": generation and lanes must then be usable (pcie.cc).
  if (link.generation() < 1 || link.generation() > kMaxPcieGeneration) {
    issues.add(field.then("generation"),
               "must be 1..6 when bandwidth_gb_per_s is not given, is " + std::to_string(link.generation()));
  }
  if (link.lanes() < 1 || link.lanes() > kMaxPcieLanes) {
    issues.add(field.then("lanes"),
               "must be 1..32 when bandwidth_gb_per_s is not given, is " + std::to_string(link.lanes()));
  }
}

std::vector<Issue> check_node(const NodeSpec& node) {
  IssueList issues;
  check_gpus(node, issues);
  check_host(node, issues);
  check_topology(node, issues);
  check_nvlinks(node, issues);
  check_nvswitch(node, issues);
  return issues.issues();
}

}  // namespace warpsim::platform
