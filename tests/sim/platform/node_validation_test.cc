// check_node: ids, links, switches, reachability and host numbers, each on an otherwise valid node.
#include <gtest/gtest.h>

#include "issue_matchers.h"
#include "spec_builders.h"
#include "validation.h"

namespace warpsim::platform {
namespace {

using testing::names_field;
using testing::nvlink_pair;
using testing::pcie_link;
using testing::pcie_node;

PcieSwitch& add_switch(NodeSpec& node, const std::string& name, const std::string& parent = "") {
  PcieSwitch& pcie_switch = *node.add_pcie_switches();
  pcie_switch.set_name(name);
  pcie_switch.set_parent(parent);
  *pcie_switch.mutable_uplink() = pcie_link(5, 16);
  return pcie_switch;
}

TEST(NodeValidation, PcieAndNvlinkNodesHaveNoIssues) {
  EXPECT_TRUE(check_node(pcie_node(4)).empty());
  EXPECT_TRUE(check_node(nvlink_pair()).empty());
}

TEST(NodeValidation, NodeWithoutGpusIsAnIssue) { EXPECT_TRUE(names_field(check_node(pcie_node(0)), "gpus")); }

TEST(NodeValidation, GpuIdsMustRunInOrder) {
  NodeSpec node = pcie_node(2);
  node.mutable_gpus(1)->set_id(0);
  EXPECT_TRUE(names_field(check_node(node), "gpus[1].id"));
}

TEST(NodeValidation, NvlinkToMissingGpuIsAnIssue) {
  NodeSpec node = nvlink_pair();
  node.mutable_nvlinks(0)->set_gpu_b(2);
  EXPECT_TRUE(names_field(check_node(node), "nvlinks[0].gpu_b"));
}

TEST(NodeValidation, NvlinkFromGpuToItselfIsAnIssue) {
  NodeSpec node = nvlink_pair();
  node.mutable_nvlinks(0)->set_gpu_b(0);
  EXPECT_TRUE(names_field(check_node(node), "nvlinks[0].gpu_b"));
}

TEST(NodeValidation, NvlinkWithoutLinksIsAnIssue) {
  NodeSpec node = nvlink_pair();
  node.mutable_nvlinks(0)->set_link_count(0);
  EXPECT_TRUE(names_field(check_node(node), "nvlinks[0].link_count"));
}

TEST(NodeValidation, NvswitchPortToMissingGpuIsAnIssue) {
  NodeSpec node = pcie_node(2);
  node.mutable_nvswitch()->add_gpus(0);
  node.mutable_nvswitch()->add_gpus(3);
  node.mutable_nvswitch()->set_links_per_gpu(18);
  node.mutable_nvswitch()->set_per_link_bandwidth_gb_per_s(25);
  EXPECT_TRUE(names_field(check_node(node), "nvswitch.gpus[1]"));
}

TEST(NodeValidation, AttachToMissingSwitchIsAnIssue) {
  NodeSpec node = pcie_node(1);
  node.mutable_gpus(0)->set_attach("sw9");
  EXPECT_TRUE(names_field(check_node(node), "gpus[0].attach"));
}

TEST(NodeValidation, GpusOnSwitchTreeHaveNoIssues) {
  NodeSpec node = pcie_node(2);
  add_switch(node, "top");
  add_switch(node, "leaf", "top");
  node.mutable_gpus(0)->set_attach("leaf");
  node.mutable_gpus(1)->set_attach("top");
  EXPECT_TRUE(check_node(node).empty());
}

TEST(NodeValidation, SwitchParentCycleIsAnIssue) {
  NodeSpec node = pcie_node(1);
  add_switch(node, "a", "b");
  add_switch(node, "b", "a");
  EXPECT_TRUE(names_field(check_node(node), "pcie_switches[0].parent"));
}

TEST(NodeValidation, SwitchWithoutUplinkIsAnIssue) {
  NodeSpec node = pcie_node(1);
  add_switch(node, "a").clear_uplink();
  EXPECT_TRUE(names_field(check_node(node), "pcie_switches[0].uplink"));
}

TEST(NodeValidation, GpuWithNoPcieAndNoLinkIsUnreachable) {
  NodeSpec node = pcie_node(2);
  node.mutable_gpus(1)->clear_pcie();
  EXPECT_TRUE(names_field(check_node(node), "gpus[1]"));
}

TEST(NodeValidation, GpuReachedOnlyByNvlinkIsReachable) {
  NodeSpec node = nvlink_pair();
  node.mutable_gpus(1)->clear_pcie();
  EXPECT_TRUE(check_node(node).empty());
}

TEST(NodeValidation, NegativePcieBandwidthIsAnIssue) {
  NodeSpec node = pcie_node(1);
  node.mutable_gpus(0)->mutable_pcie()->set_bandwidth_gb_per_s(-1);
  EXPECT_TRUE(names_field(check_node(node), "gpus[0].pcie.bandwidth_gb_per_s"));
}

TEST(NodeValidation, DerivedPcieBandwidthNeedsAKnownGeneration) {
  NodeSpec node = pcie_node(1);
  node.mutable_gpus(0)->mutable_pcie()->set_generation(9);
  EXPECT_TRUE(names_field(check_node(node), "gpus[0].pcie.generation"));
}

TEST(NodeValidation, ZeroHostBandwidthIsAnIssue) {
  NodeSpec node = pcie_node(1);
  node.mutable_host()->set_memory_bandwidth_gb_per_s(0);
  EXPECT_TRUE(names_field(check_node(node), "host.memory_bandwidth_gb_per_s"));
}

}  // namespace
}  // namespace warpsim::platform
