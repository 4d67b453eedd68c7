// GPU bundle adjuster against our CPU solver (same algorithm) and Ceres, with and without prior
// terms, and its determinism (two solves of one problem give the same bytes); skips without a
// GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <iostream>

#include "cuda/ba/bundle_adjuster_gpu.h"
#include "cuda/device.h"
#include "sfm/ba/ba_problem.h"
#include "sfm/ba/bundle_adjuster.h"
#include "sfm/ba/schur_pcg_cpu.h"
#include "sfm/ba/schur_pcg_gpu.h"
#include "tests/sfm/ba/ba_test_scenes.h"
#include "tests/sfm/ba/bal_problem.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

#define PROJ_REQUIRE_GPU()                                                              \
  if (!cuda::DeviceAvailable()) {                                                       \
    GTEST_SKIP() << "no CUDA device: " << cuda::DeviceDescription();                    \
  }

// Solves the scene's problem for `config` (global by default) on CPU and GPU; expects the same
// costs (final within `tolerance`, relative) and parameters.
void ExpectGpuMatchesCpu(const Scene& scene, BundleAdjustmentOptions options,
                         const BundleAdjustmentConfig* config = nullptr, double tolerance = 1e-4) {
  cuda::BaSolverOptions solver_options;
  const cuda::BaProblem problem = MakeBaProblem(
      options, config != nullptr ? *config : ConfigForGlobal(scene), scene, &solver_options);
  cuda::BaProblem cpu = problem, gpu = problem;
  const cuda::BaSolverSummary cpu_summary = SolveBaProblemCpu(solver_options, &cpu);
  cuda::BundleAdjusterGpu adjuster;
  const cuda::BaSolverSummary gpu_summary = SolveBaProblemGpu(solver_options, &gpu, &adjuster);
  std::cout << "cpu: " << cpu_summary.initial_cost << " -> " << cpu_summary.final_cost << " ("
            << cpu_summary.num_iterations << " iterations, " << cpu_summary.num_pcg_iterations
            << " PCG, " << cpu_summary.time_s << " s); gpu: " << gpu_summary.final_cost << " ("
            << gpu_summary.num_iterations << " iterations, " << gpu_summary.num_pcg_iterations
            << " PCG, " << adjuster.last_solve_ms() << " ms)\n";
  ASSERT_TRUE(gpu_summary.success) << gpu_summary.message;
  EXPECT_NEAR(gpu_summary.initial_cost, cpu_summary.initial_cost, 1e-10 * cpu_summary.initial_cost);
  EXPECT_NEAR(gpu_summary.final_cost, cpu_summary.final_cost, tolerance * cpu_summary.final_cost);
  double cost = 0;
  ASSERT_TRUE(EvaluateBaCost(gpu, solver_options.loss, solver_options.loss_scale_px, &cost));
  EXPECT_NEAR(cost, gpu_summary.final_cost, 1e-9 * cost);
  // Constant parameters stay exactly where they were.
  for (int i = 0; i < problem.num_images(); ++i) {
    if (problem.pose_constant_mask[i] != cuda::kBaConstantPose) continue;
    for (int k = 4; k < 7; ++k) EXPECT_EQ(gpu.poses[7 * i + k], problem.poses[7 * i + k]);
  }
}

TEST(BundleAdjusterGpu, MatchesCpuOnSyntheticSceneForEachLoss) {
  PROJ_REQUIRE_GPU();
  const Scene scene = testing::MakeNoisySyntheticScene(testing::SyntheticSceneOptions{}, 0.5, 7);
  for (const auto loss :
       {BundleAdjustmentOptions::LossType::kTrivial, BundleAdjustmentOptions::LossType::kHuber,
        BundleAdjustmentOptions::LossType::kCauchy}) {
    SCOPED_TRACE(static_cast<int>(loss));
    BundleAdjustmentOptions options;
    options.loss = loss;
    options.function_tolerance = 1e-10;
    ExpectGpuMatchesCpu(scene, options);
  }
}

