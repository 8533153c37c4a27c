// --set KEY=VALUE on resolved specs: which GPUs or node parts a key reaches, and its error messages.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "overrides.h"
#include "platform.h"
#include "spec_builders.h"

namespace warpsim::platform {
namespace {

using testing::h100_like;
using ::testing::HasSubstr;
using testing::nvlink_pair;
using ::testing::StartsWith;

class Overrides : public ::testing::Test {
 protected:
  NodeSpec node = nvlink_pair();
  std::vector<GpuSpec> gpus{h100_like(), h100_like()};

  /// The PlatformError message of applying `assignment` ("" when it applies).
  std::string error_of(const std::string& assignment) {
    try {
      apply_override(assignment, node, gpus);
    } catch (const PlatformError& error) {
      return error.what();
    }
    return "";
  }
};

TEST_F(Overrides, GpuKeyChangesEveryGpu) {
  apply_override("gpu.memory.dram_bandwidth_gb_per_s=8000", node, gpus);
  EXPECT_DOUBLE_EQ(gpus[0].memory().dram_bandwidth_gb_per_s(), 8000);
  EXPECT_DOUBLE_EQ(gpus[1].memory().dram_bandwidth_gb_per_s(), 8000);
}

TEST_F(Overrides, NumberedGpuKeyChangesOnlyThatGpu) {
  apply_override("gpu1.memory.l2_bytes=104857600", node, gpus);
  EXPECT_EQ(gpus[0].memory().l2_bytes(), 52428800u);
  EXPECT_EQ(gpus[1].memory().l2_bytes(), 104857600u);
}

TEST_F(Overrides, NestedLanesKey) {
  apply_override("gpu.sm.lanes.fp32=256", node, gpus);
  EXPECT_DOUBLE_EQ(gpus[1].sm().lanes().fp32(), 256);
}

TEST_F(Overrides, NodeKeyWithoutIndexChangesEveryElement) {
  apply_override("node.gpus.pcie.lanes=8", node, gpus);
  EXPECT_EQ(node.gpus(0).pcie().lanes(), 8u);
  EXPECT_EQ(node.gpus(1).pcie().lanes(), 8u);
}

TEST_F(Overrides, NodeKeyWithIndexChangesOneElement) {
  apply_override("node.gpus[1].pcie.generation=4", node, gpus);
  EXPECT_EQ(node.gpus(0).pcie().generation(), 5u);
  EXPECT_EQ(node.gpus(1).pcie().generation(), 4u);
  apply_override("node.nvlinks[0].link_count=12", node, gpus);
  EXPECT_EQ(node.nvlinks(0).link_count(), 12u);
}

TEST_F(Overrides, ErrorsNameTheAssignment) {
  EXPECT_THAT(error_of("gpu.sm_count=many"), StartsWith("--set gpu.sm_count=many: "));
}

TEST_F(Overrides, NumberedGpuPastTheEndIsRejected) { EXPECT_THAT(error_of("gpu2.sm_count=1"), HasSubstr("no GPU 2")); }

TEST_F(Overrides, UnknownTargetIsRejected) {
  EXPECT_THAT(error_of("gpux.sm_count=1"), HasSubstr("unknown target \"gpux\""));
  EXPECT_THAT(error_of("host.api_call_overhead_us=1"), HasSubstr("unknown target \"host\""));
}

TEST_F(Overrides, UnknownFieldIsRejected) {
  EXPECT_THAT(error_of("gpu.dram_bandwidth_gbps=8000"), HasSubstr("GpuSpec has no field \"dram_bandwidth_gbps\""));
}

TEST_F(Overrides, AssignmentWithoutEqualsOrFieldIsRejected) {
  EXPECT_THAT(error_of("gpu.sm_count"), HasSubstr("expected KEY=VALUE"));
  EXPECT_THAT(error_of("gpu=3"), HasSubstr("gpu.FIELD"));
}

TEST_F(Overrides, BadValueIsRejected) {
  EXPECT_THAT(error_of("node.nvlinks[0].link_count=-2"), HasSubstr("not an unsigned integer"));
}

TEST_F(Overrides, MessageLeafIsRejected) { EXPECT_THAT(error_of("gpu.sm=1"), HasSubstr("is a message")); }

TEST_F(Overrides, ChangingWhichSpecANodeGpuUsesIsRefused) {
  EXPECT_THAT(error_of("node.gpus[0].gpu=A100-SXM4-80GB"), HasSubstr("cannot be changed by --set"));
}

}  // namespace
}  // namespace warpsim::platform
