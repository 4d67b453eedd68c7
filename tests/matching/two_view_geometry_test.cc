#include "matching/two_view_geometry.h"

#include <random>

#include <gtest/gtest.h>

#include "geometry/rigid3.h"

namespace proj {
namespace {

struct TwoViewFixture {
  Camera camera = Camera::FromFocal(CameraModelId::kSimpleRadial, 1280, 960, 1000);
  std::vector<Eigen::Vector2d> keypoints1, keypoints2;
  std::vector<FeatureMatch> matches;
  int num_true = 0;
};

// `planar`: points on a plane; `translation`: baseline length (0 = pure rotation).
TwoViewFixture MakeTwoViews(bool planar, double translation, int num_points, int num_outliers) {
  TwoViewFixture f;
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> unit(-1, 1);
  std::normal_distribution<double> noise(0, 0.3);
  const Rigid3d cam2_from_world(Eigen::Matrix3d(Eigen::AngleAxisd(0.15, Eigen::Vector3d::UnitY())),
                                Eigen::Vector3d(-translation, 0.05 * translation, 0));
  while (f.num_true < num_points) {
    const Eigen::Vector3d x(3 * unit(rng), 2 * unit(rng), planar ? 6.0 : 6.0 + 2 * unit(rng));
    Eigen::Vector2d uv1, uv2;
    if (!f.camera.Project(x, &uv1) || !f.camera.Project(cam2_from_world * x, &uv2)) continue;
    if (uv1.x() < 0 || uv1.y() < 0 || uv1.x() > 1280 || uv1.y() > 960) continue;
    if (uv2.x() < 0 || uv2.y() < 0 || uv2.x() > 1280 || uv2.y() > 960) continue;
    f.keypoints1.push_back(uv1 + Eigen::Vector2d(noise(rng), noise(rng)));
    f.keypoints2.push_back(uv2 + Eigen::Vector2d(noise(rng), noise(rng)));
    f.matches.push_back({f.num_true, f.num_true});
    ++f.num_true;
  }
  std::uniform_real_distribution<double> px(0, 1280), py(0, 960);
  for (int i = 0; i < num_outliers; ++i) {
    f.keypoints1.emplace_back(px(rng), py(rng));
    f.keypoints2.emplace_back(px(rng), py(rng));
    const int index = static_cast<int>(f.keypoints1.size()) - 1;
    f.matches.push_back({index, index});
  }
  return f;
}

TwoViewGeometry Estimate(const TwoViewFixture& f) {
  return EstimateTwoViewGeometry(TwoViewGeometryOptions(), f.camera, f.keypoints1, f.camera,
                                 f.keypoints2, f.matches);
}

int CountTrueInliers(const TwoViewGeometry& g, int num_true) {
  int count = 0;
  for (const auto& m : g.inlier_matches) count += m.index1 < num_true;
  return count;
}

TEST(TwoViewGeometry, GeneralSceneIsCalibratedAndRejectsOutliers) {
  const auto f = MakeTwoViews(false, 1.0, 300, 200);
  const auto g = Estimate(f);
  EXPECT_EQ(g.configuration, TwoViewConfiguration::kCalibrated);
  EXPECT_GE(CountTrueInliers(g, f.num_true), 280);
  EXPECT_LE(static_cast<int>(g.inlier_matches.size()) - CountTrueInliers(g, f.num_true), 10);
}

TEST(TwoViewGeometry, FlatSceneWithBaselineIsPlanar) {
  const auto f = MakeTwoViews(true, 1.0, 300, 100);
  EXPECT_EQ(Estimate(f).configuration, TwoViewConfiguration::kPlanar);
}

TEST(TwoViewGeometry, PureRotationIsPanoramic) {
  const auto f = MakeTwoViews(false, 0.0, 300, 100);
  EXPECT_EQ(Estimate(f).configuration, TwoViewConfiguration::kPanoramic);
}

// Points converted once per image give exactly the per-pair conversion's result, and a listed
// pair is the plain estimate seeded with seed + index.
TEST(TwoViewGeometry, PreparedPointsAndListedPairsMatchThePlainEstimate) {
  const auto f = MakeTwoViews(false, 1.0, 300, 200);
  const TwoViewPoints points1 = MakeTwoViewPoints(f.camera, f.keypoints1);
  const TwoViewPoints points2 = MakeTwoViewPoints(f.camera, f.keypoints2);
  TwoViewGeometryOptions options;
  options.seed = 5;
  for (size_t index : {0u, 3u}) {
    TwoViewGeometryOptions seeded = options;
    seeded.seed += index;
    const TwoViewGeometry expected =
        EstimateTwoViewGeometry(seeded, f.camera, f.keypoints1, f.camera, f.keypoints2, f.matches);
    const TwoViewGeometry prepared = EstimateTwoViewGeometry(seeded, points1, points2, f.matches);
    const TwoViewGeometry listed = EstimateListedPairGeometry(options, index, points1, points2, f.matches);
    for (const TwoViewGeometry* g : {&prepared, &listed}) {
      EXPECT_EQ(g->configuration, expected.configuration);
      EXPECT_EQ(g->num_e_inliers, expected.num_e_inliers);
      EXPECT_EQ(g->num_f_inliers, expected.num_f_inliers);
      EXPECT_EQ(g->num_h_inliers, expected.num_h_inliers);
      EXPECT_EQ(g->F, expected.F);
      ASSERT_EQ(g->inlier_matches.size(), expected.inlier_matches.size());
      for (size_t k = 0; k < expected.inlier_matches.size(); ++k) {
        EXPECT_EQ(g->inlier_matches[k].index1, expected.inlier_matches[k].index1);
      }
    }
  }
}

TEST(TwoViewGeometry, TooFewMatchesIsDegenerate) {
  const auto f = MakeTwoViews(false, 1.0, 10, 0);
  EXPECT_EQ(Estimate(f).configuration, TwoViewConfiguration::kDegenerate);
}

}  // namespace
}  // namespace proj
