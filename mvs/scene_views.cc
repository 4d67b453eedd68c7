#include "mvs/scene_views.h"

#include "core/check.h"

namespace proj::mvs {

PinholeCamera PinholeCameraOf(const Camera& camera) {
  PROJ_REQUIRE(camera.model == CameraModelId::kPinhole,
               "dense stereo needs undistorted PINHOLE cameras, not " << CameraModelName(camera.model)
                                                                      << " (sfm undistort makes them)");
  PROJ_REQUIRE(camera.width > 0 && camera.height > 0, "a PINHOLE camera has no image size");
  PinholeCamera pinhole;
  pinhole.width = camera.width;
  pinhole.height = camera.height;
  pinhole.fx = camera.params[0];
  pinhole.fy = camera.params[1];
  pinhole.cx = camera.params[2];
  pinhole.cy = camera.params[3];
  return pinhole;
}

ViewGeometry PinholeViewGeometry(const Scene& scene, int image_id) {
  const SceneImage& image = scene.images.at(image_id);
  PROJ_CHECK(image.registered, "image " << image_id << " is not registered");
  ViewGeometry geometry;
  geometry.camera = PinholeCameraOf(scene.cameras.at(image.camera_id));
  geometry.rotation = image.cam_from_world.rotation.normalized().toRotationMatrix();
  geometry.translation = image.cam_from_world.translation;
  return geometry;
}

ViewGeometry PinholeViewGeometry(const StrechaCamera& camera) {
  ViewGeometry geometry;
  geometry.camera = {camera.width, camera.height, camera.K(0, 0), camera.K(1, 1), camera.K(0, 2), camera.K(1, 2)};
  geometry.rotation = camera.CamFromWorldRotation();
  geometry.translation = camera.CamFromWorldTranslation();
  return geometry;
}

}  // namespace proj::mvs
