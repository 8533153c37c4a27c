// The launch regression: least squares recovers a known line; fit_launches groups, takes medians and fits.
#include "wave/launch_fit.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace warpsim::models::wave {
namespace {

TEST(WaveLaunchFit, LeastSquaresRecoversAnExactLine) {
  const std::vector<double> x{1, 132, 264, 1056, 16896};
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = 800 + 0.6 * x[i];
  const Line line = least_squares(x, y);
  EXPECT_NEAR(line.x0, 800, 1e-9);
  EXPECT_NEAR(line.x1, 0.6, 1e-12);
}

// Noise of +-10 ns alternating on both ends of each pair of equal x cancels out.
TEST(WaveLaunchFit, LeastSquaresAveragesSymmetricNoise) {
  const std::vector<double> x{1, 1, 100, 100, 1000, 1000};
  const std::vector<double> y{510.5, 490.5, 560, 540, 1010, 990};  // 500 + 0.5 x +- 10
  const Line line = least_squares(x, y);
  EXPECT_NEAR(line.x0, 500, 1e-9);
  EXPECT_NEAR(line.x1, 0.5, 1e-12);
}

TEST(WaveLaunchFit, LeastSquaresNeedsTwoDistinctX) {
  const std::vector<double> one{5};
  const std::vector<double> same{5, 5};
  EXPECT_THROW(least_squares(one, one), std::invalid_argument);
  EXPECT_THROW(least_squares(same, std::vector<double>{1, 2}), std::invalid_argument);
}

// Two block sizes, each grid launched three times; the first launch of each configuration is slow (a warm-up).
TEST(WaveLaunchFit, FitsOneLinePerBlockSizeOnConfigurationMedians) {
  std::vector<LaunchSample> samples;
  for (uint32_t warps : {1u, 8u}) {
    for (uint64_t grid : {1u, 132u, 1056u, 8448u}) {
      const double t = (warps == 1 ? 800 : 900) + (warps == 1 ? 0.6 : 1.2) * static_cast<double>(grid);
      samples.push_back({warps, grid, t + 5000});  // warm-up outlier
      samples.push_back({warps, grid, t});
      samples.push_back({warps, grid, t});
    }
  }
  samples.push_back({4, 132, 1000});  // one grid size only: no fit
  const std::vector<platform::LaunchFit> fits = fit_launches(samples);
  ASSERT_EQ(fits.size(), 2u);
  EXPECT_EQ(fits[0].block_warps(), 1u);
  EXPECT_NEAR(fits[0].x0_ns(), 800, 1e-6);
  EXPECT_NEAR(fits[0].x1_ns_per_block(), 0.6, 1e-9);
  EXPECT_EQ(fits[1].block_warps(), 8u);
  EXPECT_NEAR(fits[1].x0_ns(), 900, 1e-6);
  EXPECT_NEAR(fits[1].x1_ns_per_block(), 1.2, 1e-9);
}

}  // namespace
}  // namespace warpsim::models::wave
