#include "sfm/ba/schur_pcg_cpu.h"

#include <ceres/cost_function.h>
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>
#include <random>
#include <vector>

#include "cuda/ba/ba_prior.h"
#include "cuda/ba/ba_residual.h"
#include "geometry/camera/camera.h"
#include "sfm/ba/ba_problem.h"
#include "sfm/ba/bundle_adjuster.h"
#include "sfm/ba/reprojection_cost.h"
#include "tests/sfm/ba/ba_test_scenes.h"
#include "tests/sfm/ba/bal_problem.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

using cuda::BaLoss;
using cuda::BaObservationLinearization;
using cuda::kBaMaxCameraParams;

struct ObservationFixture {
  int model = 0;
  double params[kBaMaxCameraParams] = {};
  double pose[7] = {};
  double point[3] = {};
  double observed[2] = {};
};

ObservationFixture MakeFixture(CameraModelId model) {
  ObservationFixture f;
  f.model = static_cast<int>(model);
  Camera camera = Camera::FromFocal(model, 1000, 800, 900);
  const auto extra = camera.ExtraIndices();
  if (!extra.empty()) camera.params[extra[0]] = -0.08;
  if (extra.size() > 1) camera.params[extra[1]] = 0.02;
  for (size_t k = 0; k < camera.params.size(); ++k) f.params[k] = camera.params[k];
  const Eigen::Quaterniond q(Eigen::AngleAxisd(0.3, Eigen::Vector3d(1, 2, -1).normalized()));
  const double pose[7] = {q.x(), q.y(), q.z(), q.w(), 0.2, -0.1, 4};
  std::copy(pose, pose + 7, f.pose);
  f.point[0] = 0.5;
  f.point[1] = -0.3;
  f.point[2] = 1.0;
  f.observed[0] = 520;
  f.observed[1] = 380;
  return f;
}

// Residual scaled by sqrt(rho') at the linearisation point (fixed weight), for differences.
void WeightedResidual(const ObservationFixture& f, double weight, double* r) {
  double uv[2];
  ASSERT_TRUE(cuda::ProjectWorldPoint(f.model, f.params, f.pose, f.point, uv));
  r[0] = weight * (uv[0] - f.observed[0]);
  r[1] = weight * (uv[1] - f.observed[1]);
}

class LinearizationTest : public ::testing::TestWithParam<CameraModelId> {};

