// The step both mappers start with (sfm/mapper/view_graph_calibration.h), and the incremental
// mapper on a view graph verified under a focal prior twice too long. The ring's graph lives
// with the global mapper's tests, which share it.
#include "sfm/mapper/view_graph_calibration.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "sfm/mapper/incremental_mapper.h"
#include "tests/sfm/global/ring_view_graph.h"
#include "tests/sfm/mapper/mapper_test_scene.h"

namespace proj {
namespace {

ViewGraphCalibrationOptions NoLimit() {
  ViewGraphCalibrationOptions options;
  options.max_pairs_reestimated = 0;
  return options;
}

TEST(ViewGraphCalibration, CalibratesTheFocalLengthAndEstimatesThePosesAgain) {
  const testing::RingViewGraph graph = testing::MakeRingViewGraph({});
  Scene scene = graph.input;
  std::vector<VerifiedPair> updated;
  ViewGraphCalibration result;
  const std::vector<VerifiedPair>& pairs =
      CalibrateViewGraph(NoLimit(), 1, 0, graph.pairs, &scene, &updated, &result);
  EXPECT_EQ(&pairs, &updated);
  ASSERT_EQ(result.cameras.size(), 1u);
  EXPECT_TRUE(result.cameras[0].calibrated);
  EXPECT_NEAR(scene.cameras[0].MeanFocal() / 1100, 1, 0.01);
  EXPECT_EQ(result.num_pairs_reestimated, static_cast<int>(graph.pairs.size()));
  // The poses now agree with the true relative rotations (under the prior they were degrees off).
  double worst_deg = 0;
  for (const VerifiedPair& pair : pairs) {
    const Eigen::Quaterniond truth = graph.truth.images[pair.pair.image2].cam_from_world.rotation *
                                     graph.truth.images[pair.pair.image1].cam_from_world.rotation.conjugate();
    worst_deg = std::max(worst_deg, truth.angularDistance(pair.geometry.cam2_from_cam1.rotation) * 180 / M_PI);
  }
  EXPECT_LT(worst_deg, 1.0);
}

// With a limit, the pairs with the most inliers are estimated again and the rest lose their
// (stale) pose, to be estimated if the incremental mapper tries them.
TEST(ViewGraphCalibration, EstimatesAtMostTheLimitMostInliersFirst) {
  const testing::RingViewGraph graph = testing::MakeRingViewGraph({});
  Scene scene = graph.input;
  std::vector<VerifiedPair> updated;
  ViewGraphCalibration result;
  const int limit = 10;
  ViewGraphCalibrationOptions options;
  options.max_pairs_reestimated = limit;
  const std::vector<VerifiedPair>& pairs =
      CalibrateViewGraph(options, 1, 0, graph.pairs, &scene, &updated, &result);
  ASSERT_GT(static_cast<int>(pairs.size()), limit);
  EXPECT_EQ(result.num_pairs_reestimated, limit);
  size_t fewest_with_pose = SIZE_MAX, most_without = 0;
  int with_pose = 0;
  for (const VerifiedPair& pair : pairs) {
    const size_t inliers = pair.geometry.inlier_matches.size();
    if (pair.geometry.has_relative_pose) {
      ++with_pose;
      fewest_with_pose = std::min(fewest_with_pose, inliers);
    } else {
      most_without = std::max(most_without, inliers);
    }
  }
  EXPECT_EQ(with_pose, limit);
  EXPECT_GE(fewest_with_pose, most_without);
}

TEST(ViewGraphCalibration, LeavesExifCamerasAndDisabledRunsAlone) {
  const testing::RingViewGraph graph = testing::MakeRingViewGraph({});
  std::vector<VerifiedPair> updated;
  ViewGraphCalibration result;
  Scene exif = graph.input;
  exif.focal_priors_px[0] = 1536;
  EXPECT_EQ(&CalibrateViewGraph(NoLimit(), 1, 0, graph.pairs, &exif, &updated, &result),
            &graph.pairs);
  EXPECT_DOUBLE_EQ(exif.cameras[0].MeanFocal(), 1536);
  EXPECT_EQ(result.num_pairs_reestimated, 0);

  ViewGraphCalibrationOptions disabled;
  disabled.enabled = false;
  Scene scene = graph.input;
  EXPECT_EQ(&CalibrateViewGraph(disabled, 1, 0, graph.pairs, &scene, &updated, &result), &graph.pairs);
  EXPECT_TRUE(result.cameras.empty());
  EXPECT_DOUBLE_EQ(scene.cameras[0].MeanFocal(), 1536);
}

// A wide-angle camera (true focal 1100 px) without EXIF, its prior twice that: the incremental
// mapper starts from the calibrated focal length and builds the true ring. (On this ring
// bundle adjustment alone also gets there; the synthetic street, where it does not, is
// integration_test's StreetSequence.)
TEST(ViewGraphCalibration, IncrementalMapperMapsARingVerifiedUnderAWrongFocalPrior) {
  testing::RingViewGraphOptions ring;
  ring.prior_focal_px = {2200};
  const testing::RingViewGraph graph = testing::MakeRingViewGraph(ring);
  IncrementalMapperOptions options;
  options.num_threads = 1;
  Scene scene = graph.input;
  const MapperSummary summary = RunIncrementalMapper(options, graph.tracks, graph.pairs, &scene);
  ASSERT_TRUE(summary.success) << summary.failure_reason;
  EXPECT_EQ(scene.NumRegisteredImages(), 16);
  EXPECT_LT(testing::MaxRelativeRotationErrorDeg(graph.truth, scene), 0.1);
  EXPECT_NEAR(scene.cameras[0].MeanFocal() / 1100, 1, 0.005);
}

}  // namespace
}  // namespace proj
