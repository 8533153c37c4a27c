// set_field: dotted proto paths, indices and values parsed by field type, through reflection.
#include <gmock/gmock.h>
#include <google/protobuf/wrappers.pb.h>
#include <gtest/gtest.h>

#include <stdexcept>

#include "field_setter.h"
#include "spec_builders.h"

namespace warpsim::platform {
namespace {

using testing::h100_like;
using ::testing::HasSubstr;
using testing::nvlink_pair;

/// The message of the std::invalid_argument that `set` throws ("" when it throws nothing).
template <typename Set>
std::string problem_of(Set set) {
  try {
    set();
  } catch (const std::invalid_argument& problem) {
    return problem.what();
  }
  return "";
}

TEST(FieldSetter, SetsNestedDouble) {
  GpuSpec gpu = h100_like();
  set_field(gpu, "memory.dram_bandwidth_gb_per_s", "8000");
  EXPECT_DOUBLE_EQ(gpu.memory().dram_bandwidth_gb_per_s(), 8000);
}

TEST(FieldSetter, SetsUint32AndUint64) {
  GpuSpec gpu = h100_like();
  set_field(gpu, "sm_count", "144");
  set_field(gpu, "memory.l2_bytes", "104857600");
  EXPECT_EQ(gpu.sm_count(), 144u);
  EXPECT_EQ(gpu.memory().l2_bytes(), 104857600u);
}

TEST(FieldSetter, SetsString) {
  GpuSpec gpu = h100_like();
  set_field(gpu, "architecture", "Blackwell");
  EXPECT_EQ(gpu.architecture(), "Blackwell");
}

TEST(FieldSetter, SetsBool) {
  google::protobuf::BoolValue flag;
  set_field(flag, "value", "true");
  EXPECT_TRUE(flag.value());
}

TEST(FieldSetter, Uint32OutOfRangeIsRejected) {
  GpuSpec gpu = h100_like();
  EXPECT_THAT(problem_of([&] { set_field(gpu, "sm_count", "4294967296"); }), HasSubstr("in range"));
}

TEST(FieldSetter, NegativeUnsignedIsRejected) {
  GpuSpec gpu = h100_like();
  EXPECT_THAT(problem_of([&] { set_field(gpu, "sm_count", "-1"); }), HasSubstr("unsigned integer"));
}

TEST(FieldSetter, TextThatIsNotANumberIsRejected) {
  GpuSpec gpu = h100_like();
  EXPECT_THAT(problem_of([&] { set_field(gpu, "sm_clock_mhz", "fast"); }), HasSubstr("not a finite number"));
  EXPECT_THAT(problem_of([&] { set_field(gpu, "sm_clock_mhz", "1980MHz"); }), HasSubstr("not a finite number"));
}

TEST(FieldSetter, UnknownFieldListsTheKnownOnes) {
  GpuSpec gpu = h100_like();
  const std::string problem = problem_of([&] { set_field(gpu, "memory.l3_bytes", "1"); });
  EXPECT_THAT(problem, HasSubstr("MemorySpec has no field \"l3_bytes\""));
  EXPECT_THAT(problem, HasSubstr("l2_bytes"));
}

TEST(FieldSetter, MessageAsLeafIsRejected) {
  GpuSpec gpu = h100_like();
  EXPECT_THAT(problem_of([&] { set_field(gpu, "memory", "1"); }), HasSubstr("is a message"));
}

TEST(FieldSetter, RepeatedMessageWithoutIndexSetsEveryElement) {
  NodeSpec node = nvlink_pair();
  *node.add_nvlinks() = node.nvlinks(0);
  set_field(node, "nvlinks.link_count", "12");
  EXPECT_EQ(node.nvlinks(0).link_count(), 12u);
  EXPECT_EQ(node.nvlinks(1).link_count(), 12u);
}

TEST(FieldSetter, IndexedRepeatedMessageSetsOneElement) {
  NodeSpec node = nvlink_pair();
  *node.add_nvlinks() = node.nvlinks(0);
  set_field(node, "nvlinks[1].link_count", "12");
  EXPECT_EQ(node.nvlinks(0).link_count(), 18u);
  EXPECT_EQ(node.nvlinks(1).link_count(), 12u);
}

TEST(FieldSetter, IndexPastTheEndIsRejected) {
  NodeSpec node = nvlink_pair();
  EXPECT_THAT(problem_of([&] { set_field(node, "nvlinks[3].link_count", "12"); }), HasSubstr("out of range"));
}

TEST(FieldSetter, RepeatedScalarNeedsAnIndex) {
  NodeSpec node = nvlink_pair();
  node.mutable_nvswitch()->add_gpus(0);
  node.mutable_nvswitch()->add_gpus(1);
  EXPECT_THAT(problem_of([&] { set_field(node, "nvswitch.gpus", "1"); }), HasSubstr("pick an element"));
  set_field(node, "nvswitch.gpus[1]", "0");
  EXPECT_EQ(node.nvswitch().gpus(1), 0u);
}

TEST(FieldSetter, IndexOnSingularFieldIsRejected) {
  GpuSpec gpu = h100_like();
  EXPECT_THAT(problem_of([&] { set_field(gpu, "memory[0].l2_bytes", "1"); }), HasSubstr("not repeated"));
}

TEST(FieldSetter, MalformedPathIsRejected) {
  GpuSpec gpu = h100_like();
  EXPECT_THAT(problem_of([&] { set_field(gpu, "memory..l2_bytes", "1"); }), HasSubstr("empty field name"));
  EXPECT_THAT(problem_of([&] { set_field(gpu, "device_names[x]", "a"); }), HasSubstr("unsigned integer"));
}

}  // namespace
}  // namespace warpsim::platform
