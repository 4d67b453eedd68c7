#include "sfm/ba/bundle_adjuster.h"

#include <algorithm>
#include <limits>
#include <set>
#include <utility>
#include <vector>

#include "core/check.h"
#include "core/logging.h"
#include "core/timer.h"
#include "cuda/device.h"
#include "cuda/gpu_fallback.h"
#include "sfm/ba/adjustment.h"
#include "sfm/ba/ceres_backend.h"
#include "sfm/ba/lm_pcg_packing.h"

namespace proj {
namespace {

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
  internal::ValidateConfig(config, *scene);
  const Timer timer;
  BundleAdjustmentSummary summary;

  internal::Adjustment adjustment = internal::PrepareAdjustment(options, config, *scene, &summary);
  if (adjustment.observations.empty()) {
    summary.success = true;
    summary.message = "no observations to adjust";
    summary.time_s = timer.ElapsedSeconds();
    return summary;
  }

  internal::SolverResult result;
  switch (ChooseSolver(options, summary.num_observations)) {
    case BundleAdjustmentOptions::Solver::kCpu:
      result = internal::SolveWithLmPcg(options, adjustment, /*use_gpu=*/false, scene);
      break;
    case BundleAdjustmentOptions::Solver::kGpu:
      // The scene changes only after a solve succeeds, so a failed one is redone from it by the
      // same solver on the CPU.
      result = GpuBundleAdjustmentFallback().Run(
          [&] { return internal::SolveWithLmPcg(options, adjustment, /*use_gpu=*/true, scene); },
          [&] { return internal::SolveWithLmPcg(options, adjustment, /*use_gpu=*/false, scene); });
      break;
    default:
      result = internal::SolveWithCeres(options, adjustment, summary.num_variable_points, scene);
      break;
  }
  summary.success = result.success;
  summary.num_iterations = result.num_iterations;
  summary.initial_cost = result.initial_cost;
  summary.final_cost = result.final_cost;
  summary.message = result.message;
  summary.solver = result.solver;
  summary.final_rms_px = internal::RmsError(*scene, adjustment.observations);

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
  internal::ValidateConfig(config, scene);
  BundleAdjustmentSummary counts;
  const internal::Adjustment adjustment = internal::PrepareAdjustment(options, config, scene, &counts);
  internal::ProblemIndex index;
  if (solver_options != nullptr) *solver_options = internal::MakeBaSolverOptions(options, adjustment);
  return internal::ToBaProblem(adjustment, scene, &index);
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
