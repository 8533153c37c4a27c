// PCIe bandwidth: an explicit bandwidth wins; otherwise per-lane rate x lanes (platforms/README.md).
#include <gtest/gtest.h>

#include "platform.h"
#include "spec_builders.h"

namespace warpsim::platform {
namespace {

using testing::pcie_link;

TEST(PcieBandwidth, ExplicitBandwidthIsUsedAsGiven) {
  PcieLink link = pcie_link(5, 16);
  link.set_bandwidth_gb_per_s(52.8);
  EXPECT_DOUBLE_EQ(pcie_bandwidth_gb_per_s(link), 52.8);
}

TEST(PcieBandwidth, PerLaneRatesFollowEachGenerationsEncoding) {
  EXPECT_DOUBLE_EQ(pcie_bandwidth_gb_per_s(pcie_link(1, 1)), 0.25);
  EXPECT_DOUBLE_EQ(pcie_bandwidth_gb_per_s(pcie_link(2, 1)), 0.5);
  EXPECT_NEAR(pcie_bandwidth_gb_per_s(pcie_link(3, 1)), 0.985, 0.001);
  EXPECT_NEAR(pcie_bandwidth_gb_per_s(pcie_link(4, 1)), 1.969, 0.001);
  EXPECT_NEAR(pcie_bandwidth_gb_per_s(pcie_link(5, 1)), 3.938, 0.001);
  EXPECT_NEAR(pcie_bandwidth_gb_per_s(pcie_link(6, 1)), 7.563, 0.001);
}

TEST(PcieBandwidth, ScalesWithLanes) {
  EXPECT_DOUBLE_EQ(pcie_bandwidth_gb_per_s(pcie_link(2, 16)), 8.0);
  EXPECT_NEAR(pcie_bandwidth_gb_per_s(pcie_link(3, 16)), 15.754, 0.001);
  EXPECT_NEAR(pcie_bandwidth_gb_per_s(pcie_link(5, 16)), 63.015, 0.001);
}

TEST(PcieBandwidth, UnknownGenerationWithoutBandwidthThrows) {
  EXPECT_THROW(pcie_bandwidth_gb_per_s(pcie_link(7, 16)), PlatformError);
  EXPECT_THROW(pcie_bandwidth_gb_per_s(pcie_link(0, 16)), PlatformError);
}

}  // namespace
}  // namespace warpsim::platform
