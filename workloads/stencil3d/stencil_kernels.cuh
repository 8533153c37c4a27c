#pragma once
// Host-side launchers of the stencil kernels (the kernels themselves live in stencil_kernels.cu). Every launcher
// launches on the current device, which must own `stream`, and checks the launch.
//
// Kernels (names as they appear in traces):
//   stencil_single       one GPU, whole domain
//   stencil_boundary     distributed: the `radius` planes next to a neighbour, computed first so they can be sent
//   stencil_interior     distributed: the rest of the slab, overlapping the halo exchange
//   stencil_gpusm        GPU-SM: a GPU's slab, reading neighbours' planes through peer pointers
//   stencil_pack_halo    distributed, X/Y split: gathers strided boundary planes into a contiguous send buffer
//   stencil_unpack_halo  distributed, X/Y split: scatters a received buffer into the halo planes

#include <cuda_runtime.h>

#include "domain.h"

namespace stencil {

/// What stencil_gpusm needs to find any point of the domain: every GPU's input slab (device pointers, readable by
/// the neighbours once peer access is enabled) and where the slabs start and end along the decomposed axis.
struct PeerSlabs {
  const float* in[kMaxGpus];  // GPU g's input slab for this iteration (slab layout without halo)
  int bound[kMaxGpus + 1];    // GPU g owns planes [bound[g], bound[g + 1]) of `axis`
  int gpus;
  int axis;
};

/// Copies the coefficients into the current device's constant memory (each device has its own copy).
void upload_coefficients(const Coefficients& coefficients);

/// One Jacobi step over the points of `box`; `in` and `out` both have layout `layout`, which must hold every point
/// of `box` and its neighbours up to `radius` away inside the domain.
void launch_single(cudaStream_t stream, const float* in, float* out, const Layout& layout, const Box3& box,
                   const Extent3& dom, int radius);
void launch_boundary(cudaStream_t stream, const float* in, float* out, const Layout& layout, const Box3& box,
                     const Extent3& dom, int radius);
void launch_interior(cudaStream_t stream, const float* in, float* out, const Layout& layout, const Box3& box,
                     const Extent3& dom, int radius);

/// One Jacobi step over GPU `self`'s whole slab; `out` has that slab's layout (no halo).
void launch_gpusm(cudaStream_t stream, const PeerSlabs& peers, int self, float* out, const Extent3& dom, int radius);

/// Gathers the points of `box` (x fastest) from `src` (layout `layout`) into the contiguous `buffer`.
void launch_pack(cudaStream_t stream, const float* src, const Layout& layout, const Box3& box, float* buffer);
/// Scatters the contiguous `buffer` into the points of `box` of `dst` (layout `layout`).
void launch_unpack(cudaStream_t stream, const float* buffer, float* dst, const Layout& layout, const Box3& box);

}  // namespace stencil
