// The Petri-net model's variants by name: the registry's and `warpsim petri export -m`'s names, both ways.
#include "petri/variant.h"

#include <gtest/gtest.h>

namespace warpsim::models::petri {
namespace {

TEST(Variant, NamesRoundTrip) {
  EXPECT_EQ(variant_name(Variant::kPaper), "petri-paper");
  EXPECT_EQ(variant_name(Variant::kPlatform), "petri");
  EXPECT_EQ(variant_named("petri"), Variant::kPlatform);
  EXPECT_EQ(variant_named("petri-paper"), Variant::kPaper);
  EXPECT_FALSE(variant_named("roofline").has_value());
}

}  // namespace
}  // namespace warpsim::models::petri
