#include "matching/two_view_geometry.h"

#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "geometry/rigid3.h"
#include "geometry/solvers/epipolar_residuals.h"
#include "geometry/solvers/essential_decomposition.h"
#include "geometry/solvers/homography_decomposition.h"
#include "tests/geometry/synthetic_scene.h"

namespace proj {
namespace {

constexpr double kFocalPx = 1000;
constexpr double kPlaneDepth = 6.0;

// `camera` is the prior of both images; matches [0, num_true) are true correspondences.
struct TwoViewFixture {
  Camera camera = Camera::FromFocal(CameraModelId::kSimpleRadial, 1280, 960, kFocalPx);
  std::vector<Eigen::Vector2d> keypoints1, keypoints2;
  std::vector<FeatureMatch> matches;
  int num_true = 0;
  Rigid3d cam2_from_cam1;  // truth; camera 1 is the world frame
};

// `planar`: points on the plane z = kPlaneDepth; `translation`: baseline length (0 = pure
// rotation); `focal2_px`: the true focal length of image 2 (its prior stays kFocalPx).
TwoViewFixture MakeTwoViews(bool planar, double translation, int num_points, int num_outliers,
                            double focal2_px = kFocalPx) {
  TwoViewFixture f;
  const Camera camera2 = Camera::FromFocal(CameraModelId::kSimpleRadial, 1280, 960, focal2_px);
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> unit(-1, 1);
  std::normal_distribution<double> noise(0, 0.3);
  f.cam2_from_cam1 = Rigid3d(Eigen::Matrix3d(Eigen::AngleAxisd(0.15, Eigen::Vector3d::UnitY())),
                             Eigen::Vector3d(-translation, 0.05 * translation, 0));
  while (f.num_true < num_points) {
    const Eigen::Vector3d x(3 * unit(rng), 2 * unit(rng),
                            planar ? kPlaneDepth : kPlaneDepth + 2 * unit(rng));
    Eigen::Vector2d uv1, uv2;
    if (!f.camera.Project(x, &uv1) || !camera2.Project(f.cam2_from_cam1 * x, &uv2)) continue;
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

double RotationErrorDeg(const Rigid3d& estimate, const Rigid3d& truth) {
  return estimate.rotation.angularDistance(truth.rotation) * 180.0 / M_PI;
}

double TranslationDirectionErrorDeg(const Rigid3d& estimate, const Rigid3d& truth) {
  const Eigen::Vector3d& a = estimate.translation;
  const Eigen::Vector3d& b = truth.translation;
  return std::atan2(a.cross(b).norm(), a.dot(b)) * 180.0 / M_PI;
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
  // Whichever of E's two planar solutions RANSAC keeps (the seed decides), the homography
  // shows the parallax.
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    TwoViewGeometryOptions options;
    options.seed = seed;
    EXPECT_EQ(EstimateTwoViewGeometry(options, f.camera, f.keypoints1, f.camera, f.keypoints2,
                                      f.matches)
                  .configuration,
              TwoViewConfiguration::kPlanar)
        << "seed " << seed;
  }
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
      EXPECT_EQ(g->E, expected.E);
      EXPECT_EQ(g->H, expected.H);
      EXPECT_EQ(g->has_relative_pose, expected.has_relative_pose);
      EXPECT_EQ(g->cam2_from_cam1.ToMatrix(), expected.cam2_from_cam1.ToMatrix());
      ASSERT_EQ(g->inlier_matches.size(), expected.inlier_matches.size());
      for (size_t k = 0; k < expected.inlier_matches.size(); ++k) {
        EXPECT_EQ(g->inlier_matches[k].index1, expected.inlier_matches[k].index1);
      }
    }
  }
}

TEST(TwoViewGeometry, TooFewMatchesIsDegenerate) {
  const auto f = MakeTwoViews(false, 1.0, 10, 0);
  const auto g = Estimate(f);
  EXPECT_EQ(g.configuration, TwoViewConfiguration::kDegenerate);
  EXPECT_FALSE(g.has_relative_pose);
}

// Calibrated: E is the true essential matrix, holds on the inliers, and its decomposition
// chosen by cheirality is the true pose.
TEST(TwoViewGeometry, CalibratedPairGivesEAndTheRelativePose) {
  const auto f = MakeTwoViews(false, 1.0, 300, 200);
  const auto g = Estimate(f);
  ASSERT_EQ(g.configuration, TwoViewConfiguration::kCalibrated);
  EXPECT_LT(testing::DistanceUpToScale(g.E, EssentialMatrixFromPose(f.cam2_from_cam1)), 0.01);
  for (const FeatureMatch& m : g.inlier_matches) {
    const Eigen::Vector2d n1 = f.camera.PixelToNormalized(f.keypoints1[m.index1]);
    const Eigen::Vector2d n2 = f.camera.PixelToNormalized(f.keypoints2[m.index2]);
    EXPECT_LT(std::sqrt(SampsonSquaredError(g.E, n1, n2)) * kFocalPx,
              TwoViewGeometryOptions().max_error_px);
  }
  ASSERT_TRUE(g.has_relative_pose);
  EXPECT_LT(RotationErrorDeg(g.cam2_from_cam1, f.cam2_from_cam1), 0.1);
  EXPECT_LT(TranslationDirectionErrorDeg(g.cam2_from_cam1, f.cam2_from_cam1), 1.0);
  EXPECT_NEAR(g.cam2_from_cam1.translation.norm(), 1.0, 1e-9);
}

// Planar: H is the plane's homography K (R + t n^T / d) K^-1 and maps the inliers; the pose
// comes from its decomposition.
TEST(TwoViewGeometry, PlanarPairGivesHAndTheRelativePose) {
  const auto f = MakeTwoViews(true, 1.0, 300, 100);
  const auto g = Estimate(f);
  ASSERT_EQ(g.configuration, TwoViewConfiguration::kPlanar);
  const Eigen::Matrix3d k = f.camera.CalibrationMatrix();
  const Eigen::Matrix3d true_h =
      k * HomographyFromPose(f.cam2_from_cam1, Eigen::Vector3d(0, 0, 1.0 / kPlaneDepth)) *
      k.inverse();
  EXPECT_LT(testing::DistanceUpToScale(g.H, true_h), 0.01);
  // Random outliers may lie near their epipolar lines (inliers of E), not near the plane.
  for (const FeatureMatch& m : g.inlier_matches) {
    if (m.index1 >= f.num_true) continue;
    EXPECT_LT(std::sqrt(HomographyTransferSquaredError(g.H, f.keypoints1[m.index1],
                                                       f.keypoints2[m.index2])),
              TwoViewGeometryOptions().max_error_px);
  }
  ASSERT_TRUE(g.has_relative_pose);
  EXPECT_LT(RotationErrorDeg(g.cam2_from_cam1, f.cam2_from_cam1), 0.1);
  EXPECT_LT(TranslationDirectionErrorDeg(g.cam2_from_cam1, f.cam2_from_cam1), 1.0);
  EXPECT_NEAR(g.cam2_from_cam1.translation.norm(), 1.0, 1e-9);
}

// Panoramic: the rotation of H, and no translation (not observable).
TEST(TwoViewGeometry, PanoramicPairGivesTheRotationAndZeroTranslation) {
  const auto f = MakeTwoViews(false, 0.0, 300, 100);
  const auto g = Estimate(f);
  ASSERT_EQ(g.configuration, TwoViewConfiguration::kPanoramic);
  ASSERT_TRUE(g.has_relative_pose);
  EXPECT_LT(RotationErrorDeg(g.cam2_from_cam1, f.cam2_from_cam1), 0.1);
  EXPECT_EQ(g.cam2_from_cam1.translation, Eigen::Vector3d::Zero());
}

// Uncalibrated (image 2 zoomed in, its prior unaware): the pose comes from F and the priors,
// so it is only roughly right, but the cheirality choice must still be the true one.
TEST(TwoViewGeometry, UncalibratedPairGivesARoughRelativePose) {
  const auto f = MakeTwoViews(false, 1.0, 300, 100, /*focal2_px=*/1200);
  const auto g = Estimate(f);
  ASSERT_EQ(g.configuration, TwoViewConfiguration::kUncalibrated);
  ASSERT_TRUE(g.has_relative_pose);
  EXPECT_LT(RotationErrorDeg(g.cam2_from_cam1, f.cam2_from_cam1), 1.0);
  EXPECT_LT(TranslationDirectionErrorDeg(g.cam2_from_cam1, f.cam2_from_cam1), 3.0);
  EXPECT_NEAR(g.cam2_from_cam1.translation.norm(), 1.0, 1e-9);
}

}  // namespace
}  // namespace proj
