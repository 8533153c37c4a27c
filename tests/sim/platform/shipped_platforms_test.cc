// The files in platforms/: every node loads, every GPU file writes every field, names resolve, values are the ones
// the README documents for the cases other code relies on.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <google/protobuf/descriptor.h>
#include <cstdlib>

#include "platform.h"
#include "text_format_loader.h"
#include "validation.h"

namespace warpsim::platform {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;

const std::filesystem::path kShipped = WARPSIM_SHIPPED_PLATFORMS;

std::vector<std::filesystem::path> files_in(const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.path().extension() == ".textproto") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

/// Every singular scalar field under `type`, as paths. Lists may be empty (a hypothetical GPU has no device_names).
void collect_leaves(const Descriptor& type, const FieldPath& at, std::vector<FieldPath>& leaves) {
  for (int i = 0; i < type.field_count(); ++i) {
    const FieldDescriptor& field = *type.field(i);
    if (field.is_repeated()) continue;
    const FieldPath path = at.then(field.name());
    if (field.cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      collect_leaves(*field.message_type(), path, leaves);
    } else {
      leaves.push_back(path);
    }
  }
}

TEST(ShippedPlatforms, EveryNodeLoadsAndValidates) {
  const std::vector<std::filesystem::path> nodes = files_in(kShipped / "nodes");
  EXPECT_GE(nodes.size(), 8u);
  for (const std::filesystem::path& node : nodes) {
    EXPECT_NO_THROW(load_platform(node.string(), {}, kShipped)) << node;
  }
}

TEST(ShippedPlatforms, EveryGpuFileWritesEveryField) {
  std::vector<FieldPath> leaves;
  collect_leaves(*GpuSpec::descriptor(), {}, leaves);
  for (const std::filesystem::path& path : files_in(kShipped / "gpus")) {
    GpuSpec spec;
    const TextFile file = parse_text_file(path, spec);
    for (const FieldPath& leaf : leaves) EXPECT_TRUE(file.wrote(leaf)) << path << " lacks " << leaf.to_string();
  }
}

TEST(ShippedPlatforms, EveryGpuFilePassesTheGpuRules) {
  for (const std::filesystem::path& path : files_in(kShipped / "gpus")) {
    GpuSpec spec;
    parse_text_file(path, spec);
    for (const Issue& issue : check_gpu(spec))
      ADD_FAILURE() << path << ": " << issue.field.to_string() << ": " << issue.problem;
  }
}

TEST(ShippedPlatforms, BareNameResolvesUnderTheDefaultRoot) {
  const Platform platform = load_platform("h100-pcie", {}, kShipped);
  EXPECT_EQ(platform.node_file, kShipped / "nodes" / "h100-pcie.textproto");
  ASSERT_EQ(platform.gpus.size(), 1u);
  EXPECT_EQ(platform.gpus[0].name(), "H100-SXM5-80GB");
  EXPECT_THAT(platform.gpus[0].device_names(), ::testing::Contains("NVIDIA H100 80GB HBM3"));
}

TEST(ShippedPlatforms, EnvironmentVariableMovesTheDefaultRoot) {
  ASSERT_EQ(setenv("WARPSIM_PLATFORMS", "/somewhere/else", 1), 0);
  EXPECT_EQ(default_platforms_root(), "/somewhere/else");
  ASSERT_EQ(unsetenv("WARPSIM_PLATFORMS"), 0);
  EXPECT_EQ(default_platforms_root(), kShipped);
}

TEST(ShippedPlatforms, TwoH200NodeHasTheMeasuredNvlinkBundle) {
  const Platform platform = load_platform("2xh200-nvlink", {}, kShipped);
  ASSERT_EQ(platform.node.nvlinks_size(), 1);
  EXPECT_EQ(platform.node.nvlinks(0).link_count(), 18u);
  EXPECT_DOUBLE_EQ(platform.node.nvlinks(0).per_link_bandwidth_gb_per_s(), 26.562);
  EXPECT_EQ(platform.gpus[1].name(), "H200-SXM-141GB");
}

TEST(ShippedPlatforms, HypotheticalH100HasTwiceTheL2) {
  const Platform real = load_platform("h100-pcie", {}, kShipped);
  const Platform doubled = load_platform("h100-2xl2", {}, kShipped);
  EXPECT_EQ(doubled.gpus[0].memory().l2_bytes(), 2 * real.gpus[0].memory().l2_bytes());
}

// The wave model's launch regression: fitted for the two GPUs with a launch microbenchmark trace, 1 to 32 warps.
TEST(ShippedPlatforms, MeasuredGpusHaveLaunchFitsForEveryBlockSize) {
  for (const char* node : {"h100-pcie", "h200"}) {
    const Platform platform = load_platform(node, {}, kShipped);
    std::vector<std::uint32_t> warps;
    for (const LaunchFit& fit : platform.gpus[0].launch_fits()) {
      warps.push_back(fit.block_warps());
      EXPECT_GT(fit.x0_ns(), 0) << node;
      EXPECT_GT(fit.x1_ns_per_block(), 0) << node;
    }
    EXPECT_THAT(warps, ::testing::ElementsAre(1u, 2u, 4u, 8u, 16u, 32u)) << node;
  }
  EXPECT_EQ(load_platform("systemA-3xk20", {}, kShipped).gpus[0].launch_fits_size(), 0);  // no measurement
}

TEST(ShippedPlatforms, OverrideMakesAHypotheticalGpuWithoutAFile) {
  const Platform platform = load_platform("h100-pcie", {"gpu.memory.l2_bytes=104857600"}, kShipped);
  EXPECT_EQ(platform.gpus[0].memory().l2_bytes(), 104857600u);
}

}  // namespace
}  // namespace warpsim::platform
