#include "registry.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "bound_kind.h"
#include "test_gpu.h"
#include "test_launch.h"

namespace warpsim::models {
namespace {

TEST(Registry, EveryKnownModelIsMadeByItsName) {
  ASSERT_FALSE(known_models().empty());
  for (const ModelInfo& info : known_models()) {
    EXPECT_FALSE(info.description.empty()) << info.name;
    EXPECT_EQ(make_model(info.name)->name(), info.name);
  }
  EXPECT_EQ(make_model("roofline")->name(), "roofline");
}

TEST(Registry, UnknownNameThrowsWithTheList) {
  try {
    make_model("x");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("unknown model 'x' (known: roofline", 0), 0u) << e.what();
  }
}

// Reports sort limiters by their words (bound_kind.cc): a model that names a new one must be sorted there too.
TEST(Registry, EveryModelsLimiterHasABoundKind) {
  KernelLaunch memory = testing::launch(4096, 256);
  KernelCounters& c = *memory.mutable_counters();
  c.mutable_warp_instructions()->set_total(4096 * 64);
  c.mutable_warp_instructions()->set_global_ld(4096 * 16);
  c.mutable_pipes()->set_lsu(4096 * 16);
  c.mutable_memory()->set_dram_read_bytes(std::uint64_t{1} << 31);
  c.mutable_memory()->set_l2_bytes(std::uint64_t{1} << 31);
  const std::vector<KernelLaunch> kernels{testing::fma_kernel(1024, 256, 4096), memory, testing::launch(1, 32)};
  for (const ModelInfo& info : known_models()) {
    const auto model = make_model(info.name);
    for (const KernelLaunch& kernel : kernels) {
      const KernelPrediction p = model->predict(KernelView::of(kernel), testing::h100());
      EXPECT_NE(bound_kind_of(p.limiter), SimulatedBound::KIND_UNSPECIFIED) << info.name << ": " << p.limiter;
    }
  }
}

}  // namespace
}  // namespace warpsim::models
