// The dome of a block against its GPS fixes: the r^2 part of the vertical residuals, apart
// from an offset and a tilt, with its standard error.
#include "sfm/mapper/gps_dome.h"

#include <cmath>
#include <random>

#include <gtest/gtest.h>

namespace proj {
namespace {

// Fixes on a grid of `side` x `side` images 20 m apart (all registered), each residual
// (model - fix) with height `height(x, y)` plus Gaussian noise of `sigma_m`.
template <typename Height>
void MakeBlock(int side, double sigma_m, uint64_t seed, Height height, Scene* scene, PriorAlignment* alignment) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, sigma_m);
  alignment->aligned = true;
  for (int row = 0; row < side; ++row) {
    for (int col = 0; col < side; ++col) {
      const int id = row * side + col;
      PositionPrior prior;
      prior.position = Eigen::Vector3d(500 + 20.0 * col, -300 + 20.0 * row, 80);
      scene->position_priors[id] = prior;
      PriorResidual residual;
      residual.image_id = id;
      residual.inlier = true;
      residual.residual_m = Eigen::Vector3d(noise(rng), noise(rng), height(20.0 * col, 20.0 * row) + noise(rng));
      alignment->residuals.push_back(residual);
    }
  }
}

TEST(GpsDome, ABowlIsMeasuredAtTheBlocksEdgeWithItsStandardError) {
  Scene scene;
  PriorAlignment alignment;
  // Centre (100, 100), farthest fix 141.4 m away: 2 m lower there than at the centre.
  const auto bowl = [](double x, double y) { return -2.0 * ((x - 100) * (x - 100) + (y - 100) * (y - 100)) / 20000; };
  MakeBlock(11, 1.0, 7, bowl, &scene, &alignment);
  const GpsDome dome = MeasureGpsDome(scene, alignment);
  ASSERT_TRUE(dome.measured);
  EXPECT_EQ(dome.num_fixes, 121);
  EXPECT_NEAR(dome.radius_m, std::sqrt(20000.0), 1e-9);
  EXPECT_NEAR(dome.edge_m, -2.0, 3 * dome.edge_sigma_m);
  // sigma / sqrt(n) over the spread of r^2 / R^2 (about 0.2 on a square): a few tenths of a metre.
  EXPECT_GT(dome.edge_sigma_m, 0.2);
  EXPECT_LT(dome.edge_sigma_m, 0.6);
  EXPECT_GT(dome.Significance(), 4);
}

TEST(GpsDome, AnOffsetAndATiltAreNotADome) {
  Scene scene;
  PriorAlignment alignment;
  MakeBlock(11, 1.0, 8, [](double x, double y) { return 5 + 0.02 * x - 0.03 * y; }, &scene, &alignment);
  const GpsDome dome = MeasureGpsDome(scene, alignment);
  ASSERT_TRUE(dome.measured);
  EXPECT_LT(dome.Significance(), 3);
}

TEST(GpsDome, OnlyInliersCountAndAFewOrALineOfFixesMeasureNothing) {
  Scene scene;
  PriorAlignment alignment;
  MakeBlock(11, 0.1, 9, [](double, double) { return 0.0; }, &scene, &alignment);
  // Outliers far below at the edges would make a bowl; rejected, they are not evidence.
  for (PriorResidual& r : alignment.residuals) {
    const Eigen::Vector3d p = scene.position_priors[r.image_id].position;
    if (std::abs(p.x() - 600) > 90 && std::abs(p.y() + 200) > 90) {
      r.inlier = false;
      r.residual_m.z() = -30;
    }
  }
  EXPECT_LT(MeasureGpsDome(scene, alignment).Significance(), 3);

  PriorAlignment few = alignment;
  few.residuals.resize(7);
  EXPECT_FALSE(MeasureGpsDome(scene, few).measured);

  PriorAlignment line = alignment;  // the first row of the grid: y is constant
  line.residuals.resize(11);
  EXPECT_FALSE(MeasureGpsDome(scene, line).measured);

  PriorAlignment unaligned = alignment;
  unaligned.aligned = false;
  EXPECT_FALSE(MeasureGpsDome(scene, unaligned).measured);
}

}  // namespace
}  // namespace proj