TEST(BundleAdjusterGpu, MatchesCpuOnAerialScene) {
  PROJ_REQUIRE_GPU();
  ExpectGpuMatchesCpu(testing::MakeAerialGridScene(100, 10000, 0.5, 3), BundleAdjustmentOptions{});
}

// The BAL Ladybug problem 49 (../shared/datasets/bal), loaded once for the tests that use
// it, with the loss these tests solve it under.
class BalLadybug49 : public ::testing::Test {
 protected:
  void SetUp() override {
    PROJ_REQUIRE_GPU();
    PROJ_REQUIRE_SHARED_DATASET(path, "bal/problem-49-7776-pre.txt");
    static const Scene loaded = testing::LoadBalProblem(path);
    scene_ = &loaded;
    options_.loss = BundleAdjustmentOptions::LossType::kHuber;
    options_.loss_scale_px = 2.0;
  }
  const Scene* scene_ = nullptr;
  BundleAdjustmentOptions options_;
};

TEST_F(BalLadybug49, GpuMatchesCpuAndCeres) {
  const Scene& scene = *scene_;
  BundleAdjustmentOptions options = options_;
  ExpectGpuMatchesCpu(scene, options);
  Scene ceres_scene = scene, gpu_scene = scene;
  const BundleAdjustmentSummary ceres =
      RunBundleAdjustment(options, ConfigForGlobal(scene), &ceres_scene);
  options.solver = BundleAdjustmentOptions::Solver::kGpu;
  const BundleAdjustmentSummary gpu = RunBundleAdjustment(options, ConfigForGlobal(scene), &gpu_scene);
  EXPECT_EQ(gpu.solver, "lm-pcg-gpu");
  EXPECT_NEAR(gpu.final_cost, ceres.final_cost, 1e-3 * ceres.final_cost);
}

TEST(BundleAdjusterGpu, LocalConfigWithConstantsMatchesCpu) {
  PROJ_REQUIRE_GPU();
  const Scene scene = testing::MakeNoisySyntheticScene(testing::SyntheticSceneOptions{}, 0.5, 8);
  BundleAdjustmentConfig config = ConfigForLocal(scene, 4, 3);
  config.constant_camera_ids.insert(1);
  BundleAdjustmentOptions options;
  options.loss = BundleAdjustmentOptions::LossType::kCauchy;
  options.refine_principal_point = true;
  Scene cpu_scene = scene, gpu_scene = scene;
  options.solver = BundleAdjustmentOptions::Solver::kCpu;
  const BundleAdjustmentSummary cpu = RunBundleAdjustment(options, config, &cpu_scene);
  options.solver = BundleAdjustmentOptions::Solver::kGpu;
  const BundleAdjustmentSummary gpu = RunBundleAdjustment(options, config, &gpu_scene);
  EXPECT_NEAR(gpu.final_cost, cpu.final_cost, 1e-4 * cpu.final_cost);
  EXPECT_EQ(gpu_scene.cameras[1].params, scene.cameras[1].params);
  for (int id : config.constant_pose_image_ids) {
    EXPECT_EQ(gpu_scene.images[id].cam_from_world.translation,
              scene.images[id].cam_from_world.translation);
  }
}

// A global adjustment with prior terms, converged tightly: GPU against CPU, then the GPU
// through RunBundleAdjustment (priors of any kind no longer send it to Ceres).
BundleAdjustmentSummary ExpectPriorsSolvedAlikeAndOnTheGpu(const Scene& scene,
                                                           const BundleAdjustmentConfig& config) {
  BundleAdjustmentOptions options;
  options.loss = BundleAdjustmentOptions::LossType::kCauchy;
  options.function_tolerance = 1e-12;
  options.pcg_eta = 0;
  options.pcg_relative_tolerance = 1e-10;
  options.max_iterations = 200;
  ExpectGpuMatchesCpu(scene, options, &config, 1e-6);
  Scene gpu_scene = scene;
  options.solver = BundleAdjustmentOptions::Solver::kGpu;
  const BundleAdjustmentSummary gpu = RunBundleAdjustment(options, config, &gpu_scene);
  EXPECT_EQ(gpu.solver, "lm-pcg-gpu");
  return gpu;
}

