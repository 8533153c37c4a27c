// Rules about how a node's parts connect: PCIe switches form a tree under the host's root complex, and every GPU can
// be reached, by PCIe from the host or by NVLink/NVSwitch from another GPU.
#include <map>
#include <set>
#include <string>

#include "validation.h"

namespace warpsim::platform {
namespace {

/// Switch name -> its index in pcie_switches (the first, when a name repeats: that is reported separately).
std::map<std::string, int> index_switches(const NodeSpec& node) {
  std::map<std::string, int> by_name;
  for (int i = 0; i < node.pcie_switches_size(); ++i) by_name.emplace(node.pcie_switches(i).name(), i);
  return by_name;
}

void check_switch(const NodeSpec& node, int i, const std::map<std::string, int>& by_name, IssueList& issues) {
  const PcieSwitch& pcie_switch = node.pcie_switches(i);
  const FieldPath at{{"pcie_switches", i}};
  if (pcie_switch.name().empty()) issues.add(at.then("name"), "must be set: GPUs attach to a switch by name");
  if (by_name.at(pcie_switch.name()) != i) {
    issues.add(at.then("name"), "\"" + pcie_switch.name() + "\" names two switches");
  }
  if (!pcie_switch.parent().empty() && by_name.count(pcie_switch.parent()) == 0) {
    issues.add(at.then("parent"), "no PCIe switch named \"" + pcie_switch.parent() + "\"");
  }
  if (pcie_switch.has_uplink()) {
    check_pcie_link(pcie_switch.uplink(), at.then("uplink"), issues);
  } else {
    issues.add(at.then("uplink"), "must be set: the link from the switch to its parent");
  }
}

/// Walks parents from switch i; more steps than there are switches means the walk is going round.
bool reaches_root(const NodeSpec& node, int i, const std::map<std::string, int>& by_name) {
  int current = i;
  for (int steps = 0; steps <= node.pcie_switches_size(); ++steps) {
    const std::string& parent = node.pcie_switches(current).parent();
    if (parent.empty()) return true;
    const auto found = by_name.find(parent);
    if (found == by_name.end()) return true;  // a missing parent is reported by check_switch
    current = found->second;
  }
  return false;
}

/// GPUs with an NVLink bundle or an NVSwitch port.
std::set<std::uint32_t> linked_gpus(const NodeSpec& node) {
  std::set<std::uint32_t> linked;
  for (const NvlinkConnection& link : node.nvlinks()) {
    linked.insert(link.gpu_a());
    linked.insert(link.gpu_b());
  }
  if (has_nvswitch(node)) linked.insert(node.nvswitch().gpus().begin(), node.nvswitch().gpus().end());
  return linked;
}

}  // namespace

bool has_nvswitch(const NodeSpec& node) {
  return node.nvswitch().gpus_size() > 0 || node.nvswitch().links_per_gpu() > 0;
}

void check_topology(const NodeSpec& node, IssueList& issues) {
  const std::map<std::string, int> by_name = index_switches(node);
  for (int i = 0; i < node.pcie_switches_size(); ++i) {
    check_switch(node, i, by_name, issues);
    if (!reaches_root(node, i, by_name)) {
      issues.add({{"pcie_switches", i}, {"parent"}},
                 "switch parents form a cycle: \"" + node.pcie_switches(i).name() + "\" never reaches the host");
    }
  }
  // A GPU with neither a PCIe link nor a GPU link could receive no work and no data.
  const std::set<std::uint32_t> linked = linked_gpus(node);
  for (int i = 0; i < node.gpus_size(); ++i) {
    if (!node.gpus(i).has_pcie() && linked.count(static_cast<std::uint32_t>(i)) == 0) {
      issues.add({{"gpus", i}}, "GPU " + std::to_string(i) + " is unreachable: no pcie link, NVLink or NVSwitch port");
    }
  }
}

}  // namespace warpsim::platform
