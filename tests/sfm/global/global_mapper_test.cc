#include "sfm/global/global_mapper.h"

#include <gtest/gtest.h>

#include <climits>

#include "sfm/mapper/relative_pose_update.h"
#include "sfm/mapper/scene_geometry.h"
#include "tests/sfm/global/ring_view_graph.h"
#include "tests/sfm/mapper/mapper_test_scene.h"

namespace proj {
namespace {

testing::SyntheticSceneOptions SmallScene() { return testing::SmallMapperScene(); }

TEST(GlobalMapper, RotationsMatchTheTruthAndDropAWrongPair) {
  testing::MapperTestScene test = testing::MakeMapperTestScene(SmallScene());
  // Corrupt one pair's rotation by 30 degrees: averaging must outvote and then drop it.
  VerifiedPair& wrong = test.pairs[3];
  wrong.geometry.cam2_from_cam1.rotation =
      Eigen::Quaterniond(Eigen::AngleAxisd(30 * M_PI / 180, Eigen::Vector3d::UnitY())) *
      wrong.geometry.cam2_from_cam1.rotation;
  GlobalMapperTrace trace;
  const GlobalRotations rotations = EstimateGlobalRotations(GlobalMapperOptions(), 12, test.pairs, &trace);
  EXPECT_EQ(trace.num_pairs_dropped_rotation, 1);
  for (char in : rotations.in_model) EXPECT_TRUE(in);
  for (int i = 0; i < 12; ++i) {
    for (int j = i + 1; j < 12; ++j) {
      const Eigen::Quaterniond truth = test.truth.images[j].cam_from_world.rotation *
                                       test.truth.images[i].cam_from_world.rotation.conjugate();
      const Eigen::Quaterniond estimate = rotations.rotations[j] * rotations.rotations[i].conjugate();
      EXPECT_LT(truth.angularDistance(estimate) * 180 / M_PI, 1e-4) << i << " " << j;
    }
  }
}

TEST(GlobalMapper, RegistersEverySyntheticImageAccurately) {
  const testing::MapperTestScene test = testing::MakeMapperTestScene(SmallScene());
  Scene scene = test.input;
  GlobalMapperOptions options;
  options.refinement.num_threads = 1;
  const MapperSummary summary = RunGlobalMapper(options, test.tracks, test.pairs, &scene);
  ASSERT_TRUE(summary.success) << summary.failure_reason;
  EXPECT_EQ(summary.num_registered, 12);
  EXPECT_GT(summary.num_points, 400);
  EXPECT_LT(testing::MaxRelativeRotationErrorDeg(test.truth, scene), 0.1);
  EXPECT_LT(MeanReprojectionErrorPx(scene), 0.1);
}

// Largest angle (degrees) between true and estimated relative rotations over all image pairs.
double MaxRelativeRotationErrorDeg(const Scene& truth, const std::vector<Eigen::Quaterniond>& rotations) {
  Scene estimate = truth;
  for (size_t i = 0; i < rotations.size(); ++i) estimate.images[i].cam_from_world.rotation = rotations[i];
  return testing::MaxRelativeRotationErrorDeg(truth, estimate);
}

// The pattern behind the wrong 50-image synthetic ring and castle-P19: pairs verified under a
// focal prior 40% too long (no EXIF) carry relative rotations off by degrees, and averaging
// them gives wrong rotations. Calibrating the focal length and estimating the poses again
// under it gives the true ones.
TEST(GlobalMapper, RotationsOfARingVerifiedUnderAWrongFocalPrior) {
  testing::RingViewGraph graph = testing::MakeRingViewGraph({});
  const int n = static_cast<int>(graph.input.images.size());
  const GlobalRotations before = EstimateGlobalRotations(GlobalMapperOptions(), n, graph.pairs);
  EXPECT_GT(MaxRelativeRotationErrorDeg(graph.truth, before.rotations), 20.0);

  const std::vector<Camera> priors = graph.input.cameras;
  const auto focal = CalibrateFocalLengths(FocalCalibrationOptions(), graph.input, graph.pairs, 30);
  ASSERT_TRUE(focal[0].calibrated);
  graph.input.cameras[0].SetFocal(focal[0].focal_px);
  EXPECT_EQ(UpdateRelativePoses(RelativePoseUpdateOptions(), priors, graph.input, &graph.pairs),
            static_cast<int>(graph.pairs.size()));
  GlobalMapperTrace trace;
  const GlobalRotations after = EstimateGlobalRotations(GlobalMapperOptions(), n, graph.pairs, &trace);
  for (char in : after.in_model) EXPECT_TRUE(in);
  EXPECT_EQ(trace.num_pairs_dropped_rotation, 0);
  // 0.4 deg here: the focal length is 0.7% off and the keypoints noisy; bundle adjustment
  // takes it from there.
  EXPECT_LT(MaxRelativeRotationErrorDeg(graph.truth, after.rotations), 1.0);
}

// The whole mapper on such a ring, for a wide-angle camera (true focal length 1100 px, the
// prior twice that). Without the calibration (min_num_pairs out of reach) bundle adjustment
// settles in a wrong model, as on the 50-image `sfm synth` ring (1.3 m median position
// error, 7.7 deg rotation error) and on castle-P19.
TEST(GlobalMapper, MapsARingVerifiedUnderAWrongFocalPrior) {
  testing::RingViewGraphOptions ring;
  ring.prior_focal_px = {2200};
  const testing::RingViewGraph graph = testing::MakeRingViewGraph(ring);
  auto run = [&](const GlobalMapperOptions& options, Scene* scene) {
    *scene = graph.input;
    const MapperSummary summary = RunGlobalMapper(options, graph.tracks, graph.pairs, scene);
    EXPECT_TRUE(summary.success) << summary.failure_reason;
  };
  GlobalMapperOptions options;
  options.refinement.num_threads = 1;
  Scene scene;
  run(options, &scene);
  EXPECT_EQ(scene.NumRegisteredImages(), 16);
  EXPECT_LT(testing::MaxRelativeRotationErrorDeg(graph.truth, scene), 0.1);
  std::vector<Eigen::Vector3d> true_centres, centres;
  testing::RegisteredCentres(graph.truth, scene, &true_centres, &centres);
  EXPECT_LT(testing::MaxAlignedDistance(true_centres, centres, 10), 0.005);
  EXPECT_NEAR(scene.cameras[0].MeanFocal() / 1100, 1, 0.005);

  // The view graph calibration off: the focal length from a small incremental model
  // (focal_bootstrap.h) instead; both off: the prior's rotations are wrong.
  options.refinement.calibration.focal.min_num_pairs = INT_MAX;
  Scene bootstrapped;
  run(options, &bootstrapped);
  EXPECT_LT(testing::MaxRelativeRotationErrorDeg(graph.truth, bootstrapped), 0.1);
  EXPECT_NEAR(bootstrapped.cameras[0].MeanFocal() / 1100, 1, 0.005);
  options.focal_bootstrap.enabled = false;
  Scene uncalibrated;
  run(options, &uncalibrated);
  EXPECT_GT(testing::MaxRelativeRotationErrorDeg(graph.truth, uncalibrated), 10);
}

TEST(GlobalMapper, FailsCleanlyWithoutRelativePoses) {
  testing::MapperTestScene test = testing::MakeMapperTestScene(SmallScene());
  for (VerifiedPair& pair : test.pairs) pair.geometry.has_relative_pose = false;
  Scene scene = test.input;
  const MapperSummary summary = RunGlobalMapper(GlobalMapperOptions(), test.tracks, test.pairs, &scene);
  EXPECT_FALSE(summary.success);
  EXPECT_FALSE(summary.failure_reason.empty());
  EXPECT_EQ(scene.NumRegisteredImages(), 0);
}

}  // namespace
}  // namespace proj
