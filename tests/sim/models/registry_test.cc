#include "registry.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

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

}  // namespace
}  // namespace warpsim::models