TEST(BundleAdjusterGpu, MatchesCpuWithPositionAndFocalPriors) {
  PROJ_REQUIRE_GPU();
  const Scene scene = testing::MakeNoisySyntheticScene(testing::SyntheticSceneOptions{}, 0.5, 10);
  BundleAdjustmentConfig config = ConfigForGlobal(scene);
  testing::AddPriorsForTest(scene, 0.05, 11, &config);
  EXPECT_EQ(ExpectPriorsSolvedAlikeAndOnTheGpu(scene, config).num_position_priors,
            static_cast<int>(scene.images.size()));
}

// Ground control points.
TEST(BundleAdjusterGpu, MatchesCpuWithPointPriors) {
  PROJ_REQUIRE_GPU();
  const Scene scene = testing::MakeNoisySyntheticScene(testing::SyntheticSceneOptions{}, 0.5, 14);
  BundleAdjustmentConfig config = ConfigForGlobal(scene);
  testing::AddPointPriorsForTest(scene, 25, 0.02, 15, &config);
  EXPECT_EQ(ExpectPriorsSolvedAlikeAndOnTheGpu(scene, config).num_point_priors,
            static_cast<int>(config.point_priors.size()));
}

TEST(BundleAdjusterGpu, PriorsOnALocalConfigMatchCpu) {
  PROJ_REQUIRE_GPU();
  const Scene scene = testing::MakeNoisySyntheticScene(testing::SyntheticSceneOptions{}, 0.5, 12);
  BundleAdjustmentConfig config = ConfigForLocal(scene, 4, 3);
  config.constant_camera_ids.insert(1);
  testing::AddPriorsForTest(scene, 0.05, 13, &config);
  BundleAdjustmentOptions options;
  options.loss = BundleAdjustmentOptions::LossType::kTrivial;
  options.function_tolerance = 1e-12;
  options.pcg_eta = 0;
  options.pcg_relative_tolerance = 1e-10;
  ExpectGpuMatchesCpu(scene, options, &config, 1e-6);
}

