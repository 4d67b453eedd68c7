#include "tests/sfm/ba/synthetic_scene.h"

#include <cmath>
#include <random>

#include "core/check.h"

namespace proj::testing {

Rigid3d LookAt(const Eigen::Vector3d& center, const Eigen::Vector3d& target) {
  const Eigen::Vector3d z = (target - center).normalized();
  const Eigen::Vector3d x = Eigen::Vector3d(0, 1, 0).cross(z).normalized();
  const Eigen::Vector3d y = z.cross(x);
  Eigen::Matrix3d rotation;
  rotation.row(0) = x;
  rotation.row(1) = y;
  rotation.row(2) = z;
  return Rigid3d(rotation, -(rotation * center));
}

Scene MakeSyntheticScene(const SyntheticSceneOptions& options) {
  std::mt19937_64 rng(options.seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  Scene scene;
  for (const CameraModelId model : options.camera_models) {
    Camera camera = Camera::FromFocal(model, options.width, options.height, options.focal_px);
    const auto extra = camera.ExtraIndices();
    if (!extra.empty()) camera.params[extra[0]] = -0.08;
    if (extra.size() > 1) camera.params[extra[1]] = 0.02;
    // A slightly off-centre principal point, so tests notice swapped parameters.
    const auto pp = camera.PrincipalPointIndices();
    camera.params[pp[0]] += 7;
    camera.params[pp[1]] -= 5;
    scene.cameras.push_back(camera);
  }
  for (int i = 0; i < options.num_images; ++i) {
    SceneImage image;
    image.name = "image_" + std::to_string(i) + ".jpg";
    image.camera_id = i % static_cast<int>(options.camera_models.size());
    image.registered = true;
    // Arc of 120 degrees around the y axis, slightly varying height.
    const double angle = (i / std::max(1.0, options.num_images - 1.0) - 0.5) * 2.0 * M_PI / 3.0;
    const Eigen::Vector3d center(options.camera_distance_m * std::sin(angle), 0.5 * unit(rng),
                                 -options.camera_distance_m * std::cos(angle));
    image.cam_from_world = LookAt(center, Eigen::Vector3d(0.1 * unit(rng), 0.1 * unit(rng), 0));
    scene.images.push_back(image);
  }
  for (int p = 0; p < options.num_points; ++p) {
    const Eigen::Vector3d position(2 * unit(rng), 1.5 * unit(rng), 1.5 * unit(rng));
    std::vector<TrackElement> track;
    for (int i = 0; i < options.num_images; ++i) {
      SceneImage& image = scene.images[i];
      Eigen::Vector2d uv;
      if (!scene.cameras[image.camera_id].Project(image.cam_from_world * position, &uv)) continue;
      if (uv.x() < 0 || uv.y() < 0 || uv.x() > options.width || uv.y() > options.height) continue;
      track.push_back({i, static_cast<int>(image.keypoints.size())});
      image.keypoints.push_back(uv);
      image.point3d_ids.push_back(kInvalidId);
    }
    if (track.size() < 2) continue;
    scene.AddPoint(position, track);
  }
  return scene;
}

TrackElement AddKeypointAt(Scene* scene, int image_id, const Eigen::Vector3d& x) {
  SceneImage& image = scene->images[image_id];
  Eigen::Vector2d uv;
  PROJ_CHECK(scene->cameras[image.camera_id].Project(image.cam_from_world * x, &uv),
             "AddKeypointAt: the point is behind camera " << image_id);
  image.keypoints.push_back(uv);
  image.point3d_ids.push_back(kInvalidId);
  return {image_id, static_cast<int>(image.keypoints.size()) - 1};
}

}  // namespace proj::testing
