// The stencil kernels. Like the paper's Listing 1, a 2D grid of threads covers the X-Y plane and each thread walks
// along Z; unlike it, each block walks only kPlanesPerBlock planes (blockIdx.z picks which), so that a 256^3 domain
// gives thousands of blocks and fills 132 SMs.
//
// The __global__ functions are at global scope and not static: a namespace would prefix their demangled names, and
// internal linkage makes nvcc rename them, while the `timing` lines use the bare names to match the traces.

#include "stencil_kernels.cuh"

#include <algorithm>

#include "workload.h"

namespace stencil {
namespace {

constexpr int kBlockX = 32;  // one warp along X: coalesced rows
constexpr int kBlockY = 8;
constexpr int kPlanesPerBlock = 8;
constexpr int kCopyThreads = 256;
constexpr int kCopyMaxBlocks = 4096;  // grid-stride beyond this

}  // namespace

// Indexed by k, which is the same for all threads of a warp, so the constant cache broadcasts it.
__constant__ float c_coefficients[kMaxRadius + 1];

namespace {

__device__ __forceinline__ bool near_domain_edge(int x, int y, int z, const Extent3& dom, int radius) {
  return x < radius || y < radius || z < radius || x >= dom.n[0] - radius || y >= dom.n[1] - radius ||
         z >= dom.n[2] - radius;
}

/// The body shared by stencil_single, stencil_boundary and stencil_interior: every neighbour is in `in` itself.
__device__ __forceinline__ void step_local(const float* __restrict__ in, float* __restrict__ out, const Layout& layout,
                                           const Box3& box, const Extent3& dom, int radius) {
  const int x = box.lo[0] + static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = box.lo[1] + static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= box.hi[0] || y >= box.hi[1]) return;
  const int z_begin = box.lo[2] + static_cast<int>(blockIdx.z) * kPlanesPerBlock;
  const int z_end = min(z_begin + kPlanesPerBlock, box.hi[2]);
  const long long sy = layout.stride(1), sz = layout.stride(2);
  long long p = layout.index(x, y, z_begin);
  for (int z = z_begin; z < z_end; ++z, p += sz) {
    if (near_domain_edge(x, y, z, dom, radius)) {
      out[p] = in[p];  // points within `radius` of the domain edge keep their input value
      continue;
    }
    float acc = c_coefficients[0] * in[p];
    for (int k = 1; k <= radius; ++k) {
      const float px = in[p - k] + in[p + k];
      const float py = in[p - k * sy] + in[p + k * sy];
      const float pz = in[p - k * sz] + in[p + k * sz];
      acc += c_coefficients[k] * (px + py + pz);
    }
    out[p] = acc;
  }
}

/// Index in `layout` of the point (x, y, z) with its coordinate along `axis` replaced by `value`.
__device__ __forceinline__ long long index_with(const Layout& layout, int x, int y, int z, int axis, int value) {
  return layout.index(axis == 0 ? value : x, axis == 1 ? value : y, axis == 2 ? value : z);
}

/// Index in `layout` of the i-th point of `box` (x fastest), the order of the contiguous halo buffers.
__device__ __forceinline__ long long box_point_index(const Layout& layout, const Box3& box, long long i) {
  const long long ex = box.extent(0), ey = box.extent(1);
  const int x = box.lo[0] + static_cast<int>(i % ex);
  const int y = box.lo[1] + static_cast<int>((i / ex) % ey);
  const int z = box.lo[2] + static_cast<int>(i / (ex * ey));
  return layout.index(x, y, z);
}

}  // namespace
}  // namespace stencil

__global__ void stencil_single(const float* __restrict__ in, float* __restrict__ out, stencil::Layout layout,
                               stencil::Box3 box, stencil::Extent3 dom, int radius) {
  stencil::step_local(in, out, layout, box, dom, radius);
}

// Same body as stencil_single; separate names so traces tell the boundary planes (on the critical path of the halo
// exchange) from the interior (which overlaps the exchange).
__global__ void stencil_boundary(const float* __restrict__ in, float* __restrict__ out, stencil::Layout layout,
                                 stencil::Box3 box, stencil::Extent3 dom, int radius) {
  stencil::step_local(in, out, layout, box, dom, radius);
}

__global__ void stencil_interior(const float* __restrict__ in, float* __restrict__ out, stencil::Layout layout,
                                 stencil::Box3 box, stencil::Extent3 dom, int radius) {
  stencil::step_local(in, out, layout, box, dom, radius);
}

