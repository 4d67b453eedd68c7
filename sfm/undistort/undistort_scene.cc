#include "sfm/undistort/undistort_scene.h"

namespace proj {

Scene UndistortScene(const Scene& scene, const UndistortCameraOptions& options) {
  Scene undistorted = scene;
  for (Camera& camera : undistorted.cameras) {
    if (camera.width > 0 && camera.height > 0) {
      camera = UndistortCamera(camera, options);
    } else {
      camera.model = CameraModelId::kPinhole;
      camera.params.assign(PinholeModel::kNumParams, 0);
    }
  }
  for (SceneImage& image : undistorted.images) {
    if (image.camera_id == kInvalidId) continue;
    const Camera& camera = scene.cameras[image.camera_id];
    const Camera& pinhole = undistorted.cameras[image.camera_id];
    for (Eigen::Vector2d& keypoint : image.keypoints) keypoint = UndistortPixel(camera, pinhole, keypoint);
  }
  return undistorted;
}

}  // namespace proj
