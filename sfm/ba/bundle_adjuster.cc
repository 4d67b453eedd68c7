#include "sfm/ba/bundle_adjuster.h"

#include <ceres/ceres.h>

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <thread>
#include <vector>

#include "core/check.h"
#include "core/logging.h"
#include "core/timer.h"
#include "cuda/ba/ba_problem.h"
#include "cuda/ba/bundle_adjuster_gpu.h"
#include "cuda/device.h"
#include "cuda/gpu_fallback.h"
#include "sfm/ba/position_prior_cost.h"
#include "sfm/ba/reprojection_cost.h"
#include "sfm/ba/schur_pcg_cpu.h"

namespace proj {
namespace {

struct Observation {
  int image_id;
  int keypoint_index;
  int point_id;
};

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

// Squared reprojection error, or nullopt-like negative value when behind the camera.
double SquaredError(const Scene& scene, const Observation& obs) {
  const SceneImage& image = scene.images[obs.image_id];
  const Camera& camera = scene.cameras[image.camera_id];
  Eigen::Vector2d uv;
  if (!camera.Project(image.cam_from_world * scene.points.at(obs.point_id).position, &uv)) {
    return -1;
  }
  return (uv - image.keypoints[obs.keypoint_index]).squaredNorm();
}

double RmsError(const Scene& scene, const std::vector<Observation>& observations) {
  if (observations.empty()) return 0;
  double sum = 0;
  int count = 0;
  for (const auto& obs : observations) {
    const double e2 = SquaredError(scene, obs);
    if (e2 < 0) continue;
    sum += e2;
    ++count;
  }
  return count > 0 ? std::sqrt(sum / count) : std::numeric_limits<double>::infinity();
}

// Index (0..2) of the translation coordinate of `image` that changes most when the scene is
// scaled about the centre `anchor_center` (the component of R (C - anchor) of largest size).
int ScaleCoordinate(const SceneImage& image, const Eigen::Vector3d& anchor_center) {
  const Eigen::Vector3d baseline_cam =
      image.cam_from_world.rotation * (image.cam_from_world.Center() - anchor_center);
  int index = 0;
  baseline_cam.cwiseAbs().maxCoeff(&index);
  return index;
}

// Whether the priors on variable images fix the similarity gauge: three or more, not all on a
// line (the smallest two spreads of the positions are not negligible).
bool PriorsFixGauge(const BundleAdjustmentConfig& config) {
  std::vector<Eigen::Vector3d> positions;
  for (const auto& [image_id, prior] : config.position_priors) {
    if (config.variable_image_ids.count(image_id)) positions.push_back(prior.position);
  }
  if (positions.size() < 3) return false;
  Eigen::Vector3d mean = Eigen::Vector3d::Zero();
  for (const auto& p : positions) mean += p;
  mean /= static_cast<double>(positions.size());
  Eigen::Matrix3d scatter = Eigen::Matrix3d::Zero();
  for (const auto& p : positions) scatter += (p - mean) * (p - mean).transpose();
  const Eigen::Vector3d spread = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(scatter)
                                     .eigenvalues()
                                     .cwiseMax(0)
                                     .cwiseSqrt();  // ascending
  return spread[2] > 0 && spread[1] > 1e-3 * spread[2];
}

void ValidateConfig(const BundleAdjustmentConfig& config, const Scene& scene) {
  auto check_images = [&](const std::set<int>& ids, const char* field) {
    for (int id : ids) {
      PROJ_REQUIRE(id >= 0 && id < static_cast<int>(scene.images.size()),
                   "BundleAdjustmentConfig." << field << " names unknown image " << id);
      PROJ_REQUIRE(scene.images[id].registered,
                   "BundleAdjustmentConfig." << field << " names unregistered image " << id);
      const int camera_id = scene.images[id].camera_id;
      PROJ_REQUIRE(camera_id >= 0 && camera_id < static_cast<int>(scene.cameras.size()),
                   "image " << id << " has invalid camera id " << camera_id);
      const Camera& camera = scene.cameras[camera_id];
      PROJ_REQUIRE(static_cast<int>(camera.params.size()) == CameraModelNumParams(camera.model),
                   "camera " << camera_id << " has " << camera.params.size()
                             << " parameters, its model " << CameraModelName(camera.model)
                             << " takes " << CameraModelNumParams(camera.model));
      PROJ_CHECK(scene.images[id].point3d_ids.size() == scene.images[id].keypoints.size(),
                 "image " << id << ": point3d_ids and keypoints differ in size");
    }
  };
  check_images(config.variable_image_ids, "variable_image_ids");
  check_images(config.constant_pose_image_ids, "constant_pose_image_ids");
  for (int id : config.variable_image_ids) {
    PROJ_REQUIRE(config.constant_pose_image_ids.count(id) == 0,
                 "BundleAdjustmentConfig: image " << id << " is both variable and constant");
  }
  auto check_points = [&](const std::set<int>& ids, const char* field) {
    for (int id : ids) {
      PROJ_REQUIRE(scene.points.count(id) == 1,
                   "BundleAdjustmentConfig." << field << " names unknown point " << id);
    }
  };
  for (const auto& [camera_id, prior] : config.focal_priors) {
    PROJ_REQUIRE(prior.sigma_px > 0 && std::isfinite(prior.focal_px),
                 "BundleAdjustmentConfig.focal_priors: camera " << camera_id
                     << " has a non-positive sigma or a non-finite focal length");
  }
  for (const auto& [image_id, prior] : config.position_priors) {
    PROJ_REQUIRE(prior.sigma.minCoeff() > 0 && prior.position.allFinite(),
                 "BundleAdjustmentConfig.position_priors: image " << image_id
                     << " has a prior with a non-positive sigma or a non-finite position");
  }
  check_points(config.variable_point_ids, "variable_point_ids");
  check_points(config.constant_point_ids, "constant_point_ids");
  for (int id : config.variable_point_ids) {
    PROJ_REQUIRE(config.constant_point_ids.count(id) == 0,
                 "BundleAdjustmentConfig: point " << id << " is both variable and constant");
  }
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

// What RunBundleAdjustment adjusts, decided once for every solver.
struct Adjustment {
  std::vector<Observation> observations;
  std::set<int> constant_pose;                       // images whose pose is held constant
  std::map<int, int> fixed_translation_coordinate;  // image id -> coordinate held constant
  std::set<int> pose_images;                         // images with a variable pose
  std::set<int> used_cameras, used_points, variable_cameras;
  std::set<int> constant_points;  // used points held constant
  std::map<int, std::vector<int>> constant_camera_params;  // camera id -> constant indices
  std::map<int, PositionPrior> position_priors;             // of images in pose_images
  std::map<int, BundleAdjustmentConfig::FocalPrior> focal_priors;  // of variable cameras
};

struct SolverResult {
  bool success = false;
  int num_iterations = 0;
  double initial_cost = 0, final_cost = 0;
  std::string message, solver;
};

// Observations, gauge and constant parameters of an adjustment; fills the summary's counts.
Adjustment PrepareAdjustment(const BundleAdjustmentOptions& options,
                             const BundleAdjustmentConfig& config, const Scene& scene,
                             BundleAdjustmentSummary* summary) {
  // Observations to adjust (those in front of their camera), and their squared errors' sum.
  // Which points are listed, by id in a vector (kListedVariable/kListedConstant), not by set
  // lookups: every keypoint of every listed image is tested.
  constexpr char kListedVariable = 1, kListedConstant = 2;
  std::vector<char> listed(scene.points.empty() ? 0 : scene.points.rbegin()->first + 1, 0);
  for (int point_id : config.variable_point_ids) {
    if (point_id >= 0 && point_id < static_cast<int>(listed.size())) listed[point_id] = kListedVariable;
  }
  for (int point_id : config.constant_point_ids) {
    if (point_id >= 0 && point_id < static_cast<int>(listed.size())) listed[point_id] = kListedConstant;
  }
  std::vector<Observation> observations;
  double squared_error_sum = 0;
  for (const std::set<int>* ids : {&config.variable_image_ids, &config.constant_pose_image_ids}) {
    for (int image_id : *ids) {
      const SceneImage& image = scene.images[image_id];
      for (size_t k = 0; k < image.point3d_ids.size(); ++k) {
        const int point_id = image.point3d_ids[k];
        if (point_id == kInvalidId || point_id >= static_cast<int>(listed.size()) || !listed[point_id]) continue;
        const Observation obs{image_id, static_cast<int>(k), point_id};
        const double squared_error = SquaredError(scene, obs);
        if (squared_error < 0) {
          ++summary->num_skipped_observations;
          continue;
        }
        observations.push_back(obs);
        squared_error_sum += squared_error;
      }
    }
  }
  // Gauge: which images get a constant pose, and which get one translation coordinate fixed.
  // Three or more constant points already fix the similarity, as do two constant poses.
  std::set<int> constant_points_used;
  for (const auto& obs : observations) {
    if (listed[obs.point_id] == kListedConstant) constant_points_used.insert(obs.point_id);
  }
  std::set<int> constant_pose = config.constant_pose_image_ids;
  std::map<int, int> fixed_translation_coordinate;  // image id -> coordinate index
  if (config.fix_gauge && !config.variable_image_ids.empty() && constant_pose.size() <= 1 &&
      constant_points_used.size() < 3 && !PriorsFixGauge(config)) {
    auto it = config.variable_image_ids.begin();
    Eigen::Vector3d anchor;
    if (constant_pose.empty()) {
      constant_pose.insert(*it);
      anchor = scene.images[*it].cam_from_world.Center();
      ++it;
    } else {
      anchor = scene.images[*constant_pose.begin()].cam_from_world.Center();
    }
    if (it != config.variable_image_ids.end()) {
      fixed_translation_coordinate[*it] = ScaleCoordinate(scene.images[*it], anchor);
    }
  }

  summary->num_observations = static_cast<int>(observations.size());
  summary->initial_rms_px =
      observations.empty() ? 0 : std::sqrt(squared_error_sum / static_cast<double>(observations.size()));

  Adjustment adjustment;
  adjustment.observations = std::move(observations);
  adjustment.constant_pose = std::move(constant_pose);
  adjustment.fixed_translation_coordinate = std::move(fixed_translation_coordinate);
  {
    // Sorted, deduplicated vectors first, then the sets from them in linear time.
    std::vector<char> image_used(scene.images.size(), 0);
    std::vector<int> used_points;
    used_points.reserve(adjustment.observations.size());
    for (const auto& obs : adjustment.observations) {
      image_used[obs.image_id] = 1;
      used_points.push_back(obs.point_id);
    }
    std::sort(used_points.begin(), used_points.end());
    used_points.erase(std::unique(used_points.begin(), used_points.end()), used_points.end());
    adjustment.used_points.insert(used_points.begin(), used_points.end());
    for (int image_id = 0; image_id < static_cast<int>(image_used.size()); ++image_id) {
      if (!image_used[image_id]) continue;
      adjustment.used_cameras.insert(scene.images[image_id].camera_id);
      if (!adjustment.constant_pose.count(image_id)) {
        adjustment.pose_images.insert(adjustment.pose_images.end(), image_id);
      }
    }
  }
  for (int camera_id : adjustment.used_cameras) {
    const Camera& camera = scene.cameras[camera_id];
    std::vector<int> constant;
    if (config.constant_camera_ids.count(camera_id)) {
      constant.resize(camera.params.size());
      std::iota(constant.begin(), constant.end(), 0);
    } else {
      if (!options.refine_focal) {
        for (int i : camera.FocalIndices()) constant.push_back(i);
      }
      const bool refine_principal_point =
          options.refine_principal_point && (options.principal_point_camera_ids.empty() ||
                                             options.principal_point_camera_ids.count(camera_id));
      if (!refine_principal_point) {
        for (int i : camera.PrincipalPointIndices()) constant.push_back(i);
      }
      if (!options.refine_extra) {
        for (int i : camera.ExtraIndices()) constant.push_back(i);
      }
    }
    if (constant.size() < camera.params.size()) adjustment.variable_cameras.insert(camera_id);
    adjustment.constant_camera_params[camera_id] = std::move(constant);
  }
  for (const auto& [image_id, prior] : config.position_priors) {
    if (adjustment.pose_images.count(image_id)) adjustment.position_priors[image_id] = prior;
  }
  summary->num_position_priors = static_cast<int>(adjustment.position_priors.size());
  for (const auto& [camera_id, prior] : config.focal_priors) {
    if (adjustment.variable_cameras.count(camera_id)) adjustment.focal_priors[camera_id] = prior;
  }
  summary->num_variable_images = static_cast<int>(adjustment.pose_images.size());
  for (int point_id : adjustment.used_points) {
    if (listed[point_id] == kListedConstant) {
      adjustment.constant_points.insert(adjustment.constant_points.end(), point_id);
    } else {
      ++summary->num_variable_points;
    }
  }

  return adjustment;
}

BundleAdjustmentOptions::Solver ChooseSolver(const BundleAdjustmentOptions& options,
                                             int num_observations) {
  using Solver = BundleAdjustmentOptions::Solver;
  switch (options.solver) {
    case Solver::kGpu:
      if (cuda::DeviceAvailable()) return Solver::kGpu;
      PROJ_LOG(kWarning, "bundle adjustment: no usable CUDA device ("
                             << cuda::DeviceDescription() << "), using the CPU solver");
      return Solver::kCpu;
    case Solver::kAuto:
      return num_observations >= options.gpu_min_observations && cuda::DeviceAvailable()
                 ? Solver::kGpu
                 : Solver::kCpu;
    default:
      return options.solver;
  }
}

// One for the process: after a GPU failure every later adjustment of the run (mapping is
// the last stage) stays on the CPU.
cuda::GpuFallback& GpuBundleAdjustmentFallback() {
  static cuda::GpuFallback fallback("bundle adjustment");
  return fallback;
}

SolverResult SolveWithCeres(const BundleAdjustmentOptions& options,
                            const Adjustment& adjustment, int num_variable_points, Scene* scene) {
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

// The scene ids of a cuda::BaProblem's cameras, images and points, in problem order.
struct ProblemIndex {
  std::vector<int> camera_ids, image_ids, point_ids;
};

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
  return problem;
}

// Our solver's options for the adjuster's options and the adjustment.
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
  // Steps solved to the residual tolerance converge as Ceres' exact ones do (28).
  solver_options.pcg_eta = adjustment.position_priors.empty() ? options.pcg_eta : 0.0;
  solver_options.num_threads = options.num_threads;
  solver_options.dense_schur =  // the GPU solver ignores it
      static_cast<int>(adjustment.pose_images.size()) <= options.cpu_dense_schur_max_images;
  solver_options.verbose = options.verbose;
  return solver_options;
}

// Our LM + Schur + PCG solver on the plain-array problem built from the scene.
SolverResult SolveWithLmPcg(const BundleAdjustmentOptions& options, const Adjustment& adjustment,
                            bool use_gpu, Scene* scene) {
  ProblemIndex index;
  cuda::BaProblem problem = ToBaProblem(adjustment, *scene, &index);
  const cuda::BaSolverOptions solver_options = MakeBaSolverOptions(options, adjustment);
  const cuda::BaSolverSummary solved = use_gpu ? cuda::SolveBaProblemGpu(solver_options, &problem)
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

}  // namespace

void BundleAdjustmentOptions::Check() const {
  PROJ_REQUIRE(loss_scale_px > 0,
               "BundleAdjustmentOptions.loss_scale_px must be > 0, got " << loss_scale_px);
  PROJ_REQUIRE(max_iterations >= 1,
               "BundleAdjustmentOptions.max_iterations must be >= 1, got " << max_iterations);
  PROJ_REQUIRE(cpu_dense_schur_max_images >= 0,
               "BundleAdjustmentOptions.cpu_dense_schur_max_images must be >= 0");
  PROJ_REQUIRE(function_tolerance >= 0, "BundleAdjustmentOptions.function_tolerance must be >= 0");
  PROJ_REQUIRE(gradient_tolerance >= 0, "BundleAdjustmentOptions.gradient_tolerance must be >= 0");
  PROJ_REQUIRE(parameter_tolerance >= 0,
               "BundleAdjustmentOptions.parameter_tolerance must be >= 0");
  PROJ_REQUIRE(num_threads >= 0,
               "BundleAdjustmentOptions.num_threads must be >= 0, got " << num_threads);
  PROJ_REQUIRE(dense_schur_max_images >= 0,
               "BundleAdjustmentOptions.dense_schur_max_images must be >= 0");
  PROJ_REQUIRE(gpu_min_observations >= 0,
               "BundleAdjustmentOptions.gpu_min_observations must be >= 0");
  PROJ_REQUIRE(max_pcg_iterations >= 1, "BundleAdjustmentOptions.max_pcg_iterations must be >= 1");
  PROJ_REQUIRE(pcg_relative_tolerance > 0 && pcg_relative_tolerance < 1,
               "BundleAdjustmentOptions.pcg_relative_tolerance must be in (0, 1)");
  PROJ_REQUIRE(pcg_eta >= 0 && pcg_eta < 1, "BundleAdjustmentOptions.pcg_eta must be in [0, 1)");
}

double PointMeanReprojectionError(const Scene& scene, int point_id) {
  const Point3D& point = scene.points.at(point_id);
  double sum = 0;
  int count = 0;
  for (const auto& element : point.track) {
    const SceneImage& image = scene.images[element.image_id];
    if (!image.registered) continue;
    Eigen::Vector2d uv;
    if (!scene.cameras[image.camera_id].Project(image.cam_from_world * point.position, &uv)) {
      continue;
    }
    sum += (uv - image.keypoints[element.keypoint_index]).norm();
    ++count;
  }
  return count > 0 ? sum / count : std::numeric_limits<double>::infinity();
}

BundleAdjustmentSummary RunBundleAdjustment(const BundleAdjustmentOptions& options,
                                            const BundleAdjustmentConfig& config, Scene* scene) {
  options.Check();
  PROJ_CHECK(scene != nullptr, "scene is null");
  ValidateConfig(config, *scene);
  const Timer timer;
  BundleAdjustmentSummary summary;

  Adjustment adjustment = PrepareAdjustment(options, config, *scene, &summary);
  if (adjustment.observations.empty()) {
    summary.success = true;
    summary.message = "no observations to adjust";
    summary.time_s = timer.ElapsedSeconds();
    return summary;
  }

  SolverResult result;
  switch (ChooseSolver(options, summary.num_observations)) {
    case BundleAdjustmentOptions::Solver::kCpu:
      result = SolveWithLmPcg(options, adjustment, /*use_gpu=*/false, scene);
      break;
    case BundleAdjustmentOptions::Solver::kGpu:
      // The scene changes only after a solve succeeds, so a failed one is redone from it by the
      // same solver on the CPU.
      result = GpuBundleAdjustmentFallback().Run(
          [&] { return SolveWithLmPcg(options, adjustment, /*use_gpu=*/true, scene); },
          [&] { return SolveWithLmPcg(options, adjustment, /*use_gpu=*/false, scene); });
      break;
    default:
      result = SolveWithCeres(options, adjustment, summary.num_variable_points, scene);
      break;
  }
  summary.success = result.success;
  summary.num_iterations = result.num_iterations;
  summary.initial_cost = result.initial_cost;
  summary.final_cost = result.final_cost;
  summary.message = result.message;
  summary.solver = result.solver;
  summary.final_rms_px = RmsError(*scene, adjustment.observations);

  if (!options.update_point_errors) {
    summary.time_s = timer.ElapsedSeconds();
    return summary;
  }
  // Points whose error may have changed: those adjusted, and those seen through a refined
  // pose or camera.
  std::set<int> affected_points = adjustment.used_points;
  for (size_t image_id = 0; image_id < scene->images.size(); ++image_id) {
    const SceneImage& image = scene->images[image_id];
    if (!image.registered) continue;
    if (!adjustment.pose_images.count(static_cast<int>(image_id)) &&
        !adjustment.variable_cameras.count(image.camera_id)) {
      continue;
    }
    for (int point_id : image.point3d_ids) {
      if (point_id != kInvalidId) affected_points.insert(point_id);
    }
  }
  for (int point_id : affected_points) {
    scene->points.at(point_id).mean_error_px = PointMeanReprojectionError(*scene, point_id);
  }
  summary.time_s = timer.ElapsedSeconds();
  return summary;
}

cuda::BaProblem MakeBaProblem(const BundleAdjustmentOptions& options,
                              const BundleAdjustmentConfig& config, const Scene& scene,
                              cuda::BaSolverOptions* solver_options) {
  options.Check();
  ValidateConfig(config, scene);
  BundleAdjustmentSummary counts;
  const Adjustment adjustment = PrepareAdjustment(options, config, scene, &counts);
  ProblemIndex index;
  if (solver_options != nullptr) *solver_options = MakeBaSolverOptions(options, adjustment);
  return ToBaProblem(adjustment, scene, &index);
}

BundleAdjustmentConfig ConfigForGlobal(const Scene& scene) {
  BundleAdjustmentConfig config;
  for (size_t i = 0; i < scene.images.size(); ++i) {
    if (scene.images[i].registered) config.variable_image_ids.insert(static_cast<int>(i));
  }
  for (const auto& [point_id, point] : scene.points) {
    int registered_observations = 0;
    for (const auto& element : point.track) {
      registered_observations += scene.images[element.image_id].registered ? 1 : 0;
    }
    if (registered_observations >= 2) config.variable_point_ids.insert(point_id);
  }
  config.fix_gauge = true;
  return config;
}

BundleAdjustmentConfig ConfigForLocal(const Scene& scene, int image_id, int max_neighbour_images) {
  PROJ_REQUIRE(image_id >= 0 && image_id < static_cast<int>(scene.images.size()) &&
                   scene.images[image_id].registered,
               "ConfigForLocal: image " << image_id << " is not a registered image");
  PROJ_REQUIRE(max_neighbour_images >= 0, "ConfigForLocal: max_neighbour_images must be >= 0");
  // Flags and counts in vectors by id, not sets: this runs before every local adjustment, on
  // tens of thousands of observations.
  const int num_images = static_cast<int>(scene.images.size());
  // Number of points each other registered image shares with image_id (each image counted
  // once per point: last_point remembers the point that counted it last).
  std::vector<int> shared(num_images, 0), last_point(num_images, kInvalidId);
  for (int point_id : scene.images[image_id].point3d_ids) {
    if (point_id == kInvalidId) continue;
    for (const auto& element : scene.points.at(point_id).track) {
      const int other = element.image_id;
      if (other == image_id || !scene.images[other].registered || last_point[other] == point_id) continue;
      last_point[other] = point_id;
      ++shared[other];
    }
  }
  std::vector<std::pair<int, int>> ranked;  // (image, count), by image id
  for (int other = 0; other < num_images; ++other) {
    if (shared[other] > 0) ranked.emplace_back(other, shared[other]);
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  if (static_cast<int>(ranked.size()) > max_neighbour_images) ranked.resize(max_neighbour_images);

  BundleAdjustmentConfig config;
  config.variable_image_ids.insert(image_id);
  for (const auto& [neighbour, count] : ranked) config.variable_image_ids.insert(neighbour);
  std::vector<char> is_variable(num_images, 0);
  std::vector<int> points;
  for (int variable_image : config.variable_image_ids) {
    is_variable[variable_image] = 1;
    for (int point_id : scene.images[variable_image].point3d_ids) {
      if (point_id != kInvalidId) points.push_back(point_id);
    }
  }
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  config.variable_point_ids.insert(points.begin(), points.end());  // sorted: linear time
  std::vector<char> is_constant(num_images, 0);
  for (int point_id : points) {
    for (const auto& element : scene.points.at(point_id).track) {
      if (scene.images[element.image_id].registered && !is_variable[element.image_id]) {
        is_constant[element.image_id] = 1;
      }
    }
  }
  for (int other = 0; other < num_images; ++other) {
    if (is_constant[other]) config.constant_pose_image_ids.insert(config.constant_pose_image_ids.end(), other);
  }
  config.fix_gauge = true;
  return config;
}

}  // namespace proj
