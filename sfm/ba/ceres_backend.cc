#include "sfm/ba/ceres_backend.h"

#include <ceres/ceres.h>

#include <algorithm>
#include <memory>
#include <thread>
#include <vector>

#include "core/logging.h"
#include "sfm/ba/position_prior_cost.h"
#include "sfm/ba/reprojection_cost.h"

namespace proj::internal {
namespace {

std::unique_ptr<ceres::LossFunction> MakeLoss(const BundleAdjustmentOptions& options) {
  switch (options.loss) {
    case BundleAdjustmentOptions::LossType::kTrivial:
      return nullptr;
    case BundleAdjustmentOptions::LossType::kHuber:
      return std::make_unique<ceres::HuberLoss>(options.loss_scale_px);
    case BundleAdjustmentOptions::LossType::kCauchy:
      return std::make_unique<ceres::CauchyLoss>(options.loss_scale_px);
  }
  return nullptr;
}

ceres::Solver::Options MakeSolverOptions(const BundleAdjustmentOptions& options,
                                         int num_variable_images) {
  ceres::Solver::Options solver;
  solver.max_num_iterations = options.max_iterations;
  solver.function_tolerance = options.function_tolerance;
  solver.gradient_tolerance = options.gradient_tolerance;
  solver.parameter_tolerance = options.parameter_tolerance;
  solver.num_threads = options.num_threads > 0
                           ? options.num_threads
                           : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  solver.minimizer_progress_to_stdout = false;
  solver.logging_type = ceres::SILENT;
  if (num_variable_images <= options.dense_schur_max_images) {
    solver.linear_solver_type = ceres::DENSE_SCHUR;
    return solver;
  }
  for (const auto library :
       {ceres::SUITE_SPARSE, ceres::CX_SPARSE, ceres::EIGEN_SPARSE, ceres::ACCELERATE_SPARSE}) {
    if (ceres::IsSparseLinearAlgebraLibraryTypeAvailable(library)) {
      solver.linear_solver_type = ceres::SPARSE_SCHUR;
      solver.sparse_linear_algebra_library_type = library;
      return solver;
    }
  }
  solver.linear_solver_type = ceres::ITERATIVE_SCHUR;
  solver.preconditioner_type = ceres::SCHUR_JACOBI;
  return solver;
}

// Per-iteration progress through the project's log (stderr), not Ceres' stdout printing.
class LogProgress : public ceres::IterationCallback {
 public:
  ceres::CallbackReturnType operator()(const ceres::IterationSummary& summary) override {
    PROJ_LOG(kInfo, "bundle adjustment iteration "
                        << summary.iteration << ": cost " << summary.cost << ", |gradient| "
                        << summary.gradient_max_norm << ", |step| " << summary.step_norm
                        << (summary.step_is_successful ? "" : " (rejected)"));
    return ceres::SOLVER_CONTINUE;
  }
};

}  // namespace

SolverResult SolveWithCeres(const BundleAdjustmentOptions& options, const Adjustment& adjustment,
                            int num_variable_points, Scene* scene) {
  // The loss is shared by all residual blocks and outlives the problem.
  const std::unique_ptr<ceres::LossFunction> loss = MakeLoss(options);
  ceres::Problem::Options problem_options;
  problem_options.loss_function_ownership = ceres::DO_NOT_TAKE_OWNERSHIP;
  ceres::Problem problem(problem_options);
  for (const auto& obs : adjustment.observations) {
    SceneImage& image = scene->images[obs.image_id];
    Camera& camera = scene->cameras[image.camera_id];
    double* point = scene->points.at(obs.point_id).position.data();
    const Eigen::Vector2d& observed = image.keypoints[obs.keypoint_index];
    if (adjustment.constant_pose.count(obs.image_id)) {
      problem.AddResidualBlock(
          CreateConstantPoseReprojectionCost(camera.model, image.cam_from_world, observed)
              .release(),
          loss.get(), point, camera.params.data());
    } else {
      problem.AddResidualBlock(CreateReprojectionCost(camera.model, observed).release(), loss.get(),
                               image.cam_from_world.rotation.coeffs().data(),
                               image.cam_from_world.translation.data(), point,
                               camera.params.data());
    }
  }
  for (const auto& [image_id, prior] : adjustment.position_priors) {
    Rigid3d& pose = scene->images[image_id].cam_from_world;
    problem.AddResidualBlock(CreatePositionPriorCost(prior).release(), nullptr,
                             pose.rotation.coeffs().data(), pose.translation.data());
  }
  for (const auto& [point_id, prior] : adjustment.point_priors) {
    problem.AddResidualBlock(CreatePointPriorCost(prior).release(), nullptr,
                             scene->points.at(point_id).position.data());
  }
  for (const auto& [camera_id, prior] : adjustment.focal_priors) {
    Camera& camera = scene->cameras[camera_id];
    const std::vector<int>& constant = adjustment.constant_camera_params.at(camera_id);
    for (int index : camera.FocalIndices()) {
      if (std::find(constant.begin(), constant.end(), index) != constant.end()) continue;
      problem.AddResidualBlock(
          CreateCameraParameterPriorCost(static_cast<int>(camera.params.size()), index,
                                         prior.focal_px, prior.sigma_px)
              .release(),
          nullptr, camera.params.data());
    }
  }
  for (int image_id : adjustment.pose_images) {
    Rigid3d& pose = scene->images[image_id].cam_from_world;
    pose.rotation.normalize();
    problem.SetManifold(pose.rotation.coeffs().data(), new ceres::EigenQuaternionManifold);
    const auto fixed = adjustment.fixed_translation_coordinate.find(image_id);
    if (fixed != adjustment.fixed_translation_coordinate.end()) {
      problem.SetManifold(pose.translation.data(),
                          new ceres::SubsetManifold(3, std::vector<int>{fixed->second}));
    }
  }
  for (int camera_id : adjustment.used_cameras) {
    Camera& camera = scene->cameras[camera_id];
    const std::vector<int>& constant = adjustment.constant_camera_params.at(camera_id);
    if (!adjustment.variable_cameras.count(camera_id)) {
      problem.SetParameterBlockConstant(camera.params.data());
    } else if (!constant.empty()) {
      problem.SetManifold(camera.params.data(),
                          new ceres::SubsetManifold(static_cast<int>(camera.params.size()), constant));
    }
  }
  for (int point_id : adjustment.used_points) {
    if (!adjustment.constant_points.count(point_id)) continue;
    problem.SetParameterBlockConstant(scene->points.at(point_id).position.data());
  }

  ceres::Solver::Options solver_options =
      MakeSolverOptions(options, static_cast<int>(adjustment.pose_images.size()));
  if (num_variable_points > 0) {
    // Eliminate points first in the Schur complement (constant ones are dropped by Ceres).
    auto ordering = std::make_shared<ceres::ParameterBlockOrdering>();
    for (int point_id : adjustment.used_points) {
      ordering->AddElementToGroup(scene->points.at(point_id).position.data(), 0);
    }
    for (int image_id : adjustment.pose_images) {
      Rigid3d& pose = scene->images[image_id].cam_from_world;
      ordering->AddElementToGroup(pose.rotation.coeffs().data(), 1);
      ordering->AddElementToGroup(pose.translation.data(), 1);
    }
    for (int camera_id : adjustment.used_cameras) {
      ordering->AddElementToGroup(scene->cameras[camera_id].params.data(), 1);
    }
    solver_options.linear_solver_ordering = ordering;
  }

  LogProgress log_progress;
  if (options.verbose) solver_options.callbacks.push_back(&log_progress);
  ceres::Solver::Summary ceres_summary;
  ceres::Solve(solver_options, &problem, &ceres_summary);
  if (options.verbose) {
    PROJ_LOG(kInfo, ceres_summary.FullReport());
  } else {
    PROJ_LOG(kDebug, ceres_summary.BriefReport());
  }
  for (int image_id : adjustment.pose_images) {
    scene->images[image_id].cam_from_world.rotation.normalize();
  }
  SolverResult result;
  result.success = ceres_summary.IsSolutionUsable();
  result.num_iterations = static_cast<int>(ceres_summary.iterations.size()) - 1;
  result.initial_cost = ceres_summary.initial_cost;
  result.final_cost = ceres_summary.final_cost;
  result.message = ceres_summary.message;
  result.solver = "ceres";
  return result;
}

}  // namespace proj::internal