TEST_P(LinearizationTest, JacobiansMatchCeresAndNumericDifferences) {
  for (const BaLoss loss : {BaLoss::kTrivial, BaLoss::kCauchy}) {
    const ObservationFixture f = MakeFixture(GetParam());
    BaObservationLinearization l;
    double cost = 0;
    ASSERT_TRUE(cuda::LinearizeObservation(f.model, f.params, 0, f.pose, 0, f.point, false,
                                           f.observed, loss, 2.0, &l, &cost));
    double uv[2];
    ASSERT_TRUE(cuda::ProjectWorldPoint(f.model, f.params, f.pose, f.point, uv));
    const double s = std::pow(uv[0] - f.observed[0], 2) + std::pow(uv[1] - f.observed[1], 2);
    double rho = 0, rho1 = 0;
    cuda::EvaluateBaLoss(loss, 2.0, s, &rho, &rho1);
    const double weight = std::sqrt(rho1);
    EXPECT_NEAR(cost, 0.5 * rho, 1e-9 * cost);
    EXPECT_NEAR(l.residual[0], weight * (uv[0] - f.observed[0]), 1e-9);

    // Central differences in the tangent space of ba_problem.h.
    auto numeric = [&](auto perturb, int k, double h, double* column) {
      ObservationFixture plus = f, minus = f;
      perturb(&plus, k, h);
      perturb(&minus, k, -h);
      double rp[2], rm[2];
      WeightedResidual(plus, weight, rp);
      WeightedResidual(minus, weight, rm);
      column[0] = (rp[0] - rm[0]) / (2 * h);
      column[1] = (rp[1] - rm[1]) / (2 * h);
    };
    auto perturb_pose = [](ObservationFixture* g, int k, double h) {
      double delta[6] = {0, 0, 0, 0, 0, 0};
      delta[k] = h;
      double out[7];
      cuda::UpdatePose(g->pose, delta, out);
      std::copy(out, out + 7, g->pose);
    };
    auto perturb_point = [](ObservationFixture* g, int k, double h) { g->point[k] += h; };
    auto perturb_params = [](ObservationFixture* g, int k, double h) { g->params[k] += h; };
    const int num_params = CameraModelNumParams(GetParam());
    for (int k = 0; k < 6; ++k) {
      double column[2];
      numeric(perturb_pose, k, 1e-6, column);
      for (int r = 0; r < 2; ++r) {
        EXPECT_NEAR(l.jac_pose[r][k], column[r], 1e-5 * std::max(1.0, std::abs(column[r])))
            << "pose " << k;
      }
    }
    for (int k = 0; k < 3; ++k) {
      double column[2];
      numeric(perturb_point, k, 1e-6, column);
      for (int r = 0; r < 2; ++r) {
        EXPECT_NEAR(l.jac_point[r][k], column[r], 1e-5 * std::max(1.0, std::abs(column[r])));
      }
    }
    for (int k = 0; k < num_params; ++k) {
      double column[2];
      numeric(perturb_params, k, 1e-6 * std::max(1.0, std::abs(f.params[k])), column);
      for (int r = 0; r < 2; ++r) {
        EXPECT_NEAR(l.jac_camera[r][k], column[r], 1e-5 * std::max(1.0, std::abs(column[r])))
            << "param " << k;
      }
    }

    // Ceres' autodiff of the same residual: translation, point and camera blocks coincide
    // with ours up to the loss weight.
    const auto ceres_cost = CreateReprojectionCost(GetParam(), Eigen::Vector2d(f.observed[0], f.observed[1]));
    std::vector<double> params(f.params, f.params + num_params);
    const double* blocks[4] = {f.pose, f.pose + 4, f.point, params.data()};
    double residual[2], jac_rotation[8], jac_translation[6], jac_point[6], jac_params[10];
    double* jacobians[4] = {jac_rotation, jac_translation, jac_point, jac_params};
    ASSERT_TRUE(ceres_cost->Evaluate(blocks, residual, jacobians));
    for (int r = 0; r < 2; ++r) {
      EXPECT_NEAR(l.residual[r], weight * residual[r], 1e-9);
      for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(l.jac_pose[r][3 + k], weight * jac_translation[r * 3 + k], 1e-9);
        EXPECT_NEAR(l.jac_point[r][k], weight * jac_point[r * 3 + k], 1e-9);
      }
      for (int k = 0; k < num_params; ++k) {
        EXPECT_NEAR(l.jac_camera[r][k], weight * jac_params[r * num_params + k],
                    1e-9 * std::max(1.0, std::abs(jac_params[r * num_params + k])));
      }
    }
  }
}

TEST_P(LinearizationTest, MasksZeroConstantColumns) {
  const ObservationFixture f = MakeFixture(GetParam());
  BaObservationLinearization l;
  double cost = 0;
  ASSERT_TRUE(cuda::LinearizeObservation(f.model, f.params, 0x1f, f.pose, cuda::kBaConstantPose,
                                         f.point, true, f.observed, BaLoss::kTrivial, 1.0, &l,
                                         &cost));
  for (int r = 0; r < 2; ++r) {
    for (double v : l.jac_pose[r]) EXPECT_EQ(v, 0);
    for (double v : l.jac_camera[r]) EXPECT_EQ(v, 0);
    for (double v : l.jac_point[r]) EXPECT_EQ(v, 0);
  }
  ObservationFixture behind = f;
  behind.point[2] = -10;
  EXPECT_FALSE(cuda::LinearizeObservation(f.model, f.params, 0, f.pose, 0, behind.point, false,
                                          f.observed, BaLoss::kTrivial, 1.0, &l, &cost));
}

INSTANTIATE_TEST_SUITE_P(AllModels, LinearizationTest,
                         ::testing::Values(CameraModelId::kPinhole, CameraModelId::kSimpleRadial,
                                           CameraModelId::kRadial),
                         [](const auto& info) { return std::string(CameraModelName(info.param)); });

BundleAdjustmentOptions ComparisonOptions(BundleAdjustmentOptions::LossType loss) {
  BundleAdjustmentOptions options;
  options.loss = loss;
  options.loss_scale_px = 1.0;
  options.max_iterations = 100;
  options.function_tolerance = 1e-10;
  options.num_threads = 2;
  return options;
}

