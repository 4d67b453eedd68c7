#include "sfm/gcp/ground_control.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include "sfm/mapper/prior_alignment.h"
#include "tests/sfm/ba/synthetic_scene.h"

namespace proj {
namespace {

// A noise-free scene whose true frame plays the GCPs' ENU frame; the first `num_gcps` points
// become GCPs (their marks the exact keypoints) and leave the scene.
struct GcpScene {
  Scene truth;
  std::vector<GroundControlInput> gcps;
};

GcpScene MakeGcpScene(int num_gcps, const std::vector<int>& check_indices) {
  testing::SyntheticSceneOptions options;
  options.camera_models = {CameraModelId::kSimpleRadial};
  GcpScene scene{testing::MakeSyntheticScene(options), {}};
  // Well spread: every 30th point.
  std::vector<int> ids;
  for (const auto& [id, point] : scene.truth.points) ids.push_back(id);
  for (int k = 0; k < num_gcps; ++k) {
    const int id = ids[k * 30];
    const Point3D& point = scene.truth.points.at(id);
    GroundControlInput gcp;
    gcp.name = "gcp" + std::to_string(k);
    gcp.surveyed_enu = point.position;
    for (const TrackElement& element : point.track) {
      gcp.marks.emplace_back(element.image_id, scene.truth.images[element.image_id].keypoints[element.keypoint_index]);
    }
    for (int check : check_indices) {
      if (check == k) gcp.role = GcpRole::kCheck;
    }
    scene.gcps.push_back(gcp);
    scene.truth.DeletePoint(id);
  }
  return scene;
}

// The scene as a mapper leaves it: in an arbitrary frame, its cameras slightly off.
Scene ModelFrame(const Scene& truth) {
  Scene model = truth;
  TransformScene(Sim3d(0.37, Eigen::Quaterniond(Eigen::AngleAxisd(0.8, Eigen::Vector3d(1, 2, 3).normalized())),
                       Eigen::Vector3d(5, -2, 11)),
                 &model);
  for (size_t i = 1; i < model.images.size(); i += 2) {
    model.images[i].cam_from_world.translation += Eigen::Vector3d(0.01, -0.02, 0.015);
  }
  return model;
}

BundleAdjustmentOptions CpuOptions() {
  BundleAdjustmentOptions ba;
  ba.num_threads = 1;
  ba.solver = BundleAdjustmentOptions::Solver::kCpu;
  return ba;
}

TEST(GroundControl, BringsTheModelIntoTheGcpFrame) {
  const GcpScene data = MakeGcpScene(6, {1, 4});
  Scene model = ModelFrame(data.truth);
  const size_t num_points = model.points.size();
  const size_t num_keypoints = model.images[0].keypoints.size();
  GroundControlOptions options;
  const GroundControlSummary summary = AdjustToGroundControl(options, CpuOptions(), data.gcps, &model);
  ASSERT_TRUE(summary.georeferenced) << summary.failure_reason;
  EXPECT_EQ(summary.adjustment.solver, "lm-pcg-cpu");
  EXPECT_EQ(summary.adjustment.num_point_priors, 4);
  EXPECT_EQ(summary.control.count, 4);
  EXPECT_EQ(summary.check.count, 2);
  EXPECT_LT(summary.control.error_m, 1e-4);
  EXPECT_LT(summary.check.error_m, 1e-4);
  ASSERT_EQ(summary.points.size(), 6u);
  EXPECT_EQ(summary.points[1].role, GcpRole::kCheck);
  EXPECT_EQ(summary.points[1].num_marks, static_cast<int>(data.gcps[1].marks.size()));
  for (size_t i = 0; i < model.images.size(); ++i) {
    EXPECT_LT((model.images[i].cam_from_world.Center() - data.truth.images[i].cam_from_world.Center()).norm(), 1e-4);
  }
  // Ceres, the reference, finds the same model.
  Scene ceres_model = ModelFrame(data.truth);
  BundleAdjustmentOptions ceres = CpuOptions();
  ceres.solver = BundleAdjustmentOptions::Solver::kCeres;
  const GroundControlSummary ceres_summary = AdjustToGroundControl(options, ceres, data.gcps, &ceres_model);
  EXPECT_EQ(ceres_summary.adjustment.solver, "ceres");
  EXPECT_NEAR(summary.check.error_m, ceres_summary.check.error_m, 1e-6);
  for (size_t i = 0; i < model.images.size(); ++i) {
    EXPECT_LT((model.images[i].cam_from_world.Center() - ceres_model.images[i].cam_from_world.Center()).norm(), 1e-6);
  }
  // The control points were only lent to the adjustment.
  EXPECT_EQ(model.points.size(), num_points);
  EXPECT_EQ(model.images[0].keypoints.size(), num_keypoints);
  EXPECT_EQ(model.images[0].point3d_ids.size(), num_keypoints);
}

TEST(GroundControl, AWrongControlPointShowsInItsResidual) {
  // One control point surveyed 5 cm (5 px) off. Held tightly (0.1 mm), its marks disagree
  // with the images by pixels and the robust loss treats them as outliers: the model stays
  // true and the point's residual shows the error. Held loosely (10 m), the points only fix
  // the frame, a least-squares fit that spreads the error over all of them.
  GcpScene data = MakeGcpScene(5, {});
  data.gcps[0].surveyed_enu.x() += 0.05;
  std::vector<GroundControlSummary> summaries;
  for (double sigma : {1e-4, 10.0}) {
    Scene model = ModelFrame(data.truth);
    GroundControlOptions options;
    options.sigma_horizontal_m = options.sigma_vertical_m = sigma;
    summaries.push_back(AdjustToGroundControl(options, CpuOptions(), data.gcps, &model));
    ASSERT_TRUE(summaries.back().georeferenced);
  }
  EXPECT_NEAR(summaries[0].points[0].residual_enu_m.x(), -0.05, 0.006);
  EXPECT_NEAR(summaries[1].points[0].residual_enu_m.x(), -0.025, 0.01);
  for (int i = 1; i < 5; ++i) EXPECT_LT(summaries[0].points[i].residual_enu_m.norm(), 0.004) << i;
  double spread = 0;  // of the other points' residuals, held loosely
  for (int i = 1; i < 5; ++i) spread = std::max(spread, summaries[1].points[i].residual_enu_m.norm());
  EXPECT_GT(spread, 0.008);
}

TEST(GroundControl, TooFewControlPointsLeaveTheSceneUnchanged) {
  GcpScene data = MakeGcpScene(4, {0, 1});
  data.gcps[3].marks.resize(1);  // seen in one image: cannot be triangulated
  Scene model = ModelFrame(data.truth);
  const Eigen::Vector3d center = model.images[0].cam_from_world.Center();
  const GroundControlSummary summary = AdjustToGroundControl(GroundControlOptions{}, CpuOptions(), data.gcps, &model);
  EXPECT_FALSE(summary.georeferenced);
  EXPECT_NE(summary.failure_reason.find("1 control point(s) could be triangulated"), std::string::npos)
      << summary.failure_reason;
  EXPECT_EQ(model.images[0].cam_from_world.Center(), center);
  EXPECT_EQ(summary.check.count, 0);  // no residuals without a georeference
}

TEST(GroundControl, OptionsAreChecked) {
  GroundControlOptions options;
  options.sigma_vertical_m = 0;
  EXPECT_THROW(options.Check(), InputError);
}

}  // namespace
}  // namespace proj
