#include "sfm/mapper/focal_calibration.h"

#include <gtest/gtest.h>

#include "geometry/solvers/essential_decomposition.h"
#include "tests/sfm/global/ring_view_graph.h"

namespace proj {
namespace {

constexpr int kMinPairInliers = 30;

TEST(FocalCalibration, RecoversTheFocalLengthBehindAWrongPrior) {
  // The 50-image `sfm synth` ring's case: no EXIF, prior 1536 px for a true 1100 px.
  const testing::RingViewGraph graph = testing::MakeRingViewGraph({});
  const auto result = CalibrateFocalLengths(FocalCalibrationOptions(), graph.input, graph.pairs, kMinPairInliers);
  ASSERT_EQ(result.size(), 1u);
  EXPECT_TRUE(result[0].calibrated);
  EXPECT_GT(result[0].num_pairs, 50);
  EXPECT_DOUBLE_EQ(result[0].prior_px, 1536);
  EXPECT_NEAR(result[0].focal_px / 1100, 1, 0.01);
}

TEST(FocalCalibration, CalibratesTwoCamerasTogether) {
  testing::RingViewGraphOptions options;
  options.prior_focal_px = {1536, 800};  // one too long, one too short
  const testing::RingViewGraph graph = testing::MakeRingViewGraph(options);
  const auto result = CalibrateFocalLengths(FocalCalibrationOptions(), graph.input, graph.pairs, kMinPairInliers);
  ASSERT_EQ(result.size(), 2u);
  for (const CameraFocalCalibration& camera : result) {
    EXPECT_TRUE(camera.calibrated) << camera.camera_id;
    EXPECT_NEAR(camera.focal_px / 1100, 1, 0.01) << camera.camera_id;
  }
}

TEST(FocalCalibration, KeepsAnExifFocalLength) {
  testing::RingViewGraph graph = testing::MakeRingViewGraph({});
  graph.input.focal_priors_px[0] = 1536;
  const auto result = CalibrateFocalLengths(FocalCalibrationOptions(), graph.input, graph.pairs, kMinPairInliers);
  EXPECT_TRUE(result[0].from_exif);
  EXPECT_FALSE(result[0].calibrated);
  EXPECT_DOUBLE_EQ(result[0].focal_px, 1536);
}

TEST(FocalCalibration, KeepsThePriorWithTooFewPairs) {
  const testing::RingViewGraph graph = testing::MakeRingViewGraph({});
  const std::vector<VerifiedPair> few(graph.pairs.begin(), graph.pairs.begin() + 4);
  const auto result = CalibrateFocalLengths(FocalCalibrationOptions(), graph.input, few, kMinPairInliers);
  EXPECT_EQ(result[0].num_pairs, 4);
  EXPECT_FALSE(result[0].calibrated);
  EXPECT_DOUBLE_EQ(result[0].focal_px, 1536);
}

TEST(FocalCalibration, KeepsThePriorWhereTheCriterionIsFlat) {
  // Cameras translating without rotating (parallel optical axes, as in a nadir survey):
  // K'^T F K' is an essential matrix for every focal length, so nothing tells the right one.
  testing::RingViewGraph graph = testing::MakeRingViewGraph({});
  const Eigen::Matrix3d k_inverse = graph.truth.cameras[0].CalibrationMatrix().inverse();
  std::vector<VerifiedPair> pairs;
  for (int i = 0; i < 10; ++i) {
    const Eigen::Vector3d direction(std::cos(0.3 * i), std::sin(0.3 * i), 0.1 * i);
    const Rigid3d translation(Eigen::Quaterniond::Identity(), direction.normalized());
    VerifiedPair pair;
    pair.pair = {i, i + 1};
    pair.geometry.configuration = TwoViewConfiguration::kCalibrated;
    pair.geometry.F = k_inverse.transpose() * EssentialMatrixFromPose(translation) * k_inverse;
    pair.geometry.inlier_matches.assign(100, FeatureMatch{0, 0});
    pairs.push_back(pair);
  }
  const auto result = CalibrateFocalLengths(FocalCalibrationOptions(), graph.input, pairs, kMinPairInliers);
  EXPECT_EQ(result[0].num_pairs, 10);
  EXPECT_FALSE(result[0].calibrated);
  EXPECT_DOUBLE_EQ(result[0].focal_px, 1536);
}

}  // namespace
}  // namespace proj
