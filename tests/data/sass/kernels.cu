// Fixture for tests/tracer/sass_summary_test.cc: three small kernels whose SASS control codes are known.
// The committed cubin was made from the repository root with CUDA 13.0 (V13.0.88):
//   nvcc -cubin -arch=sm_90 -O3 tests/data/sass/kernels.cu -o tests/data/sass/kernels_sm90.cubin
// Regenerating it with another nvcc may change the pinned counts in the test (the scheduling is ptxas's choice).

// A chain of 32 dependent FFMAs: each needs the previous result, so ptxas spaces them by the FMA latency (stall 4).
__global__ void ffma_dependent(float* out, float a, float b) {
  float x = a;
#pragma unroll
  for (int i = 0; i < 32; ++i) x = fmaf(x, a, b);
  out[threadIdx.x] = x;
}

// 64 FFMAs in 8 independent chains: an FFMA's input was produced 8 instructions earlier, so each issues a cycle after
// the previous one (stall 1).
__global__ void ffma_independent(float4* out, float a, float b) {
  float x[8];
#pragma unroll
  for (int c = 0; c < 8; ++c) x[c] = a + static_cast<float>(c);
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int c = 0; c < 8; ++c) x[c] = fmaf(x[c], a, b);
  out[2 * threadIdx.x] = make_float4(x[0], x[1], x[2], x[3]);
  out[2 * threadIdx.x + 1] = make_float4(x[4], x[5], x[6], x[7]);
}

// A global load whose value is first used after an unrelated chain of 8 dependent FFMAs: ptxas issues the load early
// and lets the chain cover part of its latency.
__global__ void load_use(const float* in, float* out, float a, float b) {
  const float v = in[threadIdx.x];
  float y = a;
#pragma unroll
  for (int i = 0; i < 8; ++i) y = fmaf(y, b, a);
  out[threadIdx.x] = v + y;
}
