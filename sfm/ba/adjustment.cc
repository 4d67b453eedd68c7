#include "sfm/ba/adjustment.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/check.h"

namespace proj::internal {
namespace {

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

}  // namespace

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
  for (const auto& [point_id, prior] : config.point_priors) {
    PROJ_REQUIRE(prior.sigma.minCoeff() > 0 && prior.position.allFinite(),
                 "BundleAdjustmentConfig.point_priors: point " << point_id
                     << " has a prior with a non-positive sigma or a non-finite position");
  }
  check_points(config.variable_point_ids, "variable_point_ids");
  check_points(config.constant_point_ids, "constant_point_ids");
  for (int id : config.variable_point_ids) {
    PROJ_REQUIRE(config.constant_point_ids.count(id) == 0,
                 "BundleAdjustmentConfig: point " << id << " is both variable and constant");
  }
}

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
      const auto prior = config.point_priors.find(point_id);
      if (prior != config.point_priors.end()) adjustment.point_priors.insert(*prior);
    }
  }
  summary->num_point_priors = static_cast<int>(adjustment.point_priors.size());
  return adjustment;
}

}  // namespace proj::internal
