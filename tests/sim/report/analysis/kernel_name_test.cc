#include <gtest/gtest.h>

#include "analysis/kernel_name.h"

namespace warpsim::report {
namespace {

TEST(KernelName, DropsParametersAndReturnType) {
  EXPECT_EQ(short_kernel_name("_Z6matmulPfS_S_i"), "matmul");
  EXPECT_EQ(short_kernel_name("_ZN37_GLOBAL__N__129e0ff5_9_matmul_cu_main12matmul_naiveEPKfS1_Pfi"),
            "(anonymous namespace)::matmul_naive");
  EXPECT_EQ(short_kernel_name("_Z4gemmIfLi128EEvPf"), "gemm<float, 128>");
}

TEST(KernelName, LeavesUnmangledNamesAlone) {
  EXPECT_EQ(short_kernel_name("stencil"), "stencil");
  EXPECT_EQ(short_kernel_name(""), "");
  // The demangler alone reads these as builtin types ("signed char", "float").
  EXPECT_EQ(short_kernel_name("a"), "a");
  EXPECT_EQ(readable_kernel_name("f"), "f");
  EXPECT_EQ(readable_kernel_name("_Z1kv"), "k()");
}

}  // namespace
}  // namespace warpsim::report
