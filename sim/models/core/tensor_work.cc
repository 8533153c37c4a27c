#include "tensor_work.h"

#include "numeric.h"

namespace warpsim::models {
namespace {

// A rate, or `fallback` where the spec has none (0): a type the GPU lacks runs at its FP16 rate, mma.sync at the
// warpgroup rate where no separate one is measured.
double rate_or(double rate, double fallback) { return rate > 0 ? rate : fallback; }

}  // namespace

double tensor_pipe_instructions(const PipeInstructions& p) {
  if (p.has_tensor()) return as_double(p.tensor());
  return as_double(p.tensor_hmma() + p.tensor_imma() + p.tensor_dmma() + p.tensor_gmma());
}

double matrix_share(const SassSummary* sass) {
  if (sass == nullptr || !sass->has_matrix_instructions() || !sass->has_mma_pipe_fp16_fmas()) return 1;
  const double matrix = as_double(sass->matrix_instructions());
  const double both = matrix + as_double(sass->mma_pipe_fp16_fmas());
  return both > 0 ? matrix / both : 1;
}

TensorFlops tensor_flops(const KernelCounters& counters, const SassSummary* sass) {
  TensorFlops flops;
  flops.warpgroup = counters.pipes().tensor_gmma() > 0;
  flops.measured = counters.has_tensor_ops();
  if (!counters.has_tensor_ops()) {
    flops.fp16 = tensor_pipe_instructions(counters.pipes()) * matrix_share(sass) * kFlopPerTensorInstruction;
    return flops;
  }
  const TensorOps& ops = counters.tensor_ops();
  flops.fp16 = as_double(ops.fp16());
  flops.bf16 = as_double(ops.bf16());
  flops.tf32 = as_double(ops.tf32());
  flops.fp8 = as_double(ops.fp8());
  flops.int8 = as_double(ops.int8());
  flops.fp64 = as_double(ops.fp64());
  return flops;
}

double tensor_cycles(const TensorFlops& flops, const platform::Lanes& lanes) {
  const double fp16 = lanes.tensor_flops_per_cycle();
  if (fp16 <= 0) return 0;
  const double tf32 = rate_or(lanes.tensor_tf32_flops_per_cycle(), fp16);
  // Measured operations not issued by warpgroup instructions: warp-level mma.sync, which those outrun.
  const bool mma_sync = flops.measured && !flops.warpgroup;
  const double half_rate = mma_sync ? rate_or(lanes.tensor_mma_sync_flops_per_cycle(), fp16) : fp16;
  const double tf32_rate = mma_sync ? rate_or(lanes.tensor_mma_sync_tf32_flops_per_cycle(), tf32) : tf32;
  return (flops.fp16 + flops.bf16) / half_rate + flops.tf32 / tf32_rate +
         flops.fp8 / rate_or(lanes.tensor_fp8_flops_per_cycle(), fp16) +
         flops.int8 / rate_or(lanes.tensor_int8_ops_per_cycle(), fp16) +
         flops.fp64 / rate_or(lanes.tensor_fp64_flops_per_cycle(), fp16);
}

double tensor_fp16_instructions(const TensorFlops& flops, const platform::Lanes& lanes) {
  return tensor_cycles(flops, lanes) * lanes.tensor_flops_per_cycle() / kFlopPerTensorInstruction;
}

}  // namespace warpsim::models
