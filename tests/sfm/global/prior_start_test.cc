#include "sfm/global/prior_start.h"

#include <cmath>
#include <random>

#include <gtest/gtest.h>

namespace proj {
namespace {

// A 6 x 5 grid of nadir cameras 40 m apart with fixes 1.5 m off (3 m in height); rotation averaging's frame is
// the truth's turned by `frame`. Every pair of neighbours (and diagonal ones) verified; the
// pairs with index % 3 == 0 carry a wrong translation (along the optical axis, as the essential
// matrix of a flat scene gives).
struct GridOfFixes {
  std::vector<VerifiedPair> pairs;
  std::vector<Eigen::Quaterniond> rotations;  // cam_from_world in the averaged frame
  std::vector<char> in_model;
  std::map<int, PositionPrior> priors;
  std::vector<Eigen::Vector3d> centres;  // truth, priors' frame
  Eigen::Quaterniond frame;              // averaged frame from the priors'
};

GridOfFixes MakeGrid(bool on_a_line) {
  GridOfFixes grid;
  grid.frame = Eigen::Quaterniond(Eigen::AngleAxisd(1.1, Eigen::Vector3d(0.3, -1, 0.5).normalized()));
  std::mt19937_64 rng(2);
  std::normal_distribution<double> noise(0, 1.5);
  const Eigen::Quaterniond nadir(Eigen::AngleAxisd(M_PI, Eigen::Vector3d::UnitX()));  // looking down
  const int columns = on_a_line ? 30 : 6, rows = on_a_line ? 1 : 5;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < columns; ++c) {
      const int id = static_cast<int>(grid.centres.size());
      grid.centres.push_back(Eigen::Vector3d(40 * c, 40 * r, 80));
      grid.priors[id].position = grid.centres.back() + Eigen::Vector3d(noise(rng), noise(rng), 2 * noise(rng));
      grid.priors[id].sigma = Eigen::Vector3d(1.5, 1.5, 3);
      grid.rotations.push_back(nadir * grid.frame.conjugate());
    }
  }
  const int n = static_cast<int>(grid.centres.size());
  grid.in_model.assign(n, 1);
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      if ((grid.centres[a] - grid.centres[b]).norm() > 60) continue;
      VerifiedPair pair;
      pair.pair = {a, b};
      pair.geometry.has_relative_pose = true;
      // cam2_from_cam1: t = R_b (c_a - c_b) in the averaged frame, unit length.
      const Eigen::Vector3d in_frame = grid.frame * (grid.centres[a] - grid.centres[b]);
      pair.geometry.cam2_from_cam1.translation = (grid.rotations[b] * in_frame).normalized();
      if (grid.pairs.size() % 3 == 0) pair.geometry.cam2_from_cam1.translation = Eigen::Vector3d::UnitZ();
      grid.pairs.push_back(pair);
    }
  }
  return grid;
}

TEST(PriorStart, TurnsTheFixesIntoTheRotationsFrame) {
  const GridOfFixes grid = MakeGrid(false);
  const std::optional<PriorStart> start =
      StartFromPriors({}, grid.pairs, grid.rotations, grid.in_model, grid.priors);
  ASSERT_TRUE(start.has_value());
  EXPECT_LT(start->priors_from_rotations.angularDistance(grid.frame.conjugate()) * 180 / M_PI, 1.0);
  EXPECT_LT(start->median_error_deg, 8.0);  // fixes 3 m off in height over 40-57 m
  EXPECT_LT(start->num_pairs, static_cast<int>(grid.pairs.size()));  // the wrong third left out
  EXPECT_GT(start->num_pairs, static_cast<int>(grid.pairs.size()) / 2);
  // The start: the fixes about their mean, in the averaged frame.
  Eigen::Vector3d mean = Eigen::Vector3d::Zero();
  for (const Eigen::Vector3d& centre : grid.centres) mean += centre / grid.centres.size();
  for (size_t i = 0; i < grid.centres.size(); ++i) {
    EXPECT_LT((start->centres[i] - grid.frame * (grid.centres[i] - mean)).norm(), 8.0) << i;
  }
}

TEST(PriorStart, NoStartFromFixesOnALineOrTooFewPairs) {
  const GridOfFixes line = MakeGrid(true);
  EXPECT_FALSE(StartFromPriors({}, line.pairs, line.rotations, line.in_model, line.priors).has_value());
  const GridOfFixes grid = MakeGrid(false);
  PriorStartOptions many;
  many.min_pairs = 1000;
  EXPECT_FALSE(StartFromPriors(many, grid.pairs, grid.rotations, grid.in_model, grid.priors).has_value());
}

}  // namespace
}  // namespace proj
