// A model seen through undistorted cameras: every camera replaced by its PINHOLE camera
// (undistorted_camera.h), every keypoint moved to where its ray meets the undistorted image.
// Poses, points and tracks are unchanged, so the model's points reproject onto the moved
// keypoints as well as they did onto the original ones.
#pragma once

#include "sfm/scene/scene.h"
#include "sfm/undistort/undistorted_camera.h"

namespace proj {

// Camera placeholders (no size, from gaps in a model's ids) become PINHOLE placeholders.
Scene UndistortScene(const Scene& scene, const UndistortCameraOptions& options);

}  // namespace proj