// Runs Ceres and `solver` on copies of `scene`; expects final costs within 0.1% and returns
// the two summaries.
std::pair<BundleAdjustmentSummary, BundleAdjustmentSummary> CompareWithCeres(
    const Scene& scene, const BundleAdjustmentConfig& config, BundleAdjustmentOptions options,
    BundleAdjustmentOptions::Solver solver, Scene* solved = nullptr) {
  Scene ceres_scene = scene, our_scene = scene;
  options.solver = BundleAdjustmentOptions::Solver::kCeres;
  const BundleAdjustmentSummary ceres = RunBundleAdjustment(options, config, &ceres_scene);
  options.solver = solver;
  const BundleAdjustmentSummary ours = RunBundleAdjustment(options, config, &our_scene);
  EXPECT_TRUE(ceres.success) << ceres.message;
  EXPECT_TRUE(ours.success) << ours.message;
  EXPECT_NEAR(ours.initial_cost, ceres.initial_cost, 1e-9 * ceres.initial_cost);
  EXPECT_NEAR(ours.final_cost, ceres.final_cost, 1e-3 * ceres.final_cost);
  EXPECT_LT(ours.final_cost, ours.initial_cost);
  std::cout << ours.solver << ": cost " << ours.initial_cost << " -> " << ours.final_cost << " in "
            << ours.num_iterations << " iterations, " << ours.time_s << " s (" << ours.message
            << "); ceres: " << ceres.final_cost << " in " << ceres.num_iterations
            << " iterations, " << ceres.time_s << " s\n";
  if (solved != nullptr) *solved = our_scene;
  return {ceres, ours};
}

TEST(SchurPcgCpu, MatchesCeresOnSyntheticSceneForEachLoss) {
  const Scene scene = testing::MakeNoisySyntheticScene(testing::SyntheticSceneOptions{}, 0.5, 7);
  for (const auto loss :
       {BundleAdjustmentOptions::LossType::kTrivial, BundleAdjustmentOptions::LossType::kHuber,
        BundleAdjustmentOptions::LossType::kCauchy}) {
    SCOPED_TRACE(static_cast<int>(loss));
    CompareWithCeres(scene, ConfigForGlobal(scene), ComparisonOptions(loss),
                     BundleAdjustmentOptions::Solver::kCpu);
  }
}

TEST(SchurPcgCpu, MatchesCeresWithConstantPosesPointsAndCameras) {
  const Scene scene = testing::MakeNoisySyntheticScene(testing::SyntheticSceneOptions{}, 0.5, 8);
  BundleAdjustmentConfig config = ConfigForLocal(scene, 4, 3);
  ASSERT_FALSE(config.constant_pose_image_ids.empty());
  // Some points constant, one camera constant, principal points refined.
  int moved = 0;
  for (auto it = config.variable_point_ids.begin(); it != config.variable_point_ids.end();) {
    if (moved++ % 5 == 0) {
      config.constant_point_ids.insert(*it);
      it = config.variable_point_ids.erase(it);
    } else {
      ++it;
    }
  }
  config.constant_camera_ids.insert(1);
  BundleAdjustmentOptions options = ComparisonOptions(BundleAdjustmentOptions::LossType::kCauchy);
  options.refine_principal_point = true;
  Scene solved;
  CompareWithCeres(scene, config, options, BundleAdjustmentOptions::Solver::kCpu, &solved);
  for (int id : config.constant_pose_image_ids) {
    EXPECT_EQ(solved.images[id].cam_from_world.translation,
              scene.images[id].cam_from_world.translation);
  }
  for (int id : config.constant_point_ids) {
    EXPECT_EQ(solved.points.at(id).position, scene.points.at(id).position);
  }
  EXPECT_EQ(solved.cameras[1].params, scene.cameras[1].params);
  EXPECT_NE(solved.cameras[0].params, scene.cameras[0].params);
}

