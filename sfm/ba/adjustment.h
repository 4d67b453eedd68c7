// What one bundle adjustment adjusts (sfm/ba/bundle_adjuster.h), decided once from the options,
// config and scene for every solver: the observations, the gauge, the constant parameters and
// the priors. Internal to sfm/ba.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "sfm/ba/bundle_adjuster.h"

namespace proj::internal {

// One residual block: keypoint keypoint_index of image image_id observes point point_id.
struct Observation {
  int image_id;
  int keypoint_index;
  int point_id;
};

// Everything the solvers need beyond the scene: which observations, parameters and priors.
struct Adjustment {
  std::vector<Observation> observations;
  std::set<int> constant_pose;                       // images whose pose is held constant
  std::map<int, int> fixed_translation_coordinate;  // image id -> coordinate held constant
  std::set<int> pose_images;                         // images with a variable pose
  std::set<int> used_cameras, used_points, variable_cameras;
  std::set<int> constant_points;  // used points held constant
  std::map<int, std::vector<int>> constant_camera_params;  // camera id -> constant indices
  std::map<int, PositionPrior> position_priors;             // of images in pose_images
  std::map<int, PositionPrior> point_priors;                // of used, variable points
  std::map<int, BundleAdjustmentConfig::FocalPrior> focal_priors;  // of variable cameras
};

// What a solver reports, for the BundleAdjustmentSummary.
struct SolverResult {
  bool success = false;
  int num_iterations = 0;
  double initial_cost = 0, final_cost = 0;
  std::string message, solver;
};

// Throws InputError when the config names unknown or unregistered images, missing points,
// or invalid priors.
void ValidateConfig(const BundleAdjustmentConfig& config, const Scene& scene);

// Observations, gauge and constant parameters of an adjustment; fills the summary's counts.
Adjustment PrepareAdjustment(const BundleAdjustmentOptions& options,
                             const BundleAdjustmentConfig& config, const Scene& scene,
                             BundleAdjustmentSummary* summary);

// RMS (non-robust) reprojection error, pixels, over the observations in front of their camera;
// 0 for none, +infinity when all are behind.
double RmsError(const Scene& scene, const std::vector<Observation>& observations);

}  // namespace proj::internal
