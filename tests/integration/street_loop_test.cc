// Loop closure (sfm/stages/loop_closure.h): a drive around a block back to its start
// (synthetic street loop, small and fast). With loop closure the sequential matcher pairs the
// last frames with the first ones, far apart in name order, and the model's drift at the
// loop's end, measured against the start, shrinks.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "core/logging.h"
#include "datasets/synthetic/synthetic_output.h"
#include "datasets/synthetic/synthetic_street.h"
#include "geometry/solvers/similarity.h"
#include "io/strecha_camera.h"
#include "sfm/database/scene_database.h"
#include "sfm/pipeline/reconstruction_pipeline.h"
#include "sfm/scene/evaluation.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

// 48 frames of 640x194 (the car camera at half size), 1.5 m apart around a block with turns
// of 6 m radius: 72 m, the last frame 1.5 m before the first.
SyntheticStreetOptions SmallLoop() {
  SyntheticStreetOptions street;
  street.loop = true;
  street.num_frames = 48;
  street.stop_frames = 0;
  street.step_m = 1.5;
  street.turn_radius_m = 6;
  street.width = 640;
  street.height = 194;
  street.focal_px = 376;
  return street;
}

constexpr int kEnds = 8;  // frames at each end of the loop

// Mean position error of the last kEnds frames once the model is aligned (similarity) to the
// truth on the first kEnds + 4 frames only: how far the model has drifted by the loop's end.
double DriftAtLoopEnd(const Scene& scene, const std::string& gt_dir, int num_frames) {
  std::vector<Eigen::Vector3d> model, truth;
  std::vector<Eigen::Vector3d> end_model, end_truth;
  for (const SceneImage& image : scene.images) {
    if (!image.registered) continue;
    const int frame = std::stoi(image.name.substr(0, 4));
    const Eigen::Vector3d true_centre = ReadStrechaCamera(gt_dir + "/" + image.name + ".camera").C;
    if (frame < kEnds + 4) {
      model.push_back(image.cam_from_world.Center());
      truth.push_back(true_centre);
    } else if (frame >= num_frames - kEnds) {
      end_model.push_back(image.cam_from_world.Center());
      end_truth.push_back(true_centre);
    }
  }
  Sim3d truth_from_model;
  EXPECT_TRUE(EstimateSimilarityUmeyama(model, truth, &truth_from_model));
  EXPECT_EQ(end_model.size(), static_cast<size_t>(kEnds));
  double sum = 0;
  for (size_t i = 0; i < end_model.size(); ++i) sum += (truth_from_model * end_model[i] - end_truth[i]).norm();
  return sum / std::max<size_t>(1, end_model.size());
}

// Verified pairs between the first and the last kEnds frames.
int VerifiedLoopPairs(const std::string& database_path, int num_frames) {
  const SceneDatabase database(database_path, SceneDatabase::Mode::kReadOnly);
  std::map<int, int> frame_of_id;
  for (const DatabaseImage& image : database.ReadImages()) frame_of_id[image.image_id] = std::stoi(image.name.substr(0, 4));
  int count = 0;
  for (const auto& [pair_id, geometry] : database.ReadTwoViewGeometries()) {
    if (geometry.configuration == TwoViewConfiguration::kDegenerate) continue;
    const auto [id1, id2] = ImageIdsFromPairId(pair_id);
    const int a = std::min(frame_of_id[id1], frame_of_id[id2]);
    const int b = std::max(frame_of_id[id1], frame_of_id[id2]);
    if (a < kEnds && b >= num_frames - kEnds) ++count;
  }
  return count;
}

TEST(StreetLoop, LoopClosurePairsTheEndsAndShrinksTheDrift) {
  SetLogLevel(LogLevel::kWarning);
  const std::string dir = testing::MakeTempDir("street_loop");
  const SyntheticStreetOptions street = SmallLoop();
  WriteSyntheticStreet(street, dir);
  const std::string gt = dir + "/gt_dense_cameras";
  ReconstructionOptions options;
  options.run.device = ComputeDevice::kCpu;
  options.pair_selection.mode = PairSelection::kSequential;

  options.loop_closure.enabled = false;
  const ReconstructionResult open = BuildReconstruction(options, dir + "/images", dir + "/open.db");
  options.loop_closure.enabled = true;
  const ReconstructionResult closed = BuildReconstruction(options, dir + "/images", dir + "/closed.db");
  ASSERT_TRUE(open.mapper.success) << open.mapper.failure_reason;
  ASSERT_TRUE(closed.mapper.success) << closed.mapper.failure_reason;

  EXPECT_EQ(VerifiedLoopPairs(dir + "/open.db", street.num_frames), 0);
  EXPECT_GE(VerifiedLoopPairs(dir + "/closed.db", street.num_frames), 3);
  EXPECT_GT(closed.statistics.num_loop_pairs_verified, 0);
  EXPECT_LE(closed.statistics.num_loop_pairs_verified, closed.statistics.num_loop_pairs);

  const PoseEvaluation open_evaluation = EvaluateAgainstGroundTruth(open.scene, gt);
  const PoseEvaluation closed_evaluation = EvaluateAgainstGroundTruth(closed.scene, gt);
  EXPECT_EQ(closed_evaluation.num_registered, street.num_frames);
  const double open_drift = DriftAtLoopEnd(open.scene, gt, street.num_frames);
  const double closed_drift = DriftAtLoopEnd(closed.scene, gt, street.num_frames);
  std::cerr << "loop end drift: " << open_drift << " m without loop closure, " << closed_drift
            << " m with it; median position error " << open_evaluation.median_position_error << " / "
            << closed_evaluation.median_position_error << " m, max rotation error "
            << open_evaluation.max_rotation_error_deg << " / " << closed_evaluation.max_rotation_error_deg
            << " deg\n";
  EXPECT_LT(closed_drift, 0.5 * open_drift);
}

}  // namespace
}  // namespace proj
