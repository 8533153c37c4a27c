#pragma once
// The convolution kernels' interface, shared by the kernels and the host driver.

#include <cuda_runtime.h>

/// What one GPU's launch needs: its row band of the input and output, where its neighbours' bands live, and the
/// filter. Rows are numbered in the whole image; each band stores rows [row_begin, row_end) contiguously.
struct ConvArgs {
  const float* self = nullptr;   ///< this GPU's input band
  const float* above = nullptr;  ///< the band ending at row_begin (a peer GPU's memory), or null
  const float* below = nullptr;  ///< the band starting at row_end (a peer GPU's memory), or null
  int above_begin = 0;           ///< first image row held by `above`
  int row_begin = 0;
  int row_end = 0;
  int width = 0;
  int height = 0;
  const float* filter = nullptr;  ///< (2*radius+1)^2 coefficients, row-major; local or a peer's copy
  int radius = 1;                 ///< 1 (3x3) or 2 (5x5)
  float* out = nullptr;           ///< this GPU's output band, rows [row_begin, row_end)
};

constexpr int kConvBlockX = 32;  // one warp per image row segment: the band/peer choice is warp-uniform
constexpr int kConvBlockY = 8;

/// The kernels' real names, used as timing labels so that they match the trace.
inline const char* convolution_kernel_name(bool cached) { return cached ? "convolution_ldg" : "convolution_plain"; }

/// Launches convolution_ldg (cached) or convolution_plain on `stream` over the band of `args`.
void launch_convolution(const ConvArgs& args, bool cached, cudaStream_t stream);

/// Loads both kernels on the current device ahead of the first timed launch.
void load_convolution_kernels();
