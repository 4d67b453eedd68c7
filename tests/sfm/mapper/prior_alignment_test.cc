// Georeferencing by GPS priors: the robust alignment (outlier fixes rejected), bundle
// adjustment with position priors on a synthetic drone flight (scale and position recovered
// from noisy GPS), and the incremental mapper ending in the priors' frame.
#include "sfm/mapper/prior_alignment.h"

#include <algorithm>
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "sfm/ba/bundle_adjuster.h"
#include "sfm/mapper/incremental_mapper.h"
#include "tests/sfm/mapper/mapper_test_scene.h"

namespace proj {
namespace {

// A nadir drone flight in a local ENU frame (metres): a 4 x 5 grid of cameras 40 m above
// gently rolling terrain, 15 m apart, each looking straight down; keypoints are the projections
// plus 0.5 px Gaussian noise.
Scene MakeDroneFlight(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> pixel_noise(0.0, 0.5);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  Scene scene;
  scene.cameras.push_back(Camera::FromFocal(CameraModelId::kSimpleRadial, 1200, 900, 1000));
  for (int row = 0; row < 4; ++row) {
    for (int col = 0; col < 5; ++col) {
      SceneImage image;
      image.name = "flight_" + std::to_string(row) + "_" + std::to_string(col) + ".jpg";
      image.camera_id = 0;
      image.registered = true;
      const Eigen::Vector3d center(15.0 * col, 15.0 * row, 40.0 + 0.5 * unit(rng));
      image.cam_from_world =
          testing::LookAt(center, center - Eigen::Vector3d(0.01 * unit(rng), 0.01 * unit(rng), 40));
      scene.images.push_back(image);
    }
  }
  for (int p = 0; p < 1500; ++p) {
    const double x = -15 + 90 * (0.5 + 0.5 * unit(rng));
    const double y = -15 + 75 * (0.5 + 0.5 * unit(rng));
    const Eigen::Vector3d position(x, y, 2.0 * std::sin(0.1 * x) * std::cos(0.07 * y));
    std::vector<TrackElement> track;
    for (int i = 0; i < static_cast<int>(scene.images.size()); ++i) {
      SceneImage& image = scene.images[i];
      Eigen::Vector2d uv;
      if (!scene.cameras[0].Project(image.cam_from_world * position, &uv)) continue;
      if (uv.x() < 0 || uv.y() < 0 || uv.x() > 1200 || uv.y() > 900) continue;
      track.push_back({i, static_cast<int>(image.keypoints.size())});
      image.keypoints.push_back(uv + Eigen::Vector2d(pixel_noise(rng), pixel_noise(rng)));
      image.point3d_ids.push_back(kInvalidId);
    }
    if (track.size() >= 2) scene.AddPoint(position, track);
  }
  return scene;
}

// GPS priors: true centres plus Gaussian noise (sigma_m per axis); image `outlier` (if >= 0)
// is moved 30 m east, a wrong fix.
void AddGpsPriors(double sigma_m, int outlier, uint64_t seed, Scene* scene) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, sigma_m);
  for (int i = 0; i < static_cast<int>(scene->images.size()); ++i) {
    PositionPrior prior;
    prior.position = scene->images[i].cam_from_world.Center() +
                     Eigen::Vector3d(noise(rng), noise(rng), noise(rng));
    if (i == outlier) prior.position.x() += 30;
    prior.sigma = Eigen::Vector3d::Constant(sigma_m);
    scene->position_priors[i] = prior;
  }
}

// An unanchored reconstruction: 0.07 x the true size, turned by 2 rad and moved.
const Sim3d kModelFromTrue(0.07,
                           Eigen::Quaterniond(Eigen::AngleAxisd(2.0, Eigen::Vector3d(1, 2, 3).normalized())),
                           Eigen::Vector3d(3, -1, 2));

// The scene moved by model_from_true, with poses and points perturbed (relative to the model's
// size) so that the adjustment has work to do.
Scene InModelFrame(const Scene& truth, const Sim3d& model_from_true, uint64_t seed) {
  Scene model = truth;
  TransformScene(model_from_true, &model);
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, 1.0);
  for (auto& image : model.images) {
    image.cam_from_world.translation += 0.1 * model_from_true.scale * Eigen::Vector3d(noise(rng), noise(rng), noise(rng));
  }
  for (auto& [id, point] : model.points) {
    point.position += 0.1 * model_from_true.scale * Eigen::Vector3d(noise(rng), noise(rng), noise(rng));
  }
  return model;
}

double CenterError(const Scene& a, const Scene& b, int image_id) {
  return (a.images[image_id].cam_from_world.Center() - b.images[image_id].cam_from_world.Center())
      .norm();
}

