// A synthetic, noise-free scene for bundle adjustment and reconstruction I/O tests: points in a
// box around the origin seen by cameras on an arc looking at it, with exact keypoints.
#pragma once

#include <cstdint>
#include <vector>

#include "sfm/scene/scene.h"

namespace proj::testing {

struct SyntheticSceneOptions {
  int num_images = 10;
  int num_points = 200;
  // Camera i uses camera_models[i % size] (one Camera per model, ids in this order).
  std::vector<CameraModelId> camera_models = {CameraModelId::kSimpleRadial, CameraModelId::kRadial,
                                              CameraModelId::kPinhole};
  int width = 1000;
  int height = 800;
  double focal_px = 900;
  double camera_distance_m = 8;
  uint64_t seed = 42;
};

// All images registered; every point visible in at least two images (those not are dropped).
// Keypoints are the exact projections, in track order of creation.
Scene MakeSyntheticScene(const SyntheticSceneOptions& options);

// A keypoint appended to image `image_id` at the exact projection of `x`, observing no point
// (the projection must land in front of the camera).
TrackElement AddKeypointAt(Scene* scene, int image_id, const Eigen::Vector3d& x);

// cam_from_world looking from `center` at `target` (x right, y down, z forward).
Rigid3d LookAt(const Eigen::Vector3d& center, const Eigen::Vector3d& target);

}  // namespace proj::testing
