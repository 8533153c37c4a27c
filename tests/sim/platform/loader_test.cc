// load_platform on scratch folders: resolution by name and path, and errors that name FILE:LINE: FIELD.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "platform.h"
#include "spec_builders.h"
#include "temp_platform_dir.h"

namespace warpsim::platform {
namespace {

using testing::h100_like;
using ::testing::HasSubstr;
using testing::line_containing;
using testing::nvlink_pair;
using testing::pcie_node;
using testing::replace_once;
using ::testing::StartsWith;
using testing::TempPlatformDir;
using testing::to_text;

class Loader : public ::testing::Test {
 protected:
  TempPlatformDir dir;
  std::string gpu_text = to_text(h100_like("TestGPU"));

  void SetUp() override { dir.write_gpu("test-gpu", gpu_text); }

  /// The PlatformError message of loading node text `node_text` ("" when it loads).
  std::string error_loading(const std::string& node_text, const std::vector<std::string>& overrides = {}) {
    const std::filesystem::path path = dir.write_node("node", node_text);
    try {
      load_platform(path.string(), overrides, dir.root());
    } catch (const PlatformError& error) {
      return error.what();
    }
    return "";
  }

  /// "ROOT/nodes/node.textproto:LINE: FIELD:", how a node-file error starts.
  std::string node_error_start(int line, const std::string& field) const {
    return (dir.root() / "nodes" / "node.textproto").string() + ":" + std::to_string(line) + ": " + field + ":";
  }
};

TEST_F(Loader, LoadsANodeByPath) {
  const std::filesystem::path path = dir.write_node("pair", to_text(nvlink_pair()));
  const Platform platform = load_platform(path.string(), {}, dir.root());
  EXPECT_EQ(platform.node_file, path);
  ASSERT_EQ(platform.gpus.size(), 2u);
  EXPECT_EQ(platform.gpus[1].name(), "TestGPU");
}

// Every spec of the gpus/ folder is known by the CUDA names it lists, node or not, as written (overrides are the
// target's): what a recording's device was.
TEST_F(Loader, KnowsEveryGpuFileByItsDeviceNames) {
  GpuSpec other = h100_like("OtherGPU");
  other.add_device_names("NVIDIA Other");
  other.add_device_names("Other");
  other.mutable_memory()->set_l2_slices(94);
  dir.write_gpu("other-gpu", to_text(other));
  const std::filesystem::path path = dir.write_node("pair", to_text(nvlink_pair()));
  const Platform platform = load_platform(path.string(), {"gpu.memory.l2_slices=7"}, dir.root());
  ASSERT_EQ(platform.gpus_by_device_name.count("NVIDIA Other"), 1u);
  EXPECT_EQ(platform.gpus_by_device_name.at("Other").name(), "OtherGPU");
  EXPECT_EQ(platform.gpus_by_device_name.at("NVIDIA Other").memory().l2_slices(), 94u);
  EXPECT_EQ(platform.gpus[0].memory().l2_slices(), 7u);
}

TEST_F(Loader, LoadsANodeByBareNameFromTheRoot) {
  dir.write_node("pair", to_text(nvlink_pair()));
  EXPECT_EQ(load_platform("pair", {}, dir.root()).node.nvlinks_size(), 1);
}

TEST_F(Loader, MissingNodeFileNamesThePath) {
  const std::string missing = (dir.root() / "nodes" / "absent.textproto").string();
  try {
    load_platform(missing, {}, dir.root());
    FAIL() << "no error";
  } catch (const PlatformError& error) {
    EXPECT_THAT(error.what(), StartsWith(missing + ": no such file"));
  }
}

TEST_F(Loader, MissingBareNameListsKnownNodes) {
  dir.write_node("pair", to_text(nvlink_pair()));
  try {
    load_platform("absent", {}, dir.root());
    FAIL() << "no error";
  } catch (const PlatformError& error) {
    EXPECT_THAT(error.what(), HasSubstr("absent.textproto: no such node file (known nodes: pair)"));
  }
}

TEST_F(Loader, SyntaxErrorNamesFileAndLine) {
  const std::string text = replace_once(to_text(pcie_node(1)), "lanes: 16", "lanes 16 {");
  const std::string node_file = (dir.root() / "nodes" / "node.textproto").string();
  EXPECT_THAT(error_loading(text),
              StartsWith(node_file + ":" + std::to_string(line_containing(text, "lanes 16")) + ": "));
}

TEST_F(Loader, UnknownFieldNamesFileLineAndField) {
  const std::string text = replace_once(to_text(pcie_node(1)), "lanes: 16", "lanes: 16\n    width: 3");
  const std::string error = error_loading(text);
  EXPECT_THAT(error, HasSubstr("node.textproto:" + std::to_string(line_containing(text, "width: 3")) + ":"));
  EXPECT_THAT(error, HasSubstr("\"width\""));
}

TEST_F(Loader, UnknownGpuNameListsKnownNames) {
  const std::string text = replace_once(to_text(pcie_node(1)), "\"TestGPU\"", "\"B300\"");
  const std::string error = error_loading(text);
  EXPECT_THAT(error, StartsWith(node_error_start(line_containing(text, "B300"), "gpus[0].gpu")));
  EXPECT_THAT(error, HasSubstr("unknown GPU \"B300\" (known: TestGPU)"));
}

TEST_F(Loader, GpuFileErrorNamesTheGpuFileLine) {
  const std::string bad_gpu = replace_once(gpu_text, "sm_count: 132", "sm_count: 0");
  const std::filesystem::path gpu_file = dir.write_gpu("test-gpu", bad_gpu);
  const std::string error = error_loading(to_text(pcie_node(1)));
  EXPECT_THAT(error, StartsWith(gpu_file.string() + ":" + std::to_string(line_containing(bad_gpu, "sm_count: 0")) +
                                ": sm_count: must be > 0"));
}

TEST_F(Loader, DramEfficiencyOutOfRangeNamesItsLine) {
  const std::string bad_gpu = replace_once(gpu_text, "dram_efficiency: 0.92", "dram_efficiency: 1.5");
  const std::filesystem::path gpu_file = dir.write_gpu("test-gpu", bad_gpu);
  EXPECT_THAT(error_loading(to_text(pcie_node(1))),
              StartsWith(gpu_file.string() + ":" + std::to_string(line_containing(bad_gpu, "dram_efficiency")) +
                         ": memory.dram_efficiency:"));
}

TEST_F(Loader, NodeIdOutOfOrderNamesItsLine) {
  NodeSpec node = pcie_node(2);
  node.mutable_gpus(1)->set_id(7);
  const std::string text = to_text(node);
  EXPECT_THAT(error_loading(text), StartsWith(node_error_start(line_containing(text, "id: 7"), "gpus[1].id")));
}

TEST_F(Loader, NvlinkToMissingGpuNamesItsLine) {
  NodeSpec node = nvlink_pair();
  node.mutable_nvlinks(0)->set_gpu_b(5);
  const std::string text = to_text(node);
  EXPECT_THAT(error_loading(text), StartsWith(node_error_start(line_containing(text, "gpu_b: 5"), "nvlinks[0].gpu_b")));
}

TEST_F(Loader, AttachToMissingSwitchNamesItsLine) {
  NodeSpec node = pcie_node(1);
  node.mutable_gpus(0)->set_attach("nowhere");
  const std::string text = to_text(node);
  EXPECT_THAT(error_loading(text), StartsWith(node_error_start(line_containing(text, "nowhere"), "gpus[0].attach")));
}

TEST_F(Loader, SwitchCycleNamesTheParentLine) {
  const std::string text = to_text(pcie_node(1)) +
                           "pcie_switches {\n  name: \"a\"\n  parent: \"b\"\n  uplink { generation: 5 lanes: 16 }\n}\n"
                           "pcie_switches {\n  name: \"b\"\n  parent: \"a\"\n  uplink { generation: 5 lanes: 16 }\n}\n";
  const std::string error = error_loading(text);
  EXPECT_THAT(error, StartsWith(node_error_start(line_containing(text, "parent: \"b\""), "pcie_switches[0].parent")));
  EXPECT_THAT(error, HasSubstr("cycle"));
}

TEST_F(Loader, UnreachableGpuNamesItsBlock) {
  NodeSpec host_only = pcie_node(0);
  const std::string text =
      "gpus {\n  gpu: \"TestGPU\"\n  pcie { generation: 5 lanes: 16 }\n}\n"
      "gpus {  # no pcie, no link\n  id: 1\n  gpu: \"TestGPU\"\n}\n" +
      to_text(host_only);
  EXPECT_THAT(error_loading(text), StartsWith(node_error_start(line_containing(text, "# no pcie"), "gpus[1]")));
}

TEST_F(Loader, NegativePcieBandwidthNamesItsLine) {
  NodeSpec node = pcie_node(1);
  node.mutable_gpus(0)->mutable_pcie()->set_bandwidth_gb_per_s(-3);
  const std::string text = to_text(node);
  EXPECT_THAT(error_loading(text), StartsWith(node_error_start(line_containing(text, "bandwidth_gb_per_s: -3"),
                                                               "gpus[0].pcie.bandwidth_gb_per_s")));
}

TEST_F(Loader, TwoGpuFilesWithOneNameAreRejected) {
  dir.write_gpu("copy", gpu_text);
  EXPECT_THAT(error_loading(to_text(pcie_node(1))), HasSubstr("\"TestGPU\" is also the name in"));
}

TEST_F(Loader, OverrideThatBreaksARuleNamesTheOverride) {
  EXPECT_EQ(error_loading(to_text(pcie_node(2)), {"gpu.sm_count=0"}),
            "--set gpu.sm_count=0: gpu0.sm_count: must be > 0, is 0");
}

TEST_F(Loader, OverrideOnTheNodeIsCheckedToo) {
  EXPECT_THAT(error_loading(to_text(nvlink_pair()), {"node.nvlinks[0].gpu_b=9"}),
              StartsWith("--set node.nvlinks[0].gpu_b=9: node.nvlinks[0].gpu_b: GPU 9 does not exist"));
}

TEST_F(Loader, RoundTripReadsOverriddenValuesBack) {
  const std::filesystem::path path = dir.write_node("pair", to_text(nvlink_pair()));
  const std::vector<std::string> overrides = {"gpu.memory.dram_bandwidth_gb_per_s=8000",
                                              "gpu1.memory.l2_bytes=104857600", "node.nvlinks[0].link_count=12"};
  const Platform platform = load_platform(path.string(), overrides, dir.root());
  EXPECT_DOUBLE_EQ(platform.gpus[0].memory().dram_bandwidth_gb_per_s(), 8000);
  EXPECT_DOUBLE_EQ(platform.gpus[1].memory().dram_bandwidth_gb_per_s(), 8000);
  EXPECT_EQ(platform.gpus[0].memory().l2_bytes(), 52428800u);
  EXPECT_EQ(platform.gpus[1].memory().l2_bytes(), 104857600u);
  EXPECT_EQ(platform.node.nvlinks(0).link_count(), 12u);
  EXPECT_EQ(platform.overrides, overrides);
}

}  // namespace
}  // namespace warpsim::platform