TEST(SchurPcgCpu, GaugeFixingMatchesCeres) {
  const Scene scene = testing::MakeNoisySyntheticScene(testing::SyntheticSceneOptions{}, 0.5, 9);
  const BundleAdjustmentConfig config = ConfigForGlobal(scene);
  Scene solved;
  CompareWithCeres(scene, config, ComparisonOptions(BundleAdjustmentOptions::LossType::kTrivial),
                   BundleAdjustmentOptions::Solver::kCpu, &solved);
  const int first = *config.variable_image_ids.begin();
  EXPECT_TRUE(solved.images[first].cam_from_world.rotation.isApprox(
      scene.images[first].cam_from_world.rotation, 1e-12));
  EXPECT_EQ(solved.images[first].cam_from_world.translation,
            scene.images[first].cam_from_world.translation);
}

TEST(SchurPcgCpu, MatchesCeresOnBalLadybug49) {
  PROJ_REQUIRE_SHARED_DATASET(path, "bal/problem-49-7776-pre.txt");
  const Scene scene = testing::LoadBalProblem(path);
  BundleAdjustmentOptions options;
  options.loss = BundleAdjustmentOptions::LossType::kHuber;
  options.loss_scale_px = 2.0;
  options.max_iterations = 100;
  options.num_threads = 2;
  CompareWithCeres(scene, ConfigForGlobal(scene), options, BundleAdjustmentOptions::Solver::kCpu);
}

TEST(PositionPrior, JacobianMatchesNumericDifferences) {
  const Eigen::Quaterniond q(Eigen::AngleAxisd(0.7, Eigen::Vector3d(-1, 2, 0.5).normalized()));
  const double pose[7] = {q.x(), q.y(), q.z(), q.w(), 1.5, -0.4, 3.0};
  const double center[3] = {0.3, 0.2, -2.0};
  // A full square-root information matrix (a covariance with correlations).
  const double weight[9] = {2.0, 0.3, 0.0, 0.0, 1.5, -0.2, 0.0, 0.0, 0.8};
  cuda::BaPositionPriorLinearization l;
  cuda::LinearizePositionPrior(pose, 0, center, weight, &l);
  const Eigen::Vector3d expected_center = -(q.conjugate() * Eigen::Vector3d(1.5, -0.4, 3.0));
  double residual[3];
  cuda::PositionPriorResidual(pose, center, weight, residual);
  for (int r = 0; r < 3; ++r) {
    double expected = 0;
    for (int j = 0; j < 3; ++j) expected += weight[3 * r + j] * (expected_center[j] - center[j]);
    EXPECT_NEAR(l.residual[r], expected, 1e-12);
    EXPECT_EQ(l.residual[r], residual[r]);
  }
  for (int k = 0; k < 6; ++k) {
    double delta[6] = {0, 0, 0, 0, 0, 0};
    const double h = 1e-6;
    double plus[7], minus[7], r_plus[3], r_minus[3];
    delta[k] = h;
    cuda::UpdatePose(pose, delta, plus);
    delta[k] = -h;
    cuda::UpdatePose(pose, delta, minus);
    cuda::PositionPriorResidual(plus, center, weight, r_plus);
    cuda::PositionPriorResidual(minus, center, weight, r_minus);
    for (int r = 0; r < 3; ++r) {
      EXPECT_NEAR(l.jacobian[r][k], (r_plus[r] - r_minus[r]) / (2 * h), 1e-7) << r << ", " << k;
    }
  }
  // Constant coordinates (here rotation z and translation x) have zero columns.
  cuda::LinearizePositionPrior(pose, (1 << 2) | (1 << 3), center, weight, &l);
  for (int r = 0; r < 3; ++r) {
    EXPECT_EQ(l.jacobian[r][2], 0);
    EXPECT_EQ(l.jacobian[r][3], 0);
  }
}

