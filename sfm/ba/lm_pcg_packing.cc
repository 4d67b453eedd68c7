#include "sfm/ba/lm_pcg_packing.h"

#include <algorithm>

#include "sfm/ba/schur_pcg_cpu.h"
#include "sfm/ba/schur_pcg_gpu.h"

namespace proj::internal {

cuda::BaProblem ToBaProblem(const Adjustment& adjustment, const Scene& scene,
                            ProblemIndex* index) {
  // Problem index of each scene id (-1: not in the problem); vectors, not maps: this runs
  // before every adjustment, local ones included.
  std::vector<int> camera_index(scene.cameras.size(), -1), image_index(scene.images.size(), -1);
  std::vector<int> point_index(scene.points.empty() ? 0 : scene.points.rbegin()->first + 1, -1);
  cuda::BaProblem problem;
  for (int camera_id : adjustment.used_cameras) {
    const Camera& camera = scene.cameras[camera_id];
    camera_index[camera_id] = problem.num_cameras();
    index->camera_ids.push_back(camera_id);
    problem.camera_models.push_back(static_cast<int>(camera.model));
    uint8_t mask = 0;
    for (int k : adjustment.constant_camera_params.at(camera_id)) mask |= 1 << k;
    problem.camera_constant_mask.push_back(mask);
    for (int k = 0; k < cuda::kBaMaxCameraParams; ++k) {
      problem.camera_params.push_back(k < static_cast<int>(camera.params.size()) ? camera.params[k]
                                                                                 : 0.0);
    }
  }
  const size_t num_observations = adjustment.observations.size();
  problem.observation_images.reserve(num_observations);
  problem.observation_points.reserve(num_observations);
  problem.observations_px.reserve(2 * num_observations);
  for (const auto& obs : adjustment.observations) {
    if (image_index[obs.image_id] < 0) {
      image_index[obs.image_id] = problem.num_images();
      index->image_ids.push_back(obs.image_id);
      const SceneImage& image = scene.images[obs.image_id];
      problem.image_cameras.push_back(camera_index[image.camera_id]);
      const Eigen::Quaterniond q = image.cam_from_world.rotation.normalized();
      for (double v : {q.x(), q.y(), q.z(), q.w()}) problem.poses.push_back(v);
      for (int k = 0; k < 3; ++k) problem.poses.push_back(image.cam_from_world.translation[k]);
      uint8_t mask = adjustment.constant_pose.count(obs.image_id) ? cuda::kBaConstantPose : 0;
      const auto fixed = adjustment.fixed_translation_coordinate.find(obs.image_id);
      if (fixed != adjustment.fixed_translation_coordinate.end()) mask |= 1 << (3 + fixed->second);
      problem.pose_constant_mask.push_back(mask);
    }
    if (point_index[obs.point_id] < 0) {
      point_index[obs.point_id] = problem.num_points();
      index->point_ids.push_back(obs.point_id);
      const Eigen::Vector3d& position = scene.points.at(obs.point_id).position;
      for (int k = 0; k < 3; ++k) problem.points.push_back(position[k]);
      problem.point_constant.push_back(adjustment.constant_points.count(obs.point_id) ? 1 : 0);
    }
    problem.observation_images.push_back(image_index[obs.image_id]);
    problem.observation_points.push_back(point_index[obs.point_id]);
    const Eigen::Vector2d& observed = scene.images[obs.image_id].keypoints[obs.keypoint_index];
    problem.observations_px.push_back(observed.x());
    problem.observations_px.push_back(observed.y());
  }
  if (!adjustment.position_priors.empty()) {
    problem.position_prior_centers.assign(3 * static_cast<size_t>(problem.num_images()), 0.0);
    problem.position_prior_weights.assign(9 * static_cast<size_t>(problem.num_images()), 0.0);
    for (const auto& [image_id, prior] : adjustment.position_priors) {
      const int i = image_index[image_id];
      for (int k = 0; k < 3; ++k) {
        problem.position_prior_centers[3 * i + k] = prior.position[k];
        problem.position_prior_weights[9 * i + 4 * k] = 1 / prior.sigma[k];
      }
    }
  }
  if (!adjustment.focal_priors.empty()) {
    problem.camera_prior_means.assign(problem.camera_params.size(), 0.0);
    problem.camera_prior_weights.assign(problem.camera_params.size(), 0.0);
    for (const auto& [camera_id, prior] : adjustment.focal_priors) {
      const int c = camera_index[camera_id];
      const std::vector<int>& constant = adjustment.constant_camera_params.at(camera_id);
      for (int k : scene.cameras[camera_id].FocalIndices()) {
        if (std::find(constant.begin(), constant.end(), k) != constant.end()) continue;
        problem.camera_prior_means[c * cuda::kBaMaxCameraParams + k] = prior.focal_px;
        problem.camera_prior_weights[c * cuda::kBaMaxCameraParams + k] = 1 / prior.sigma_px;
      }
    }
  }
  for (const auto& [point_id, prior] : adjustment.point_priors) {
    problem.point_prior_points.push_back(point_index[point_id]);
    for (int k = 0; k < 3; ++k) problem.point_prior_positions.push_back(prior.position[k]);
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) problem.point_prior_weights.push_back(r == c ? 1 / prior.sigma[r] : 0.0);
    }
  }
  return problem;
}