double MedianPointError(const Scene& model, const Scene& truth) {
  std::vector<double> errors;
  for (const auto& [id, point] : model.points) {
    errors.push_back((point.position - truth.points.at(id).position).norm());
  }
  std::sort(errors.begin(), errors.end());
  return errors[errors.size() / 2];
}

TEST(PriorAlignment, TransformSceneKeepsProjections) {
  const Scene truth = MakeDroneFlight(1);
  Scene moved = truth;
  TransformScene(Sim3d(3.0, Eigen::Quaterniond(Eigen::AngleAxisd(0.7, Eigen::Vector3d::UnitZ())),
                       Eigen::Vector3d(1, 2, 3)),
                 &moved);
  const Point3D& point = moved.points.begin()->second;
  const TrackElement& e = point.track.front();
  Eigen::Vector2d before, after;
  ASSERT_TRUE(truth.cameras[0].Project(
      truth.images[e.image_id].cam_from_world * truth.points.begin()->second.position, &before));
  ASSERT_TRUE(
      moved.cameras[0].Project(moved.images[e.image_id].cam_from_world * point.position, &after));
  EXPECT_LT((before - after).norm(), 1e-9);
  const auto distance = [](const Scene& scene) {
    return (scene.images[1].cam_from_world.Center() - scene.images[0].cam_from_world.Center()).norm();
  };
  EXPECT_NEAR(distance(moved), 3.0 * distance(truth), 1e-9);
}

TEST(PriorAlignment, RejectsTheOutlierFixAndRecoversScale) {
  Scene truth = MakeDroneFlight(2);
  AddGpsPriors(/*sigma_m=*/0.5, /*outlier=*/7, 3, &truth);
  Scene model = InModelFrame(truth, kModelFromTrue, 4);
  PriorAlignmentOptions options;
  options.max_error_m = 3.0;
  const PriorAlignment alignment = AlignSceneToPriors(options, 5, &model);
  ASSERT_TRUE(alignment.aligned) << alignment.failure_reason;
  EXPECT_NEAR(alignment.priors_from_model.scale, 1 / kModelFromTrue.scale, 0.02 / kModelFromTrue.scale);
  ASSERT_EQ(alignment.residuals.size(), truth.images.size());
  for (const PriorResidual& r : alignment.residuals) {
    EXPECT_EQ(r.inlier, r.image_id != 7) << "image " << r.image_id;
  }
  EXPECT_EQ(alignment.InlierPriors(model).count(7), 0u);
  EXPECT_GT(alignment.residuals[7].residual_m.norm(), 25);
  EXPECT_LT(alignment.inlier_max_m, 3.0);
  EXPECT_LT(alignment.inlier_rms_m, 1.5);
  EXPECT_LT(alignment.inlier_median_m, 1.5);
  // Over all fixes: the wrong one is the maximum; the median hardly moves.
  EXPECT_GT(alignment.all_max_m, 25);
  EXPECT_LT(alignment.all_median_m, 1.5);
  EXPECT_GT(alignment.all_rms_m, alignment.inlier_rms_m);
  EXPECT_LT(alignment.roll_uncertainty_deg, 1.0);
  // The model is now in the priors' frame, close to the truth.
  for (int i = 0; i < static_cast<int>(truth.images.size()); ++i) {
    EXPECT_LT(CenterError(model, truth, i), 1.0) << "image " << i;
  }
}

TEST(PriorAlignment, TooFewPriorsLeaveTheSceneUnchanged) {
  Scene truth = MakeDroneFlight(6);
  AddGpsPriors(0.5, -1, 7, &truth);
  Scene model = InModelFrame(truth, kModelFromTrue, 8);
  for (int i = 2; i < static_cast<int>(model.images.size()); ++i) model.position_priors.erase(i);
  const Scene before = model;
  const PriorAlignment alignment = AlignSceneToPriors(PriorAlignmentOptions(), 9, &model);
  EXPECT_FALSE(alignment.aligned);
  EXPECT_NE(alignment.failure_reason.find("at least 3"), std::string::npos);
  EXPECT_EQ(CenterError(model, before, 5), 0.0);
}

