// Tensor-core work by input type and the clocks it costs (sim/models/tensor_work.h), on round numbers.
#include "tensor_work.h"

#include <gtest/gtest.h>

namespace warpsim::models {
namespace {

// H100-like rates per clock per SM: FP16 4096, TF32 2048, FP8 8192, INT8 8192, FP64 256.
platform::Lanes hopper_lanes() {
  platform::Lanes lanes;
  lanes.set_tensor_flops_per_cycle(4096);
  lanes.set_tensor_tf32_flops_per_cycle(2048);
  lanes.set_tensor_fp8_flops_per_cycle(8192);
  lanes.set_tensor_int8_ops_per_cycle(8192);
  lanes.set_tensor_fp64_flops_per_cycle(256);
  return lanes;
}

TEST(TensorWork, WithoutOperationCountsInstructionsAreMmaM16n8k16Fp16) {
  KernelCounters c;
  c.mutable_pipes()->set_tensor(100);
  const TensorFlops flops = tensor_flops(c);
  EXPECT_DOUBLE_EQ(flops.fp16, 100 * kFlopPerTensorInstruction);
  EXPECT_DOUBLE_EQ(tensor_cycles(flops, hopper_lanes()), 100);
  EXPECT_DOUBLE_EQ(tensor_fp16_instructions(flops, hopper_lanes()), 100);
}

TEST(TensorWork, SubPipesStandInForAMissingTensorPipeCounter) {
  KernelCounters c;
  c.mutable_pipes()->set_tensor_hmma(30);
  c.mutable_pipes()->set_tensor_gmma(10);
  EXPECT_DOUBLE_EQ(tensor_flops(c).fp16, 40 * kFlopPerTensorInstruction);
}

TEST(TensorWork, OperationCountsWinOverInstructionsAndEachTypeRunsAtItsRate) {
  KernelCounters c;
  c.mutable_pipes()->set_tensor(1);  // a Hopper wgmma does far more than 4096 FLOP: the counts decide
  TensorOps& ops = *c.mutable_tensor_ops();
  ops.set_fp16(4096 * 10);
  ops.set_bf16(4096 * 10);
  ops.set_tf32(2048 * 10);
  ops.set_fp8(8192 * 10);
  ops.set_int8(8192 * 10);
  ops.set_fp64(256 * 10);
  const TensorFlops flops = tensor_flops(c);
  EXPECT_DOUBLE_EQ(tensor_cycles(flops, hopper_lanes()), 60);  // 10 clocks per type, BF16 at the FP16 rate
  EXPECT_DOUBLE_EQ(tensor_fp16_instructions(flops, hopper_lanes()), 60);
}

// With mma.sync rates in the spec (a Hopper GPU: FP16 2048, TF32 1024 against 4096 and 2048 for wgmma): measured
// operations of a kernel with GMMA instructions run FP16/BF16 and TF32 at the warpgroup rates, those of one without
// at the mma.sync rates; the other types keep theirs.
TEST(TensorWork, WarpLevelMmaRunsAtItsOwnRateWhereTheSpecHasOne) {
  platform::Lanes lanes = hopper_lanes();
  lanes.set_tensor_mma_sync_flops_per_cycle(2048);
  lanes.set_tensor_mma_sync_tf32_flops_per_cycle(1024);
  KernelCounters c;
  c.mutable_pipes()->set_tensor_hmma(1);
  TensorOps& ops = *c.mutable_tensor_ops();
  ops.set_fp16(4096 * 10);
  ops.set_tf32(2048 * 10);
  ops.set_fp64(256 * 10);
  EXPECT_FALSE(tensor_flops(c).warpgroup);
  EXPECT_DOUBLE_EQ(tensor_cycles(tensor_flops(c), lanes), 20 + 20 + 10);
  c.mutable_pipes()->set_tensor_gmma(1);
  EXPECT_TRUE(tensor_flops(c).warpgroup);
  EXPECT_DOUBLE_EQ(tensor_cycles(tensor_flops(c), lanes), 10 + 10 + 10);
  EXPECT_DOUBLE_EQ(tensor_cycles(tensor_flops(c), hopper_lanes()), 30);  // no mma.sync rates: one rate for both
  c.mutable_pipes()->clear_tensor_gmma();
  EXPECT_DOUBLE_EQ(tensor_cycles(tensor_flops(c), hopper_lanes()), 30);
}

// Without operation counts the HMMA sub-pipe's instructions are not known to be mma.sync (it also counts HFMA2.MMA,
// FP16 FMAs and register moves): the estimate keeps the tensor rate.
TEST(TensorWork, AnEstimateFromInstructionsKeepsTheTensorRate) {
  platform::Lanes lanes = hopper_lanes();
  lanes.set_tensor_mma_sync_flops_per_cycle(2048);
  KernelCounters c;
  c.mutable_pipes()->set_tensor_hmma(100);
  EXPECT_FALSE(tensor_flops(c).measured);
  EXPECT_DOUBLE_EQ(tensor_cycles(tensor_flops(c), lanes), 100);
}

// Without operation counts, the kernel's SASS tells how many of the HMMA sub-pipe's instructions are matrix ones:
// code with HFMA2.MMA only (register moves, FP16 FMAs) does no tensor work; 3 HMMA and 1 HFMA2.MMA, three quarters.
TEST(TensorWork, TheSassShareOfMatrixInstructionsScalesAnInstructionEstimate) {
  KernelCounters c;
  c.mutable_pipes()->set_tensor_hmma(100);
  SassSummary sass;
  EXPECT_DOUBLE_EQ(tensor_flops(c, &sass).fp16, 100 * kFlopPerTensorInstruction);  // counts unset: all matrix
  sass.set_matrix_instructions(0);
  sass.set_mma_pipe_fp16_fmas(2);
  EXPECT_DOUBLE_EQ(tensor_flops(c, &sass).fp16, 0);
  sass.set_matrix_instructions(3);
  sass.set_mma_pipe_fp16_fmas(1);
  EXPECT_DOUBLE_EQ(tensor_flops(c, &sass).fp16, 75 * kFlopPerTensorInstruction);
  c.mutable_tensor_ops()->set_fp16(4096);  // measured operations need no share
  EXPECT_DOUBLE_EQ(tensor_flops(c, &sass).fp16, 4096);
}

TEST(TensorWork, ATypeTheGpuLacksRunsAtItsFp16Rate) {
  KernelCounters c;
  c.mutable_tensor_ops()->set_fp8(4096 * 7);
  platform::Lanes a100_like;
  a100_like.set_tensor_flops_per_cycle(4096);  // no FP8 rate
  EXPECT_DOUBLE_EQ(tensor_cycles(tensor_flops(c), a100_like), 7);
}

TEST(TensorWork, NoTensorCoresNoTensorTime) {
  KernelCounters c;
  c.mutable_tensor_ops()->set_fp16(1'000'000);
  EXPECT_DOUBLE_EQ(tensor_cycles(tensor_flops(c), platform::Lanes{}), 0);
}

}  // namespace
}  // namespace warpsim::models