bool SameBytes(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// Solves `problem` and expects the bytes of `reference` (a solve of the same problem).
void ExpectSameSolve(const cuda::BaProblem& problem, const cuda::BaSolverOptions& options,
                     const cuda::BaProblem& reference, const cuda::BaSolverSummary& summary,
                     cuda::BundleAdjusterGpu* adjuster) {
  cuda::BaProblem again = problem;
  const cuda::BaSolverSummary again_summary = SolveBaProblemGpu(options, &again, adjuster);
  EXPECT_TRUE(SameBytes(again.poses, reference.poses));
  EXPECT_TRUE(SameBytes(again.camera_params, reference.camera_params));
  EXPECT_TRUE(SameBytes(again.points, reference.points));
  EXPECT_EQ(std::memcmp(&again_summary.final_cost, &summary.final_cost, sizeof(double)), 0);
  EXPECT_EQ(std::memcmp(&again_summary.initial_cost, &summary.initial_cost, sizeof(double)), 0);
  EXPECT_EQ(again_summary.num_iterations, summary.num_iterations);
  EXPECT_EQ(again_summary.num_successful_steps, summary.num_successful_steps);
  EXPECT_EQ(again_summary.num_pcg_iterations, summary.num_pcg_iterations);
}

// Same problem, same bytes: on one instance, after it solved a problem of another size (its
// buffers reused), and on a new instance. Shared intrinsics (10 images per camera) and priors
// exercise every per-image and per-camera sum.
TEST(BundleAdjusterGpu, RepeatedSolvesAreBitIdentical) {
  PROJ_REQUIRE_GPU();
  const Scene scene = testing::MakeAerialGridScene(100, 10000, 0.5, 3);
  BundleAdjustmentConfig config = ConfigForGlobal(scene);
  testing::AddPriorsForTest(scene, 0.05, 4, &config);
  BundleAdjustmentOptions options;
  options.loss = BundleAdjustmentOptions::LossType::kCauchy;
  cuda::BaSolverOptions solver_options;
  const cuda::BaProblem problem = MakeBaProblem(options, config, scene, &solver_options);
  ASSERT_TRUE(problem.has_position_priors() && problem.has_camera_priors());
  std::cout << problem.num_observations() << " observations\n";

  cuda::BundleAdjusterGpu adjuster;
  cuda::BaProblem reference = problem;
  const cuda::BaSolverSummary summary = SolveBaProblemGpu(solver_options, &reference, &adjuster);
  ASSERT_TRUE(summary.success) << summary.message;
  EXPECT_GT(summary.num_pcg_iterations, summary.num_iterations);
  ExpectSameSolve(problem, solver_options, reference, summary, &adjuster);

  const Scene other = testing::MakeNoisySyntheticScene(testing::SyntheticSceneOptions{}, 0.5, 5);
  cuda::BaSolverOptions other_options;
  cuda::BaProblem other_problem =
      MakeBaProblem(options, ConfigForGlobal(other), other, &other_options);
  SolveBaProblemGpu(other_options, &other_problem, &adjuster);
  ExpectSameSolve(problem, solver_options, reference, summary, &adjuster);

  cuda::BundleAdjusterGpu fresh;
  ExpectSameSolve(problem, solver_options, reference, summary, &fresh);
}

// The process's solver of each device (made on its first solve, then reused) gives the bytes
// of an instance of the test's own.
TEST(BundleAdjusterGpu, EachDevicesSharedSolverMatchesAnOwnInstance) {
  PROJ_REQUIRE_GPU();
  const Scene scene = testing::MakeNoisySyntheticScene(testing::SyntheticSceneOptions{}, 0.5, 5);
  cuda::BaSolverOptions solver_options;
  const cuda::BaProblem problem =
      MakeBaProblem(BundleAdjustmentOptions{}, ConfigForGlobal(scene), scene, &solver_options);
  cuda::BundleAdjusterGpu own;
  cuda::BaProblem reference = problem;
  const cuda::BaSolverSummary summary = SolveBaProblemGpu(solver_options, &reference, &own);
  ASSERT_TRUE(summary.success) << summary.message;
  for (int device = 0; device < cuda::DeviceCount(); ++device) {
    for (int solve = 0; solve < 2; ++solve) {
      cuda::BaProblem solved = problem;
      const cuda::BaSolverSummary again = SolveBaProblemGpu(solver_options, &solved, device);
      EXPECT_TRUE(SameBytes(solved.poses, reference.poses)) << "device " << device;
      EXPECT_TRUE(SameBytes(solved.points, reference.points)) << "device " << device;
      EXPECT_EQ(again.num_iterations, summary.num_iterations) << "device " << device;
    }
  }
}

TEST_F(BalLadybug49, RepeatedGpuSolvesAreBitIdentical) {
  cuda::BaSolverOptions solver_options;
  const cuda::BaProblem problem = MakeBaProblem(options_, ConfigForGlobal(*scene_), *scene_, &solver_options);
  cuda::BundleAdjusterGpu adjuster;
  cuda::BaProblem reference = problem;
  const cuda::BaSolverSummary summary = SolveBaProblemGpu(solver_options, &reference, &adjuster);
  ASSERT_TRUE(summary.success) << summary.message;
  ExpectSameSolve(problem, solver_options, reference, summary, &adjuster);
}

}  // namespace
}  // namespace proj