cuda::BaSolverOptions MakeBaSolverOptions(const BundleAdjustmentOptions& options,
                                          const Adjustment& adjustment) {
  cuda::BaSolverOptions solver_options;
  solver_options.loss = static_cast<cuda::BaLoss>(static_cast<int>(options.loss));
  solver_options.loss_scale_px = options.loss_scale_px;
  solver_options.max_iterations = options.max_iterations;
  solver_options.function_tolerance = options.function_tolerance;
  solver_options.gradient_tolerance = options.gradient_tolerance;
  solver_options.parameter_tolerance = options.parameter_tolerance;
  solver_options.max_pcg_iterations = options.max_pcg_iterations;
  solver_options.pcg_relative_tolerance = options.pcg_relative_tolerance;
  // Position priors hold the gauge softly: the similarity of the whole model is a global mode
  // of small curvature that block-Jacobi PCG resolves slowly, and truncated steps then stall
  // along it (a 20-image GPS flight: 100 LM iterations without converging against Ceres' 27).
  // Steps solved to the residual tolerance converge as Ceres' exact ones do (28). Ground
  // control points (point priors) hold it the same way.
  solver_options.pcg_eta =
      adjustment.position_priors.empty() && adjustment.point_priors.empty() ? options.pcg_eta : 0.0;
  solver_options.num_threads = options.num_threads;
  solver_options.dense_schur =  // the GPU solver ignores it
      static_cast<int>(adjustment.pose_images.size()) <= options.cpu_dense_schur_max_images;
  solver_options.verbose = options.verbose;
  return solver_options;
}

SolverResult SolveWithLmPcg(const BundleAdjustmentOptions& options, const Adjustment& adjustment,
                            bool use_gpu, Scene* scene) {
  ProblemIndex index;
  cuda::BaProblem problem = ToBaProblem(adjustment, *scene, &index);
  const cuda::BaSolverOptions solver_options = MakeBaSolverOptions(options, adjustment);
  const cuda::BaSolverSummary solved = use_gpu ? SolveBaProblemGpu(solver_options, &problem)
                                               : SolveBaProblemCpu(solver_options, &problem);

  for (size_t i = 0; i < index.camera_ids.size(); ++i) {
    std::vector<double>& params = scene->cameras[index.camera_ids[i]].params;
    for (size_t k = 0; k < params.size(); ++k) {
      params[k] = problem.camera_params[i * cuda::kBaMaxCameraParams + k];
    }
  }
  for (size_t i = 0; i < index.image_ids.size(); ++i) {
    if (problem.pose_constant_mask[i] == cuda::kBaConstantPose) continue;
    const double* pose = &problem.poses[i * cuda::kBaPoseStride];
    Rigid3d& cam_from_world = scene->images[index.image_ids[i]].cam_from_world;
    cam_from_world.rotation = Eigen::Quaterniond(pose[3], pose[0], pose[1], pose[2]).normalized();
    cam_from_world.translation = Eigen::Vector3d(pose[4], pose[5], pose[6]);
  }
  for (size_t i = 0; i < index.point_ids.size(); ++i) {
    if (problem.point_constant[i] != 0) continue;
    scene->points.at(index.point_ids[i]).position =
        Eigen::Vector3d(problem.points[3 * i], problem.points[3 * i + 1], problem.points[3 * i + 2]);
  }
  SolverResult result;
  result.success = solved.success;
  result.num_iterations = solved.num_iterations;
  result.initial_cost = solved.initial_cost;
  result.final_cost = solved.final_cost;
  result.message = solved.message;
  result.solver = use_gpu                     ? "lm-pcg-gpu"
                  : solver_options.dense_schur ? "lm-dense-schur-cpu"
                                               : "lm-pcg-cpu";
  return result;
}

}  // namespace proj::internal
