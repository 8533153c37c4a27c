#pragma once
// Tensor-core work by input type, and the SM clocks a GPU's tensor cores need for it.
//
// A warp-level tensor instruction does very different work by shape and type: an mma.sync m16n8k16 FP16 is 4,096 FLOP
// per warp, a Hopper wgmma m64n128k16 65,536 (its warp's share), a DMMA m8n8k4 FP64 512. The tracer's `tensor` metric
// group counts operations by input type (sm__ops_path_tensor_src_<type>, 2 per multiply-add: an n = 4096 GEMM counts
// 2 n^3, measured on H100 and H200), so those counts are used where present. A kernel recorded without that group
// has only its tensor-pipe instruction count, taken as mma.sync m16n8k16 FP16 instructions.
//
// The HMMA sub-pipe counts HFMA2.MMA too (FP16 FMAs and register moves the compiler places on the MMA pipe:
// `srad_coefficient` and `matmul`, which have no tensor code, count one or more a warp); without operation counts,
// the share of matrix instructions in the kernel's SASS scales the estimate (matrix_share).
//
// Hopper's warpgroup instructions (wgmma, the GMMA sub-pipe) sustain more than its warp-level mma.sync
// (workloads/microbench_tensor: FP16 3258 against 2392 FLOP per clock per SM on H100): measured operations of a
// kernel without GMMA instructions run at the GPU's mma.sync rates where the GPU file has them, the others at its
// tensor rates. An estimate from instructions keeps the tensor rates: its 4096 FLOP an instruction is an upper bound
// already.
#include "platform.pb.h"
#include "trace.pb.h"

namespace warpsim::models {

/// FLOP of one mma.sync.m16n8k16 warp instruction (16 x 8 x 16 multiply-adds): the unit of tensor work when a kernel
/// has no operation counts, and the per-instruction unit of the models that count instructions (wave, petri).
inline constexpr double kFlopPerTensorInstruction = 4096;

/// Tensor-core operations of a kernel by input type (int8: integer operations).
struct TensorFlops {
  double fp16 = 0;
  double bf16 = 0;
  double tf32 = 0;
  double fp8 = 0;
  double int8 = 0;
  double fp64 = 0;
  bool warpgroup = false;  // issued by warpgroup instructions (wgmma): else warp-level mma.sync
  bool measured = false;   // from operation counts; else an estimate from tensor-pipe instructions
};

/// Tensor-pipe warp instructions: the pipe's counter, else the sum of its sub-pipes (hmma, imma, dmma, gmma).
double tensor_pipe_instructions(const PipeInstructions& pipes);

/// From the `tensor_ops` counters; without them, the tensor-pipe warp instructions (`pipes.tensor`, else the sum of
/// its sub-pipes) x kFlopPerTensorInstruction as FP16, times the matrix instructions' share of the HMMA sub-pipe's
/// code where `sass` (the kernel's SASS summary) counts them (matrix_share). Warpgroup work where the GMMA sub-pipe
/// counted instructions.
TensorFlops tensor_flops(const KernelCounters& counters, const SassSummary* sass = nullptr);

/// Of the HMMA sub-pipe's instructions in a kernel's code, the matrix instructions' share (HMMA, DMMA against
/// HFMA2.MMA, trace/sass_summary.h): 0 for code with no matrix instruction, whose counted sub-pipe instructions are
/// all FP16 FMAs and register moves. 1 where the summary lacks the counts or the code has neither.
double matrix_share(const SassSummary* sass);

/// SM clocks the tensor cores need for `flops` if one SM did all of it: the sum over types of FLOP / the GPU's rate
/// per clock per SM for that type. BF16 runs at the FP16 rate (every GPU with BF16 tensor cores has them equal); a type
/// whose rate the spec leaves 0 (a GPU without it: FP8 on A100) runs at the FP16 rate; measured FP16/BF16 and TF32
/// work not issued by warpgroup instructions runs at the mma.sync rates where the spec has them. 0 without tensor
/// cores.
double tensor_cycles(const TensorFlops& flops, const platform::Lanes& lanes);

/// The same clocks as mma.sync m16n8k16 FP16 warp instructions: what per-instruction models charge the tensor pipe.
double tensor_fp16_instructions(const TensorFlops& flops, const platform::Lanes& lanes);

}  // namespace warpsim::models
