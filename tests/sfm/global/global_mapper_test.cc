#include "sfm/global/global_mapper.h"

#include <gtest/gtest.h>

#include "sfm/mapper/scene_geometry.h"
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