TEST(SchurPcgCpu, MatchesCeresWithPositionAndFocalPriors) {
  const Scene scene = testing::MakeNoisySyntheticScene(testing::SyntheticSceneOptions{}, 0.5, 10);
  BundleAdjustmentConfig config = ConfigForGlobal(scene);
  testing::AddPriorsForTest(scene, 0.05, 11, &config);
  BundleAdjustmentOptions options = ComparisonOptions(BundleAdjustmentOptions::LossType::kCauchy);
  // Converged tightly by both, so that the optima compare to 1e-6.
  options.function_tolerance = 1e-12;
  options.pcg_eta = 0;
  options.pcg_relative_tolerance = 1e-10;
  options.max_iterations = 200;
  Scene solved;
  const auto [ceres, ours] =
      CompareWithCeres(scene, config, options, BundleAdjustmentOptions::Solver::kCpu, &solved);
  EXPECT_EQ(ours.solver, "lm-pcg-cpu");
  EXPECT_EQ(ours.num_position_priors, static_cast<int>(scene.images.size()));
  EXPECT_NEAR(ours.final_cost, ceres.final_cost, 1e-6 * ceres.final_cost);
  // The priors fix the gauge: no image is held, so the first one moves too.
  const int first = *config.variable_image_ids.begin();
  EXPECT_GT((solved.images[first].cam_from_world.Center() -
             scene.images[first].cam_from_world.Center()).norm(), 1e-4);
  Scene ceres_scene = scene;
  options.solver = BundleAdjustmentOptions::Solver::kCeres;
  RunBundleAdjustment(options, config, &ceres_scene);
  for (size_t i = 0; i < scene.images.size(); ++i) {
    EXPECT_LT((solved.images[i].cam_from_world.Center() -
               ceres_scene.images[i].cam_from_world.Center()).norm(), 1e-5) << "image " << i;
  }
  for (size_t c = 0; c < scene.cameras.size(); ++c) {
    EXPECT_NEAR(solved.cameras[c].MeanFocal(), ceres_scene.cameras[c].MeanFocal(), 1e-4);
  }
}

// Ground control points: priors on a few points hold the gauge; our solver, by PCG and by the
// dense reduced system, reaches Ceres' optimum.
TEST(SchurPcgCpu, MatchesCeresWithPointPriors) {
  const Scene scene = testing::MakeNoisySyntheticScene(testing::SyntheticSceneOptions{}, 0.5, 14);
  BundleAdjustmentConfig config = ConfigForGlobal(scene);
  testing::AddPointPriorsForTest(scene, 25, 0.02, 15, &config);
  ASSERT_GE(config.point_priors.size(), 4u);
  BundleAdjustmentOptions options = ComparisonOptions(BundleAdjustmentOptions::LossType::kCauchy);
  options.function_tolerance = 1e-12;
  options.pcg_relative_tolerance = 1e-10;
  options.max_iterations = 200;
  Scene ceres_scene = scene;
  options.solver = BundleAdjustmentOptions::Solver::kCeres;
  RunBundleAdjustment(options, config, &ceres_scene);
  for (const int dense_max_images : {0, 100}) {
    SCOPED_TRACE(dense_max_images);
    options.cpu_dense_schur_max_images = dense_max_images;
    Scene solved;
    const auto [ceres, ours] =
        CompareWithCeres(scene, config, options, BundleAdjustmentOptions::Solver::kCpu, &solved);
    EXPECT_EQ(ours.solver, dense_max_images > 0 ? "lm-dense-schur-cpu" : "lm-pcg-cpu");
    EXPECT_EQ(ours.num_point_priors, static_cast<int>(config.point_priors.size()));
    EXPECT_NEAR(ours.final_cost, ceres.final_cost, 1e-6 * ceres.final_cost);
    for (size_t i = 0; i < scene.images.size(); ++i) {
      EXPECT_LT((solved.images[i].cam_from_world.Center() -
                 ceres_scene.images[i].cam_from_world.Center()).norm(), 1e-5) << "image " << i;
    }
    for (const auto& [point_id, prior] : config.point_priors) {
      EXPECT_LT((solved.points.at(point_id).position - ceres_scene.points.at(point_id).position).norm(), 1e-5);
    }
  }
}

TEST(SchurPcgCpu, PriorsOnALocalConfigWithConstantsMatchCeres) {
  const Scene scene = testing::MakeNoisySyntheticScene(testing::SyntheticSceneOptions{}, 0.5, 12);
  BundleAdjustmentConfig config = ConfigForLocal(scene, 4, 3);
  config.constant_camera_ids.insert(1);
  testing::AddPriorsForTest(scene, 0.05, 13, &config);
  BundleAdjustmentOptions options = ComparisonOptions(BundleAdjustmentOptions::LossType::kTrivial);
  options.function_tolerance = 1e-12;
  options.pcg_eta = 0;
  options.pcg_relative_tolerance = 1e-10;
  Scene solved;
  const auto [ceres, ours] =
      CompareWithCeres(scene, config, options, BundleAdjustmentOptions::Solver::kCpu, &solved);
  EXPECT_NEAR(ours.final_cost, ceres.final_cost, 1e-6 * ceres.final_cost);
  EXPECT_EQ(solved.cameras[1].params, scene.cameras[1].params);  // its focal prior is ignored
}

