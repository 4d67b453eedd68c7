// End-to-end reconstructions, in process: the synthetic scene (exact ground truth) and a real
// Strecha scene (skipped when ../shared/datasets is absent).
#include <gtest/gtest.h>

#include "core/logging.h"
#include "datasets/synthetic/synthetic_scene.h"
#include "sfm/pipeline/reconstruction_pipeline.h"
#include "sfm/scene/evaluation.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

ReconstructionOptions CpuOptions() {
  ReconstructionOptions options;
  options.run.device = ComputeDevice::kCpu;
  return options;
}

TEST(Reconstruction, SyntheticSceneFullyRegisteredWithAccurateRotations) {
  SetLogLevel(LogLevel::kWarning);
  const std::string dir = testing::MakeTempDir("synthetic_scene");
  WriteSyntheticScene(SyntheticSceneOptions(), dir);
  const ReconstructionResult result = BuildReconstruction(CpuOptions(), dir + "/images", dir + "/database.db");
  ASSERT_TRUE(result.mapper.success) << result.mapper.failure_reason;
  const PoseEvaluation evaluation = EvaluateAgainstGroundTruth(result.scene, dir + "/gt_dense_cameras");
  EXPECT_EQ(evaluation.num_registered, evaluation.num_ground_truth);
  EXPECT_LT(evaluation.max_rotation_error_deg, 0.1);
  EXPECT_GT(result.scene.points.size(), 1000u);
}

TEST(Reconstruction, FountainP11At1600PxFullyRegisteredWithin15mm) {
  PROJ_REQUIRE_SHARED_DATASET(scene_dir, "strecha/fountain-P11");
  SetLogLevel(LogLevel::kWarning);
  ReconstructionOptions options = CpuOptions();
  options.extraction.max_image_size = 1600;
  const std::string database = testing::MakeTempDir("fountain_1600") + "/database.db";
  const ReconstructionResult result = BuildReconstruction(options, scene_dir + "/images", database);
  ASSERT_TRUE(result.mapper.success) << result.mapper.failure_reason;
  const PoseEvaluation evaluation =
      EvaluateAgainstGroundTruth(result.scene, scene_dir + "/gt_dense_cameras");
  EXPECT_EQ(evaluation.num_registered, 11);
  EXPECT_LE(evaluation.median_position_error, 0.015);
}

TEST(Reconstruction, SyntheticSequenceWithKltFullyRegistered) {
  SetLogLevel(LogLevel::kWarning);
  const std::string dir = testing::MakeTempDir("synthetic_sequence");
  SyntheticSceneOptions scene;
  scene.sequence = true;
  scene.num_frames = 60;
  WriteSyntheticScene(scene, dir);
  ReconstructionOptions options = CpuOptions();
  options.correspondences = CorrespondenceSource::kKltTracks;
  const ReconstructionResult result = BuildReconstruction(options, dir + "/images", dir + "/database.db");
  ASSERT_TRUE(result.mapper.success) << result.mapper.failure_reason;
  const PoseEvaluation evaluation = EvaluateAgainstGroundTruth(result.scene, dir + "/gt_dense_cameras");
  EXPECT_EQ(evaluation.num_registered, 60);
  EXPECT_LT(evaluation.max_rotation_error_deg, 0.1);
}

}  // namespace
}  // namespace proj
