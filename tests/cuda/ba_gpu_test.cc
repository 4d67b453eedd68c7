// GPU bundle adjuster against our CPU solver (same algorithm) and Ceres; skips without a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

#include "cuda/ba/bundle_adjuster_gpu.h"
#include "cuda/device.h"
#include "sfm/ba/bundle_adjuster.h"
#include "sfm/ba/schur_pcg_cpu.h"
#include "tests/sfm/ba/ba_test_scenes.h"
#include "tests/sfm/ba/bal_problem.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

#define PROJ_REQUIRE_GPU()                                                              \
  if (!cuda::DeviceAvailable()) {                                                       \
    GTEST_SKIP() << "no CUDA device: " << cuda::DeviceDescription();                    \
  }

// Solves the scene's global problem on CPU and GPU; expects the same costs and parameters.
void ExpectGpuMatchesCpu(const Scene& scene, BundleAdjustmentOptions options) {
  cuda::BaSolverOptions solver_options;
  const cuda::BaProblem problem =
      MakeBaProblem(options, ConfigForGlobal(scene), scene, &solver_options);
  cuda::BaProblem cpu = problem, gpu = problem;
  const cuda::BaSolverSummary cpu_summary = SolveBaProblemCpu(solver_options, &cpu);
  cuda::BundleAdjusterGpu adjuster;
  const cuda::BaSolverSummary gpu_summary = adjuster.Solve(solver_options, &gpu);
  std::cout << "cpu: " << cpu_summary.initial_cost << " -> " << cpu_summary.final_cost << " ("
            << cpu_summary.num_iterations << " iterations, " << cpu_summary.num_pcg_iterations
            << " PCG, " << cpu_summary.time_s << " s); gpu: " << gpu_summary.final_cost << " ("
            << gpu_summary.num_iterations << " iterations, " << gpu_summary.num_pcg_iterations
            << " PCG, " << adjuster.last_solve_ms() << " ms)\n";
  ASSERT_TRUE(gpu_summary.success) << gpu_summary.message;
  EXPECT_NEAR(gpu_summary.initial_cost, cpu_summary.initial_cost, 1e-10 * cpu_summary.initial_cost);
  EXPECT_NEAR(gpu_summary.final_cost, cpu_summary.final_cost, 1e-4 * cpu_summary.final_cost);
  double cost = 0;
  ASSERT_TRUE(cuda::EvaluateBaCost(gpu, solver_options.loss, solver_options.loss_scale_px, &cost));
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

TEST(BundleAdjusterGpu, MatchesCpuAndCeresOnBalLadybug49) {
  PROJ_REQUIRE_GPU();
  PROJ_REQUIRE_SHARED_DATASET(path, "bal/problem-49-7776-pre.txt");
  const Scene scene = testing::LoadBalProblem(path);
  BundleAdjustmentOptions options;
  options.loss = BundleAdjustmentOptions::LossType::kHuber;
  options.loss_scale_px = 2.0;
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

}  // namespace
}  // namespace proj