// GPU-SM (the paper's Listing 3): no halo copies. Neighbours along the decomposed axis that fall outside this GPU's
// slab are read directly from the neighbouring GPU's slab through its (peer) pointer: remote loads over NVLink/PCIe.
// Slabs are at least `radius` thick (checked on the host), so only the two adjacent GPUs are ever read.
__global__ void stencil_gpusm(stencil::PeerSlabs peers, int self, float* __restrict__ out, stencil::Extent3 dom,
                              int radius) {
  using namespace stencil;
  const int axis = peers.axis;
  const int lo = peers.bound[self], hi = peers.bound[self + 1];
  const bool has_left = self > 0, has_right = self + 1 < peers.gpus;
  // Resolved once per thread: the table is indexed with a run-time GPU number.
  const float* __restrict__ in = peers.in[self];
  const float* __restrict__ in_left = has_left ? peers.in[self - 1] : nullptr;
  const float* __restrict__ in_right = has_right ? peers.in[self + 1] : nullptr;
  const Layout own = slab_layout(dom, axis, lo, hi, 0);
  const Layout left = slab_layout(dom, axis, has_left ? peers.bound[self - 1] : lo, lo, 0);
  const Layout right = slab_layout(dom, axis, hi, has_right ? peers.bound[self + 2] : hi, 0);
  const Box3 box = slab_box(dom, axis, lo, hi);

  const int x = box.lo[0] + static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = box.lo[1] + static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= box.hi[0] || y >= box.hi[1]) return;
  const int z_begin = box.lo[2] + static_cast<int>(blockIdx.z) * kPlanesPerBlock;
  const int z_end = min(z_begin + kPlanesPerBlock, box.hi[2]);
  const long long stride[3] = {own.stride(0), own.stride(1), own.stride(2)};
  long long p = own.index(x, y, z_begin);
  for (int z = z_begin; z < z_end; ++z, p += stride[2]) {
    if (near_domain_edge(x, y, z, dom, radius)) {
      out[p] = in[p];
      continue;
    }
    const int c = axis == 0 ? x : axis == 1 ? y : z;  // this point's coordinate along the decomposed axis
    float acc = c_coefficients[0] * in[p];
    for (int k = 1; k <= radius; ++k) {
      float pair[3];
#pragma unroll
      for (int a = 0; a < 3; ++a) {
        if (a != axis) {  // never leaves the slab
          pair[a] = in[p - k * stride[a]] + in[p + k * stride[a]];
          continue;
        }
        const float minus = c - k >= lo ? in[p - k * stride[a]] : in_left[index_with(left, x, y, z, axis, c - k)];
        const float plus = c + k < hi ? in[p + k * stride[a]] : in_right[index_with(right, x, y, z, axis, c + k)];
        pair[a] = minus + plus;
      }
      acc += c_coefficients[k] * (pair[0] + pair[1] + pair[2]);
    }
    out[p] = acc;
  }
}

__global__ void stencil_pack_halo(const float* __restrict__ src, stencil::Layout layout, stencil::Box3 box,
                                  float* __restrict__ buffer) {
  const long long count = box.count();
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    buffer[i] = src[stencil::box_point_index(layout, box, i)];
  }
}

__global__ void stencil_unpack_halo(const float* __restrict__ buffer, float* __restrict__ dst, stencil::Layout layout,
                                    stencil::Box3 box) {
  const long long count = box.count();
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    dst[stencil::box_point_index(layout, box, i)] = buffer[i];
  }
}

namespace stencil {
namespace {

unsigned blocks_for(long long items, long long per_block) {
  return static_cast<unsigned>((items + per_block - 1) / per_block);
}

/// Threads cover X and Y of the box; blockIdx.z picks a run of kPlanesPerBlock planes along Z.
dim3 box_grid(const Box3& box) {
  return dim3(blocks_for(box.extent(0), kBlockX), blocks_for(box.extent(1), kBlockY),
              blocks_for(box.extent(2), kPlanesPerBlock));
}

dim3 copy_grid(const Box3& box) {
  return dim3(std::min(blocks_for(box.count(), kCopyThreads), static_cast<unsigned>(kCopyMaxBlocks)));
}

dim3 stencil_block() { return dim3(kBlockX, kBlockY, 1); }

}  // namespace

void upload_coefficients(const Coefficients& coefficients) {
  WS_CHECK(cudaMemcpyToSymbol(c_coefficients, coefficients.data(), sizeof(float) * coefficients.size()));
}

void launch_single(cudaStream_t stream, const float* in, float* out, const Layout& layout, const Box3& box,
                   const Extent3& dom, int radius) {
  if (box.empty()) return;
  stencil_single<<<box_grid(box), stencil_block(), 0, stream>>>(in, out, layout, box, dom, radius);
  WS_CHECK(cudaGetLastError());
}

void launch_boundary(cudaStream_t stream, const float* in, float* out, const Layout& layout, const Box3& box,
                     const Extent3& dom, int radius) {
  if (box.empty()) return;
  stencil_boundary<<<box_grid(box), stencil_block(), 0, stream>>>(in, out, layout, box, dom, radius);
  WS_CHECK(cudaGetLastError());
}

void launch_interior(cudaStream_t stream, const float* in, float* out, const Layout& layout, const Box3& box,
                     const Extent3& dom, int radius) {
  if (box.empty()) return;
  stencil_interior<<<box_grid(box), stencil_block(), 0, stream>>>(in, out, layout, box, dom, radius);
  WS_CHECK(cudaGetLastError());
}

void launch_gpusm(cudaStream_t stream, const PeerSlabs& peers, int self, float* out, const Extent3& dom, int radius) {
  const Box3 box = slab_box(dom, peers.axis, peers.bound[self], peers.bound[self + 1]);
  if (box.empty()) return;
  stencil_gpusm<<<box_grid(box), stencil_block(), 0, stream>>>(peers, self, out, dom, radius);
  WS_CHECK(cudaGetLastError());
}

void launch_pack(cudaStream_t stream, const float* src, const Layout& layout, const Box3& box, float* buffer) {
  if (box.empty()) return;
  stencil_pack_halo<<<copy_grid(box), kCopyThreads, 0, stream>>>(src, layout, box, buffer);
  WS_CHECK(cudaGetLastError());
}

void launch_unpack(cudaStream_t stream, const float* buffer, float* dst, const Layout& layout, const Box3& box) {
  if (box.empty()) return;
  stencil_unpack_halo<<<copy_grid(box), kCopyThreads, 0, stream>>>(buffer, dst, layout, box);
  WS_CHECK(cudaGetLastError());
}

}  // namespace stencil
