#pragma once
// Geometry of the stencil, shared by host and device code: the global domain, boxes of points in global coordinates,
// the memory layout of one GPU's piece, the split of one axis into slabs, the coefficients, and the CPU reference.
// Everything is indexed with x fastest: index = x + nx * (y + ny * z).

#include <array>
#include <cstddef>
#include <vector>

#if defined(__CUDACC__)
#define STENCIL_HD __host__ __device__
#else
#define STENCIL_HD
#endif

namespace stencil {

constexpr int kMaxRadius = 16;  // the paper's largest halo
constexpr int kMaxGpus = 16;    // size of the peer-pointer table passed to stencil_gpusm

using Coefficients = std::array<float, kMaxRadius + 1>;

/// The global domain: n[0] x n[1] x n[2] points (x, y, z).
struct Extent3 {
  int n[3];
  STENCIL_HD long long count() const { return static_cast<long long>(n[0]) * n[1] * n[2]; }
};

/// A box of points [lo, hi) per axis, in global coordinates.
struct Box3 {
  int lo[3];
  int hi[3];
  STENCIL_HD int extent(int axis) const { return hi[axis] - lo[axis]; }
  STENCIL_HD long long count() const { return static_cast<long long>(extent(0)) * extent(1) * extent(2); }
  STENCIL_HD bool empty() const { return extent(0) <= 0 || extent(1) <= 0 || extent(2) <= 0; }
};

/// Where a GPU's array sits in the global domain: local index 0 holds global point `origin`, and the array is
/// ext[0] x ext[1] x ext[2]. Only the decomposed axis differs from the global domain (slab, maybe with halo).
struct Layout {
  int origin[3];
  int ext[3];
  STENCIL_HD long long index(int x, int y, int z) const {
    return static_cast<long long>(x - origin[0]) +
           static_cast<long long>(ext[0]) * ((y - origin[1]) + static_cast<long long>(ext[1]) * (z - origin[2]));
  }
  STENCIL_HD long long stride(int axis) const {
    return axis == 0 ? 1LL : axis == 1 ? static_cast<long long>(ext[0]) : static_cast<long long>(ext[0]) * ext[1];
  }
  STENCIL_HD long long count() const { return static_cast<long long>(ext[0]) * ext[1] * ext[2]; }
};

/// The whole domain.
STENCIL_HD inline Box3 full_box(const Extent3& dom) { return Box3{{0, 0, 0}, {dom.n[0], dom.n[1], dom.n[2]}}; }

/// The planes [lo, hi) of `axis`, over the whole domain in the two other axes.
STENCIL_HD inline Box3 slab_box(const Extent3& dom, int axis, int lo, int hi) {
  Box3 box = full_box(dom);
  box.lo[axis] = lo;
  box.hi[axis] = hi;
  return box;
}

/// Layout of the slab [lo, hi) of `axis` with `halo` extra planes on both sides (halo 0: the slab alone).
STENCIL_HD inline Layout slab_layout(const Extent3& dom, int axis, int lo, int hi, int halo) {
  Layout layout{{0, 0, 0}, {dom.n[0], dom.n[1], dom.n[2]}};
  layout.origin[axis] = lo - halo;
  layout.ext[axis] = hi - lo + 2 * halo;
  return layout;
}

/// Splits n planes into `parts` slabs as even as possible; slab g is [bounds[g], bounds[g + 1]).
inline std::vector<int> split_bounds(int n, int parts) {
  std::vector<int> bounds(static_cast<std::size_t>(parts) + 1, 0);
  for (int g = 0; g < parts; ++g) {
    const int size = n / parts + (g < n % parts ? 1 : 0);
    bounds[static_cast<std::size_t>(g) + 1] = bounds[static_cast<std::size_t>(g)] + size;
  }
  return bounds;
}

/// c0 = 0.5 and the neighbours share the other half with weights 1/k: the weights sum to 1, so the Jacobi
/// iteration is a smoothing average that stays within the input range (no overflow however many iterations).
inline Coefficients make_coefficients(int radius) {
  Coefficients c{};
  double weight_sum = 0.0;
  for (int k = 1; k <= radius; ++k) weight_sum += 1.0 / k;
  c[0] = 0.5f;
  for (int k = 1; k <= radius; ++k) c[static_cast<std::size_t>(k)] = static_cast<float>(0.5 / (6.0 * k * weight_sum));
  return c;
}

/// Copies the global array into a GPU piece's layout (points outside the domain, i.e. unused halo planes at the
/// global edges, are set to 0).
inline std::vector<float> to_layout(const std::vector<float>& global, const Extent3& dom, const Layout& layout) {
  std::vector<float> local(static_cast<std::size_t>(layout.count()), 0.0f);
  const Layout whole = slab_layout(dom, 2, 0, dom.n[2], 0);
  for (int lz = 0; lz < layout.ext[2]; ++lz) {
    for (int ly = 0; ly < layout.ext[1]; ++ly) {
      for (int lx = 0; lx < layout.ext[0]; ++lx) {
        const int x = lx + layout.origin[0], y = ly + layout.origin[1], z = lz + layout.origin[2];
        if (x < 0 || y < 0 || z < 0 || x >= dom.n[0] || y >= dom.n[1] || z >= dom.n[2]) continue;
        local[static_cast<std::size_t>(layout.index(x, y, z))] = global[static_cast<std::size_t>(whole.index(x, y, z))];
      }
    }
  }
  return local;
}

/// Copies the points of `owned` from a GPU piece's array back into the global array.
inline void from_layout(const std::vector<float>& local, const Layout& layout, const Box3& owned, const Extent3& dom,
                        std::vector<float>& global) {
  const Layout whole = slab_layout(dom, 2, 0, dom.n[2], 0);
  for (int z = owned.lo[2]; z < owned.hi[2]; ++z) {
    for (int y = owned.lo[1]; y < owned.hi[1]; ++y) {
      for (int x = owned.lo[0]; x < owned.hi[0]; ++x) {
        global[static_cast<std::size_t>(whole.index(x, y, z))] = local[static_cast<std::size_t>(layout.index(x, y, z))];
      }
    }
  }
}

/// CPU reference: `iterations` Jacobi steps, summing in the same order as the kernels (centre, then per k the x, y
/// and z pairs), so that only FMA contraction can differ. Points within `radius` of the domain edge keep their value.
inline std::vector<float> cpu_reference(std::vector<float> in, const Extent3& dom, int radius, const Coefficients& c,
                                        int iterations) {
  std::vector<float> out = in;
  const long long sy = dom.n[0], sz = static_cast<long long>(dom.n[0]) * dom.n[1];
  for (int t = 0; t < iterations; ++t) {
    for (int z = 0; z < dom.n[2]; ++z) {
      for (int y = 0; y < dom.n[1]; ++y) {
        for (int x = 0; x < dom.n[0]; ++x) {
          const long long p = x + sy * y + sz * z;
          const auto at = [&in](long long i) { return in[static_cast<std::size_t>(i)]; };
          const bool edge = x < radius || y < radius || z < radius || x >= dom.n[0] - radius ||
                            y >= dom.n[1] - radius || z >= dom.n[2] - radius;
          if (edge) {
            out[static_cast<std::size_t>(p)] = at(p);
            continue;
          }
          float acc = c[0] * at(p);
          for (int k = 1; k <= radius; ++k) {
            const float px = at(p - k) + at(p + k);
            const float py = at(p - k * sy) + at(p + k * sy);
            const float pz = at(p - k * sz) + at(p + k * sz);
            acc += c[static_cast<std::size_t>(k)] * (px + py + pz);
          }
          out[static_cast<std::size_t>(p)] = acc;
        }
      }
    }
    in.swap(out);
  }
  return in;
}

}  // namespace stencil
