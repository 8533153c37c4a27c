#pragma once
// CPU reference for the convolution and the set of pixels the check compares.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

namespace conv {

/// One output pixel with clamp-to-edge borders. Same tap order and one fused multiply-add per tap like the GPU,
/// so that results agree to the last bit (std::fma and the GPU's fmaf both round once).
inline float reference_pixel(const std::vector<float>& image, int width, int height, const std::vector<float>& filter,
                             int radius, int x, int y) {
  const int side = 2 * radius + 1;
  float acc = 0.0f;
  for (int dy = -radius; dy <= radius; ++dy) {
    const int yy = std::clamp(y + dy, 0, height - 1);
    for (int dx = -radius; dx <= radius; ++dx) {
      const int xx = std::clamp(x + dx, 0, width - 1);
      const float pixel = image[static_cast<std::size_t>(yy) * static_cast<std::size_t>(width) +
                                static_cast<std::size_t>(xx)];
      acc = std::fma(pixel, filter[static_cast<std::size_t>((dy + radius) * side + (dx + radius))], acc);
    }
  }
  return acc;
}

/// Pixels to check: whole rows at the image's top and bottom edges and around every band boundary (where rows come
/// from a peer), whole columns at the left and right edges, and pseudo-random interior pixels.
inline std::vector<std::pair<int, int>> sample_pixels(int width, int height, const std::vector<int>& band_starts) {
  std::vector<int> rows = {0, 1, 2, height - 3, height - 2, height - 1};
  for (int start : band_starts) {
    for (int y = start - 3; y <= start + 2; ++y) rows.push_back(y);
  }
  const std::vector<int> cols = {0, 1, 2, width - 3, width - 2, width - 1};
  std::vector<std::pair<int, int>> samples;
  for (int y : rows) {
    if (y < 0 || y >= height) continue;
    for (int x = 0; x < width; ++x) samples.emplace_back(x, y);
  }
  for (int x : cols) {
    if (x < 0 || x >= width) continue;
    for (int y = 0; y < height; ++y) samples.emplace_back(x, y);
  }
  unsigned state = 12345u;
  for (int i = 0; i < 4096; ++i) {
    state = state * 1664525u + 1013904223u;
    const int x = static_cast<int>((state >> 8) % static_cast<unsigned>(width));
    state = state * 1664525u + 1013904223u;
    const int y = static_cast<int>((state >> 8) % static_cast<unsigned>(height));
    samples.emplace_back(x, y);
  }
  return samples;
}

}  // namespace conv