// Fixes of one flight line only (the first row of the grid): Umeyama would return some roll
// about the line; the alignment is refused instead and the scene left as it was.
TEST(PriorAlignment, RefusesFixesNearlyOnALine) {
  Scene truth = MakeDroneFlight(30);
  AddGpsPriors(1.0, -1, 31, &truth);
  Scene model = InModelFrame(truth, kModelFromTrue, 32);
  for (int i = 5; i < static_cast<int>(model.images.size()); ++i) model.position_priors.erase(i);
  const Scene before = model;
  const PriorAlignment alignment = AlignSceneToPriors(PriorAlignmentOptions(), 33, &model);
  EXPECT_FALSE(alignment.aligned);
  EXPECT_NE(alignment.failure_reason.find("nearly on a line"), std::string::npos) << alignment.failure_reason;
  EXPECT_GT(alignment.roll_uncertainty_deg, 5.0);
  EXPECT_EQ(alignment.residuals.size(), 5u);  // kept for the record
  EXPECT_EQ(CenterError(model, before, 7), 0.0);
  // Two rows, 15 m apart, fix the roll to a few degrees.
  Scene two_rows = InModelFrame(truth, kModelFromTrue, 32);
  for (int i = 10; i < static_cast<int>(two_rows.images.size()); ++i) two_rows.position_priors.erase(i);
  const PriorAlignment aligned = AlignSceneToPriors(PriorAlignmentOptions(), 33, &two_rows);
  ASSERT_TRUE(aligned.aligned) << aligned.failure_reason;
  EXPECT_LT(aligned.roll_uncertainty_deg, 5.0);
}

// A model that most fixes disagree with (11 of 20 moved 40 m, each its own way) is not
// georeferenced by the 9 that happen to agree; the residuals say how far it is from all.
TEST(PriorAlignment, RefusesWhenMostFixesDisagree) {
  Scene truth = MakeDroneFlight(34);
  AddGpsPriors(0.5, -1, 35, &truth);
  for (int i = 0; i < 11; ++i) {
    const double angle = 2.4 * i;
    truth.position_priors[2 * i % 20 + (i >= 10)].position += 40 * Eigen::Vector3d(std::cos(angle), std::sin(angle), 0);
  }
  Scene model = InModelFrame(truth, kModelFromTrue, 36);
  PriorAlignmentOptions options;
  options.max_error_m = 3.0;
  const PriorAlignment alignment = AlignSceneToPriors(options, 37, &model);
  EXPECT_FALSE(alignment.aligned);
  EXPECT_NE(alignment.failure_reason.find("of the 20 GPS fixes agree"), std::string::npos) << alignment.failure_reason;
  EXPECT_LT(alignment.NumInliers(), 10);
  EXPECT_GT(alignment.all_median_m, 20);
  // The same with the share not required: aligned by the 9.
  options.min_inlier_share = 0;
  EXPECT_TRUE(AlignSceneToPriors(options, 37, &model).aligned);
}

TEST(PriorAlignment, RollUncertaintyOfCentres) {
  const std::vector<Eigen::Vector3d> line = {{0, 0, 0}, {10, 0, 0}, {20, 0, 0}, {30, 0, 0}};
  EXPECT_EQ(RollUncertaintyDeg(line, 1.0), 180);  // on the line: undetermined
  EXPECT_EQ(RollUncertaintyDeg({{1, 2, 3}}, 1.0), 180);
  // Four centres 10 m off their principal line (x): sum of squared distances 400 m^2.
  const std::vector<Eigen::Vector3d> offset = {{0, -10, 0}, {0, 10, 0}, {30, -10, 0}, {30, 10, 0}};
  EXPECT_NEAR(RollUncertaintyDeg(offset, 1.0), std::atan(1.0 / 20) * 180 / M_PI, 0.2);
}

TEST(PriorAlignment, BundleAdjustmentWithPriorsRecoversScaleAndPosition) {
  Scene truth = MakeDroneFlight(10);
  const double sigma_m = 1.0;
  AddGpsPriors(sigma_m, /*outlier=*/-1, 11, &truth);
  // As a first alignment to the GPS leaves it: 5% too large, turned by 3 degrees, 4 m off.
  const Sim3d misaligned(1.05, Eigen::Quaterniond(Eigen::AngleAxisd(0.05, Eigen::Vector3d(1, -1, 0.5).normalized())),
                         Eigen::Vector3d(4, -3, 2));
  Scene model = InModelFrame(truth, misaligned, 12);
  EXPECT_GT(CenterError(model, truth, 0), 4.0);  // where the adjustment starts
  BundleAdjustmentConfig config = ConfigForGlobal(model);
  config.position_priors = model.position_priors;
  // Nadir views of nearly flat ground cannot tell focal length from flying height (focal 10x
  // smaller, ground 10x closer project alike); real flights break that with the EXIF focal and
  // oblique views. This test is about scale and position: the intrinsics stay as calibrated.
  config.constant_camera_ids = {0};
  BundleAdjustmentOptions options;
  options.solver = BundleAdjustmentOptions::Solver::kCpu;  // our solver has the prior terms
  options.num_threads = 1;
  const BundleAdjustmentSummary summary = RunBundleAdjustment(options, config, &model);
  ASSERT_TRUE(summary.success) << summary.message;
  EXPECT_EQ(summary.solver, "lm-pcg-cpu");
  EXPECT_EQ(summary.num_position_priors, static_cast<int>(truth.images.size()));
  EXPECT_LT(summary.final_rms_px, 0.7);
  // Scale: the spacing of the grid (15 m) within 1%.
  const double spacing =
      (model.images[4].cam_from_world.Center() - model.images[0].cam_from_world.Center()).norm() / 4;
  EXPECT_NEAR(spacing, 15.0, 0.15);
  // Positions: the GPS noise (1 m per axis) averages out over 20 images to under a metre.
  std::vector<double> errors;
  for (int i = 0; i < static_cast<int>(truth.images.size()); ++i) {
    errors.push_back(CenterError(model, truth, i));
  }
  std::sort(errors.begin(), errors.end());
  EXPECT_LT(errors[errors.size() / 2], 0.8);
  EXPECT_LT(errors.back(), 1.5);
  // Points follow: the median one within a metre.
  EXPECT_LT(MedianPointError(model, truth), 1.0);
}