// The dense reduced camera system (cuda::BaSolverOptions::dense_schur) reaches Ceres' optimum
// with every kind of constant parameter, shared and constant intrinsics, principal points and
// priors, for each loss.
TEST(SchurPcgCpu, DenseSchurMatchesCeres) {
  const Scene scene = testing::MakeNoisySyntheticScene(testing::SyntheticSceneOptions{}, 0.5, 15);
  BundleAdjustmentConfig local = ConfigForLocal(scene, 4, 3);
  int moved = 0;
  for (auto it = local.variable_point_ids.begin(); it != local.variable_point_ids.end();) {
    if (moved++ % 5 == 0) {
      local.constant_point_ids.insert(*it);
      it = local.variable_point_ids.erase(it);
    } else {
      ++it;
    }
  }
  local.constant_camera_ids.insert(1);
  BundleAdjustmentConfig with_priors = ConfigForGlobal(scene);
  testing::AddPriorsForTest(scene, 0.05, 16, &with_priors);
  for (const auto loss :
       {BundleAdjustmentOptions::LossType::kTrivial, BundleAdjustmentOptions::LossType::kCauchy}) {
    for (const BundleAdjustmentConfig& config : {ConfigForGlobal(scene), local, with_priors}) {
      SCOPED_TRACE(static_cast<int>(loss));
      BundleAdjustmentOptions options = ComparisonOptions(loss);
      options.function_tolerance = 1e-12;
      options.refine_principal_point = true;
      options.cpu_dense_schur_max_images = 1000;
      Scene solved;
      const auto [ceres, ours] =
          CompareWithCeres(scene, config, options, BundleAdjustmentOptions::Solver::kCpu, &solved);
      EXPECT_EQ(ours.solver, "lm-dense-schur-cpu");
      EXPECT_NEAR(ours.final_cost, ceres.final_cost, 1e-6 * ceres.final_cost);
      for (int id : config.constant_point_ids) {
        EXPECT_EQ(solved.points.at(id).position, scene.points.at(id).position);
      }
      for (int id : config.constant_camera_ids) {
        EXPECT_EQ(solved.cameras[id].params, scene.cameras[id].params);
      }
    }
  }
}

// Above cpu_dense_schur_max_images variable images the CPU solver runs PCG.
TEST(SchurPcgCpu, DenseSchurOnlyUpToItsImageCount) {
  Scene scene = testing::MakeNoisySyntheticScene(testing::SyntheticSceneOptions{}, 0.5, 17);
  BundleAdjustmentOptions options = ComparisonOptions(BundleAdjustmentOptions::LossType::kTrivial);
  options.solver = BundleAdjustmentOptions::Solver::kCpu;
  const BundleAdjustmentConfig config = ConfigForGlobal(scene);
  options.cpu_dense_schur_max_images = 1;
  Scene copy = scene;
  EXPECT_EQ(RunBundleAdjustment(options, config, &copy).solver, "lm-pcg-cpu");
  options.cpu_dense_schur_max_images = static_cast<int>(config.variable_image_ids.size());
  EXPECT_EQ(RunBundleAdjustment(options, config, &scene).solver, "lm-dense-schur-cpu");
}

