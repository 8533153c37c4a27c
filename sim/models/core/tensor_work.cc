#include "tensor_work.h"

#include "numeric.h"

namespace warpsim::models {
namespace {

// The type's rate, or the FP16 rate where the spec has none for it.
double rate_or_fp16(double rate, double fp16_rate) { return rate > 0 ? rate : fp16_rate; }

}  // namespace

double tensor_pipe_instructions(const PipeInstructions& p) {
  if (p.has_tensor()) return as_double(p.tensor());
  return as_double(p.tensor_hmma() + p.tensor_imma() + p.tensor_dmma() + p.tensor_gmma());
}

TensorFlops tensor_flops(const KernelCounters& counters) {
  TensorFlops flops;
  if (!counters.has_tensor_ops()) {
    flops.fp16 = tensor_pipe_instructions(counters.pipes()) * kFlopPerTensorInstruction;
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
  return (flops.fp16 + flops.bf16) / fp16 + flops.tf32 / rate_or_fp16(lanes.tensor_tf32_flops_per_cycle(), fp16) +
         flops.fp8 / rate_or_fp16(lanes.tensor_fp8_flops_per_cycle(), fp16) +
         flops.int8 / rate_or_fp16(lanes.tensor_int8_ops_per_cycle(), fp16) +
         flops.fp64 / rate_or_fp16(lanes.tensor_fp64_flops_per_cycle(), fp16);
}

double tensor_fp16_instructions(const TensorFlops& flops, const platform::Lanes& lanes) {
  return tensor_cycles(flops, lanes) * lanes.tensor_flops_per_cycle() / kFlopPerTensorInstruction;
}

}  // namespace warpsim::models