// The same flight with the intrinsics refined: without a focal prior the focal length drifts
// with the flying height (the points end up metres off); the EXIF focal prior holds both.
TEST(PriorAlignment, FocalPriorHoldsHeightOnANadirFlight) {
  Scene truth = MakeDroneFlight(20);
  AddGpsPriors(1.0, /*outlier=*/-1, 21, &truth);
  truth.focal_priors_px[0] = 1000;
  const Sim3d misaligned(1.05, Eigen::Quaterniond(Eigen::AngleAxisd(0.05, Eigen::Vector3d(1, -1, 0.5).normalized())),
                         Eigen::Vector3d(4, -3, 2));
  Scene model = InModelFrame(truth, misaligned, 22);
  PriorAlignment aligned;
  aligned.aligned = true;
  for (int i = 0; i < static_cast<int>(model.images.size()); ++i) aligned.residuals.push_back({i, {}, true});
  BundleAdjustmentConfig config = ConfigForGlobal(model);
  AddGeoreferencePriors(PriorAlignmentOptions(), aligned, model, /*with_positions=*/true, &config);
  ASSERT_EQ(config.focal_priors.count(0), 1u);
  EXPECT_EQ(config.position_priors.size(), truth.images.size());
  BundleAdjustmentOptions options;
  options.num_threads = 1;
  ASSERT_TRUE(RunBundleAdjustment(options, config, &model).success);
  EXPECT_NEAR(model.cameras[0].MeanFocal(), 1000, 30);
  EXPECT_LT(MedianPointError(model, truth), 1.0);
}

TEST(PriorAlignment, InvalidPriorSigmaIsRejected) {
  Scene scene = MakeDroneFlight(13);
  BundleAdjustmentConfig config = ConfigForGlobal(scene);
  config.position_priors[0].sigma = Eigen::Vector3d(1, 0, 1);
  EXPECT_THROW(RunBundleAdjustment(BundleAdjustmentOptions(), config, &scene), InputError);
}

// The whole mapper on the synthetic arc, with GPS priors (1 cm noise, one wrong fix): the
// model comes out in the priors' frame, metric, the wrong fix rejected.
TEST(PriorAlignment, IncrementalMapperEndsInThePriorsFrame) {
  testing::SyntheticSceneOptions scene_options;  // the three camera models of the default
  scene_options.num_images = 12;
  scene_options.num_points = 500;
  scene_options.camera_distance_m = 4;
  testing::MapperTestScene test = testing::MakeMapperTestScene(scene_options);
  AddGpsPriors(0.01, /*outlier=*/5, 14, &test.truth);
  Scene scene = test.input;
  scene.position_priors = test.truth.position_priors;
  IncrementalMapperOptions options;
  options.num_threads = 1;
  options.priors.max_error_m = 0.2;
  const MapperSummary summary = RunIncrementalMapper(options, test.tracks, test.pairs, &scene);
  ASSERT_TRUE(summary.success);
  ASSERT_EQ(summary.num_registered, 12);
  const PriorAlignment& georeference = summary.georeference;
  ASSERT_TRUE(georeference.aligned) << georeference.failure_reason;
  EXPECT_EQ(georeference.NumInliers(), 11);
  EXPECT_NEAR(georeference.priors_from_model.scale, 1.0, 1e-3);  // aligned before the end
  EXPECT_LT(georeference.inlier_rms_m, 0.03);
  for (int i = 0; i < 12; ++i) EXPECT_LT(CenterError(scene, test.truth, i), 0.03) << "image " << i;
}

}  // namespace
}  // namespace proj