// The dense path sums in an order independent of the thread count: the same bits.
TEST(SchurPcgCpu, DenseSchurGivesTheSameBitsForAnyThreadCount) {
  const Scene scene = testing::MakeNoisySyntheticScene(testing::SyntheticSceneOptions{}, 0.5, 18);
  BundleAdjustmentConfig config = ConfigForGlobal(scene);
  testing::AddPriorsForTest(scene, 0.05, 19, &config);
  BundleAdjustmentOptions options = ComparisonOptions(BundleAdjustmentOptions::LossType::kCauchy);
  options.cpu_dense_schur_max_images = 1000;
  cuda::BaSolverOptions solver_options;
  const cuda::BaProblem problem = MakeBaProblem(options, config, scene, &solver_options);
  ASSERT_TRUE(solver_options.dense_schur);
  std::vector<cuda::BaProblem> solved;
  std::vector<cuda::BaSolverSummary> summaries;
  for (int threads : {1, 2, 5}) {
    solver_options.num_threads = threads;
    solved.push_back(problem);
    summaries.push_back(SolveBaProblemCpu(solver_options, &solved.back()));
  }
  EXPECT_LT(summaries[0].final_cost, summaries[0].initial_cost);
  for (size_t k = 1; k < solved.size(); ++k) {
    EXPECT_EQ(summaries[k].num_iterations, summaries[0].num_iterations);
    EXPECT_EQ(std::memcmp(&summaries[k].final_cost, &summaries[0].final_cost, sizeof(double)), 0);
    EXPECT_EQ(solved[k].poses, solved[0].poses);
    EXPECT_EQ(solved[k].points, solved[0].points);
    EXPECT_EQ(solved[k].camera_params, solved[0].camera_params);
  }
}

TEST(BaChunks, TileEachImageAndListEachCamerasChunksInOrder) {
  testing::SyntheticSceneOptions scene_options;
  scene_options.num_points = 800;  // images with more than one chunk
  const Scene scene = testing::MakeNoisySyntheticScene(scene_options, 0.5, 14);
  const cuda::BaProblem problem =
      MakeBaProblem(BundleAdjustmentOptions{}, ConfigForGlobal(scene), scene, nullptr);
  const cuda::BaLayout layout = MakeBaLayout(problem);
  const cuda::BaChunks chunks = cuda::MakeBaChunks(problem, layout);
  const int num_images = problem.num_images(), num_chunks = chunks.num_chunks();
  ASSERT_EQ(chunks.starts.front(), 0);
  ASSERT_EQ(chunks.starts.back(), problem.num_observations());
  std::vector<int> chunk_image(num_chunks);
  bool some_image_has_several = false;
  for (int image = 0; image < num_images; ++image) {
    const int begin = chunks.segment_offsets[image], end = chunks.segment_offsets[image + 1];
    some_image_has_several |= end - begin > 1;
    ASSERT_GT(end, begin);
    EXPECT_EQ(chunks.starts[chunks.segment_chunks[begin]], layout.image_offsets[image]);
    EXPECT_EQ(chunks.starts[chunks.segment_chunks[end - 1] + 1], layout.image_offsets[image + 1]);
    for (int e = begin; e < end; ++e) {
      const int chunk = chunks.segment_chunks[e];
      EXPECT_EQ(chunk, e);
      EXPECT_GT(chunks.starts[chunk + 1], chunks.starts[chunk]);
      EXPECT_LE(chunks.starts[chunk + 1] - chunks.starts[chunk], cuda::kBaChunkSize);
      chunk_image[chunk] = image;
    }
  }
  EXPECT_TRUE(some_image_has_several);
  std::vector<int> seen(num_chunks, 0);
  for (int camera = 0; camera < problem.num_cameras(); ++camera) {
    const int begin = chunks.segment_offsets[num_images + camera];
    const int end = chunks.segment_offsets[num_images + camera + 1];
    for (int e = begin; e < end; ++e) {
      const int chunk = chunks.segment_chunks[e];
      EXPECT_EQ(problem.image_cameras[chunk_image[chunk]], camera);
      if (e > begin) {
        EXPECT_GT(chunk, chunks.segment_chunks[e - 1]);
      }
      ++seen[chunk];
    }
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), num_chunks);
}

TEST(SchurPcgCpu, RejectsInconsistentProblem) {
  cuda::BaProblem problem;
  problem.camera_models = {7};
  problem.camera_params.assign(kBaMaxCameraParams, 1.0);
  problem.camera_constant_mask = {0};
  EXPECT_THROW(SolveBaProblemCpu(cuda::BaSolverOptions{}, &problem), InputError);
  cuda::BaProblem bad_priors;
  bad_priors.position_prior_weights.assign(9, 1.0);  // for one image, but there is none
  EXPECT_THROW(SolveBaProblemCpu(cuda::BaSolverOptions{}, &bad_priors), InputError);
  cuda::BaSolverOptions bad;
  bad.pcg_relative_tolerance = 0;
  cuda::BaProblem empty;
  EXPECT_THROW(SolveBaProblemCpu(bad, &empty), InputError);
}

}  // namespace
}  // namespace proj
