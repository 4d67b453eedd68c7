#include "sfm/ba/bundle_adjuster.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <random>

#include "core/check.h"
#include "geometry/sim3.h"
#include "tests/sfm/ba/synthetic_scene.h"

namespace proj {
namespace {

using testing::MakeSyntheticScene;
using testing::SyntheticSceneOptions;

struct Perturbation {
  double rotation_rad = 0.01;
  double translation_m = 0.05;
  double point_m = 0.05;
  double focal_factor = 1.02;
  double extra = 0.01;
};

void PerturbImages(const std::set<int>& image_ids, const Perturbation& p, std::mt19937_64* rng,
                   Scene* scene) {
  std::normal_distribution<double> normal(0, 1);
  for (int id : image_ids) {
    Rigid3d& pose = scene->images[id].cam_from_world;
    const Eigen::Vector3d axis(normal(*rng), normal(*rng), normal(*rng));
    pose.rotation =
        Eigen::Quaterniond(Eigen::AngleAxisd(p.rotation_rad, axis.normalized())) * pose.rotation;
    pose.translation += p.translation_m * Eigen::Vector3d(normal(*rng), normal(*rng), normal(*rng));
  }
}

void PerturbPoints(const Perturbation& p, std::mt19937_64* rng, Scene* scene) {
  std::normal_distribution<double> normal(0, 1);
  for (auto& [id, point] : scene->points) {
    point.position += p.point_m * Eigen::Vector3d(normal(*rng), normal(*rng), normal(*rng));
  }
}

void PerturbIntrinsics(const Perturbation& p, Scene* scene) {
  for (Camera& camera : scene->cameras) {
    camera.SetFocal(camera.MeanFocal() * p.focal_factor);
    for (int i : camera.ExtraIndices()) camera.params[i] += p.extra;
  }
}

// Largest camera-centre error after the best similarity alignment of `estimate` to `truth`
// (bundle adjustment recovers the scene up to a similarity), relative to the scene size.
double AlignedCenterError(const Scene& estimate, const Scene& truth) {
  const int n = static_cast<int>(truth.images.size());
  std::vector<Eigen::Vector3d> src(n), dst(n);
  Eigen::Vector3d src_mean = Eigen::Vector3d::Zero(), dst_mean = Eigen::Vector3d::Zero();
  for (int i = 0; i < n; ++i) {
    src[i] = estimate.images[i].cam_from_world.Center();
    dst[i] = truth.images[i].cam_from_world.Center();
    src_mean += src[i] / n;
    dst_mean += dst[i] / n;
  }
  // Rotation from the SVD of the cross-covariance (Umeyama 1991), scale from the spreads.
  Eigen::Matrix3d covariance = Eigen::Matrix3d::Zero();
  double src_spread = 0, dst_spread = 0;
  for (int i = 0; i < n; ++i) {
    covariance += (dst[i] - dst_mean) * (src[i] - src_mean).transpose();
    src_spread += (src[i] - src_mean).squaredNorm();
    dst_spread += (dst[i] - dst_mean).squaredNorm();
  }
  const Eigen::JacobiSVD<Eigen::Matrix3d> svd(covariance,
                                              Eigen::ComputeFullU | Eigen::ComputeFullV);
  Eigen::Matrix3d sign = Eigen::Matrix3d::Identity();
  if ((svd.matrixU() * svd.matrixV().transpose()).determinant() < 0) sign(2, 2) = -1;
  const Eigen::Matrix3d rotation = svd.matrixU() * sign * svd.matrixV().transpose();
  const double scale = std::sqrt(dst_spread / src_spread);
  double max_error = 0;
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector3d aligned = scale * rotation * (src[i] - src_mean) + dst_mean;
    max_error = std::max(max_error, (aligned - dst[i]).norm());
  }
  return max_error / truth.images[0].cam_from_world.Center().norm();
}

// Largest angle (rad) between estimated and true relative rotations cam_i_from_cam_0.
double MaxRelativeRotationError(const Scene& estimate, const Scene& truth) {
  double max_angle = 0;
  const Eigen::Quaterniond e0 = estimate.images[0].cam_from_world.rotation;
  const Eigen::Quaterniond t0 = truth.images[0].cam_from_world.rotation;
  for (size_t i = 1; i < truth.images.size(); ++i) {
    const Eigen::Quaterniond e = estimate.images[i].cam_from_world.rotation * e0.conjugate();
    const Eigen::Quaterniond t = truth.images[i].cam_from_world.rotation * t0.conjugate();
    max_angle = std::max(max_angle, e.angularDistance(t));
  }
  return max_angle;
}

BundleAdjustmentOptions TightOptions() {
  BundleAdjustmentOptions options;
  options.function_tolerance = 1e-14;
  options.gradient_tolerance = 1e-14;
  options.parameter_tolerance = 1e-14;
  options.max_iterations = 200;
  options.num_threads = 1;
  return options;
}

TEST(BundleAdjuster, GlobalRecoversPerturbedScene) {
  const Scene truth = MakeSyntheticScene(SyntheticSceneOptions{});
  ASSERT_GT(truth.points.size(), 150u);
  Scene scene = truth;
  std::mt19937_64 rng(1);
  const BundleAdjustmentConfig config = ConfigForGlobal(scene);
  EXPECT_EQ(config.variable_image_ids.size(), truth.images.size());
  EXPECT_EQ(config.variable_point_ids.size(), truth.points.size());
  PerturbImages(config.variable_image_ids, Perturbation{}, &rng, &scene);
  PerturbPoints(Perturbation{}, &rng, &scene);
  PerturbIntrinsics(Perturbation{}, &scene);

  const BundleAdjustmentSummary summary = RunBundleAdjustment(TightOptions(), config, &scene);
  ASSERT_TRUE(summary.success) << summary.message;
  EXPECT_GT(summary.initial_rms_px, 5.0);
  EXPECT_LT(summary.final_rms_px, 1e-4);
  EXPECT_LT(summary.final_cost, summary.initial_cost);
  EXPECT_GT(summary.num_iterations, 0);
  EXPECT_EQ(summary.num_skipped_observations, 0);
  // The gauge-fixed first image is constant; the others are variable.
  EXPECT_EQ(summary.num_variable_images, static_cast<int>(truth.images.size()) - 1);
  EXPECT_EQ(summary.num_variable_points, static_cast<int>(truth.points.size()));

  EXPECT_LT(AlignedCenterError(scene, truth), 1e-5);
  EXPECT_LT(MaxRelativeRotationError(scene, truth), 1e-6);
  for (size_t c = 0; c < truth.cameras.size(); ++c) {
    EXPECT_NEAR(scene.cameras[c].MeanFocal(), truth.cameras[c].MeanFocal(), 1e-3) << c;
    for (int i : truth.cameras[c].ExtraIndices()) {
      EXPECT_NEAR(scene.cameras[c].params[i], truth.cameras[c].params[i], 1e-6) << c;
    }
    // Principal points are not refined by default.
    EXPECT_EQ(scene.cameras[c].PrincipalPoint(), truth.cameras[c].PrincipalPoint());
  }
  for (const auto& [id, point] : scene.points) EXPECT_LT(point.mean_error_px, 1e-4) << id;
}

TEST(BundleAdjuster, GaugeFixingHoldsFirstPoseAndScale) {
  const Scene truth = MakeSyntheticScene(SyntheticSceneOptions{});
  Scene scene = truth;
  std::mt19937_64 rng(2);
  // Leave image 0 exact so the recovered scene must coincide with the truth (no similarity).
  std::set<int> moved;
  for (size_t i = 1; i < scene.images.size(); ++i) moved.insert(static_cast<int>(i));
  PerturbImages(moved, Perturbation{}, &rng, &scene);
  PerturbPoints(Perturbation{}, &rng, &scene);
  const Rigid3d first = scene.images[0].cam_from_world;
  const Eigen::Vector3d second_t = scene.images[1].cam_from_world.translation;

  const BundleAdjustmentSummary summary =
      RunBundleAdjustment(TightOptions(), ConfigForGlobal(scene), &scene);
  ASSERT_TRUE(summary.success) << summary.message;
  EXPECT_LT(summary.final_rms_px, 1e-4);
  EXPECT_EQ(scene.images[0].cam_from_world.rotation.coeffs(), first.rotation.coeffs());
  EXPECT_EQ(scene.images[0].cam_from_world.translation, first.translation);
  // Exactly one translation coordinate of image 1 is held; the solution is then the truth up
  // to the scale implied by that coordinate, which is perturbed, so compare scale-free.
  int unchanged = 0;
  for (int k = 0; k < 3; ++k) {
    unchanged += scene.images[1].cam_from_world.translation[k] == second_t[k] ? 1 : 0;
  }
  EXPECT_EQ(unchanged, 1);
  EXPECT_LT(MaxRelativeRotationError(scene, truth), 1e-6);
  EXPECT_LT(AlignedCenterError(scene, truth), 1e-5);
}

TEST(BundleAdjuster, RobustLossDownWeightsGrossOutliers) {
  const Scene truth = MakeSyntheticScene(SyntheticSceneOptions{});
  Scene corrupted = truth;
  std::mt19937_64 rng(3);
  std::normal_distribution<double> noise(0, 0.3);
  std::uniform_real_distribution<double> uniform(0, 1);
  int num_outliers = 0;
  for (auto& image : corrupted.images) {
    for (size_t k = 0; k < image.keypoints.size(); ++k) {
      image.keypoints[k] += Eigen::Vector2d(noise(rng), noise(rng));
      if (image.point3d_ids[k] != kInvalidId && uniform(rng) < 0.03) {
        image.keypoints[k] += Eigen::Vector2d(60, -45);
        ++num_outliers;
      }
    }
  }
  ASSERT_GT(num_outliers, 10);
  PerturbImages(ConfigForGlobal(corrupted).variable_image_ids, Perturbation{}, &rng, &corrupted);
  PerturbPoints(Perturbation{}, &rng, &corrupted);

  auto solve = [&](BundleAdjustmentOptions::LossType loss) {
    Scene scene = corrupted;
    BundleAdjustmentOptions options = TightOptions();
    options.loss = loss;
    options.loss_scale_px = 1.0;
    const auto summary = RunBundleAdjustment(options, ConfigForGlobal(scene), &scene);
    EXPECT_TRUE(summary.success) << summary.message;
    return scene;
  };
  const Scene cauchy = solve(BundleAdjustmentOptions::LossType::kCauchy);
  const Scene huber = solve(BundleAdjustmentOptions::LossType::kHuber);
  const Scene trivial = solve(BundleAdjustmentOptions::LossType::kTrivial);
  const double cauchy_error = AlignedCenterError(cauchy, truth);
  const double huber_error = AlignedCenterError(huber, truth);
  const double trivial_error = AlignedCenterError(trivial, truth);
  const double cauchy_focal_error =
      std::abs(cauchy.cameras[0].MeanFocal() - truth.cameras[0].MeanFocal());
  const double trivial_focal_error =
      std::abs(trivial.cameras[0].MeanFocal() - truth.cameras[0].MeanFocal());
  std::cout << "relative centre error: cauchy " << cauchy_error << ", huber " << huber_error
            << ", trivial " << trivial_error << "; focal error px: cauchy " << cauchy_focal_error
            << ", trivial " << trivial_focal_error << "\n";
  EXPECT_LT(cauchy_error, 0.3 * trivial_error);
  EXPECT_LT(huber_error, trivial_error);
  EXPECT_LT(cauchy_focal_error, trivial_focal_error);
}

// The images sharing the most points with `image_id`, most first, ties by lower id.
std::vector<int> RankNeighbours(const Scene& scene, int image_id) {
  std::vector<std::pair<int, int>> counts;  // (-shared, image)
  for (size_t other = 0; other < scene.images.size(); ++other) {
    if (static_cast<int>(other) == image_id) continue;
    int shared = 0;
    for (int id : scene.images[image_id].point3d_ids) {
      if (id == kInvalidId) continue;
      for (const auto& e : scene.points.at(id).track)
        shared += e.image_id == static_cast<int>(other);
    }
    if (shared > 0) counts.push_back({-shared, static_cast<int>(other)});
  }
  std::sort(counts.begin(), counts.end());
  std::vector<int> ranked;
  for (const auto& c : counts) ranked.push_back(c.second);
  return ranked;
}

TEST(BundleAdjuster, LocalLeavesFixedImagesUntouched) {
  SyntheticSceneOptions scene_options;
  scene_options.num_points = 150;
  Scene truth = MakeSyntheticScene(scene_options);
  const int image_id = 5;
  // Thin out observations with the distance along the arc from image 5, so that the closest
  // images share the most points with it.
  std::mt19937_64 drop_rng(9);
  std::uniform_real_distribution<double> uniform(0, 1);
  for (int i = 0; i < static_cast<int>(truth.images.size()); ++i) {
    for (size_t k = 0; k < truth.images[i].point3d_ids.size(); ++k) {
      if (truth.images[i].point3d_ids[k] != kInvalidId &&
          uniform(drop_rng) < 0.12 * std::abs(i - image_id)) {
        truth.DeleteObservation(i, static_cast<int>(k));
      }
    }
  }
  const std::vector<int> ranked = RankNeighbours(truth, image_id);
  ASSERT_GE(ranked.size(), 5u);
  const BundleAdjustmentConfig config = ConfigForLocal(truth, image_id, 3);
  EXPECT_EQ(config.variable_image_ids, (std::set<int>{image_id, ranked[0], ranked[1], ranked[2]}));
  EXPECT_EQ(std::set<int>(ranked.begin(), ranked.begin() + 2), (std::set<int>{4, 6}));
  EXPECT_FALSE(config.constant_pose_image_ids.empty());
  for (int id : config.constant_pose_image_ids) EXPECT_EQ(config.variable_image_ids.count(id), 0u);
  for (int id : truth.images[image_id].point3d_ids) {
    if (id != kInvalidId) {
      EXPECT_EQ(config.variable_point_ids.count(id), 1u);
    }
  }

  Scene scene = truth;
  std::mt19937_64 rng(4);
  PerturbImages(config.variable_image_ids, Perturbation{}, &rng, &scene);
  Perturbation point_perturbation;
  PerturbPoints(point_perturbation, &rng, &scene);
  // Points outside the local window keep their (perturbed) positions.
  const Scene before = scene;
  BundleAdjustmentConfig local = config;
  for (size_t c = 0; c < scene.cameras.size(); ++c)
    local.constant_camera_ids.insert(static_cast<int>(c));

  const BundleAdjustmentSummary summary = RunBundleAdjustment(TightOptions(), local, &scene);
  ASSERT_TRUE(summary.success) << summary.message;
  EXPECT_LT(summary.final_rms_px, 0.05 * summary.initial_rms_px);
  EXPECT_EQ(summary.num_variable_images, 4);
  for (size_t i = 0; i < scene.images.size(); ++i) {
    const Rigid3d& after = scene.images[i].cam_from_world;
    const Rigid3d& start = before.images[i].cam_from_world;
    if (config.variable_image_ids.count(static_cast<int>(i))) {
      EXPECT_NE(after.translation, start.translation) << i;
    } else {
      EXPECT_EQ(after.rotation.coeffs(), start.rotation.coeffs()) << i;
      EXPECT_EQ(after.translation, start.translation) << i;
    }
  }
  for (const auto& [id, point] : scene.points) {
    if (!config.variable_point_ids.count(id)) {
      EXPECT_EQ(point.position, before.points.at(id).position) << id;
    }
  }
  for (size_t c = 0; c < scene.cameras.size(); ++c) {
    EXPECT_EQ(scene.cameras[c].params, truth.cameras[c].params);
  }
}

TEST(BundleAdjuster, ConstantPointsAndCamerasStayPut) {
  const Scene truth = MakeSyntheticScene(SyntheticSceneOptions{});
  Scene scene = truth;
  std::mt19937_64 rng(5);
  BundleAdjustmentConfig config = ConfigForGlobal(scene);
  // Pose-only refinement: all points and cameras constant.
  config.constant_point_ids = config.variable_point_ids;
  config.variable_point_ids.clear();
  config.constant_camera_ids = {0, 1, 2};
  std::set<int> moved = config.variable_image_ids;
  PerturbImages(moved, Perturbation{}, &rng, &scene);
  BundleAdjustmentOptions options = TightOptions();
  options.verbose = true;  // progress goes to the log; must not disturb the solve
  const auto summary = RunBundleAdjustment(options, config, &scene);
  ASSERT_TRUE(summary.success) << summary.message;
  EXPECT_EQ(summary.num_variable_points, 0);
  EXPECT_LT(summary.final_rms_px, 1e-4);
  for (const auto& [id, point] : scene.points)
    EXPECT_EQ(point.position, truth.points.at(id).position);
  for (size_t i = 0; i < scene.images.size(); ++i) {
    EXPECT_LT(
        (scene.images[i].cam_from_world.Center() - truth.images[i].cam_from_world.Center()).norm(),
        1e-6);
  }
}

TEST(BundleAdjuster, PointPriorsHoldTheGaugeInEverySolver) {
  // The scene moved by a similarity; four points held to their true positions bring it back.
  const Scene truth = MakeSyntheticScene(SyntheticSceneOptions{});
  Scene scene = truth;
  const Sim3d moved(1.7, Eigen::Quaterniond(Eigen::AngleAxisd(0.4, Eigen::Vector3d::UnitY())),
                    Eigen::Vector3d(2, -1, 0.5));
  for (auto& image : scene.images) {
    const Eigen::Matrix3d r = image.cam_from_world.rotation.toRotationMatrix() * moved.rotation.conjugate();
    const Eigen::Vector3d center = moved * image.cam_from_world.Center();
    image.cam_from_world = Rigid3d(r, -(r * center));
  }
  for (auto& [id, point] : scene.points) point.position = moved * point.position;
  BundleAdjustmentConfig config = ConfigForGlobal(scene);
  config.fix_gauge = false;
  int count = 0;
  for (const auto& [id, point] : truth.points) {
    if (count++ % 40 == 0) config.point_priors[id] = PositionPrior{point.position, Eigen::Vector3d::Constant(1e-3)};
  }
  ASSERT_GE(config.point_priors.size(), 4u);
  BundleAdjustmentOptions options = TightOptions();
  for (const auto solver : {BundleAdjustmentOptions::Solver::kCeres, BundleAdjustmentOptions::Solver::kCpu}) {
    Scene adjusted = scene;
    options.solver = solver;
    const auto summary = RunBundleAdjustment(options, config, &adjusted);
    ASSERT_TRUE(summary.success) << summary.message;
    EXPECT_EQ(summary.solver, solver == BundleAdjustmentOptions::Solver::kCeres ? "ceres" : "lm-pcg-cpu");
    EXPECT_EQ(summary.num_point_priors, static_cast<int>(config.point_priors.size()));
    for (size_t i = 0; i < scene.images.size(); ++i) {
      EXPECT_LT((adjusted.images[i].cam_from_world.Center() - truth.images[i].cam_from_world.Center()).norm(), 1e-4)
          << summary.solver << ", image " << i;
    }
  }
  EXPECT_EQ(MakeBaProblem(options, config, scene, nullptr).num_point_priors(),
            static_cast<int>(config.point_priors.size()));
  config.point_priors.begin()->second.sigma.x() = 0;
  EXPECT_THROW(RunBundleAdjustment(options, config, &scene), InputError);
}

TEST(BundleAdjuster, FocalOnlyIntrinsicsRespectOptions) {
  const Scene truth = MakeSyntheticScene(SyntheticSceneOptions{});
  Scene scene = truth;
  PerturbIntrinsics(Perturbation{}, &scene);
  const Scene start = scene;
  BundleAdjustmentOptions options = TightOptions();
  options.refine_extra = false;
  const auto summary = RunBundleAdjustment(options, ConfigForGlobal(scene), &scene);
  ASSERT_TRUE(summary.success);
  for (size_t c = 0; c < scene.cameras.size(); ++c) {
    for (int i : scene.cameras[c].ExtraIndices()) {
      EXPECT_EQ(scene.cameras[c].params[i], start.cameras[c].params[i]);
    }
    EXPECT_NE(scene.cameras[c].MeanFocal(), start.cameras[c].MeanFocal());
  }
}

TEST(BundleAdjuster, PrincipalPointRefinedOnlyForTheListedCameras) {
  const Scene truth = MakeSyntheticScene(SyntheticSceneOptions{});
  Scene scene = truth;
  for (Camera& camera : scene.cameras) camera.params[camera.PrincipalPointIndices()[0]] += 3;
  const Scene start = scene;
  BundleAdjustmentOptions options = TightOptions();
  options.refine_principal_point = true;
  options.principal_point_camera_ids = {1};
  ASSERT_TRUE(RunBundleAdjustment(options, ConfigForGlobal(scene), &scene).success);
  for (size_t c = 0; c < scene.cameras.size(); ++c) {
    const int x = scene.cameras[c].PrincipalPointIndices()[0];
    if (c == 1) {
      EXPECT_NE(scene.cameras[c].params[x], start.cameras[c].params[x]);
    } else {
      EXPECT_EQ(scene.cameras[c].params[x], start.cameras[c].params[x]) << "camera " << c;
    }
  }
}

TEST(BundleAdjuster, RejectsInvalidInput) {
  Scene scene = MakeSyntheticScene(SyntheticSceneOptions{});
  BundleAdjustmentOptions options;
  options.loss_scale_px = 0;
  EXPECT_THROW(options.Check(), InputError);
  options = BundleAdjustmentOptions{};
  options.max_iterations = 0;
  EXPECT_THROW(RunBundleAdjustment(options, ConfigForGlobal(scene), &scene), InputError);

  scene.images[3].registered = false;
  BundleAdjustmentConfig config;
  config.variable_image_ids = {3};
  EXPECT_THROW(RunBundleAdjustment(BundleAdjustmentOptions{}, config, &scene), InputError);
  EXPECT_THROW(ConfigForLocal(scene, 3, 5), InputError);
  config.variable_image_ids = {2};
  config.variable_point_ids = {1000000};
  EXPECT_THROW(RunBundleAdjustment(BundleAdjustmentOptions{}, config, &scene), InputError);
  config.variable_point_ids = {};
  config.constant_pose_image_ids = {2};
  EXPECT_THROW(RunBundleAdjustment(BundleAdjustmentOptions{}, config, &scene), InputError);
}

TEST(BundleAdjuster, GlobalConfigSkipsUnregisteredImagesAndWeakPoints) {
  Scene scene = MakeSyntheticScene(SyntheticSceneOptions{});
  // Points with fewer than two observations in registered images are not adjusted.
  for (size_t i = 1; i < scene.images.size(); ++i) scene.images[i].registered = i != 1;
  const BundleAdjustmentConfig config = ConfigForGlobal(scene);
  EXPECT_EQ(config.variable_image_ids.count(1), 0u);
  for (const auto& [id, point] : scene.points) {
    int registered = 0;
    for (const auto& e : point.track) registered += scene.images[e.image_id].registered ? 1 : 0;
    EXPECT_EQ(config.variable_point_ids.count(id), registered >= 2 ? 1u : 0u);
  }
}

TEST(BundleAdjuster, EmptyConfigIsANoOp) {
  Scene scene = MakeSyntheticScene(SyntheticSceneOptions{});
  const auto summary =
      RunBundleAdjustment(BundleAdjustmentOptions{}, BundleAdjustmentConfig{}, &scene);
  EXPECT_TRUE(summary.success);
  EXPECT_EQ(summary.num_observations, 0);
  EXPECT_EQ(summary.num_iterations, 0);
}

}  // namespace
}  // namespace proj
