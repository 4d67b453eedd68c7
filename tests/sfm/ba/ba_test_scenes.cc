#include "tests/sfm/ba/ba_test_scenes.h"

#include <Eigen/Geometry>
#include <cmath>
#include <random>

namespace proj::testing {
namespace {

// Pose and point perturbations are scaled by `scale` (1: 0.01 rad, 0.05 m).
void AddNoiseAndPerturb(double noise_px, double scale, std::mt19937_64* rng, Scene* scene) {
  std::normal_distribution<double> normal(0, 1);
  for (SceneImage& image : scene->images) {
    for (Eigen::Vector2d& keypoint : image.keypoints) {
      keypoint += noise_px * Eigen::Vector2d(normal(*rng), normal(*rng));
    }
    Rigid3d& pose = image.cam_from_world;
    const Eigen::Vector3d axis(normal(*rng), normal(*rng), normal(*rng));
    pose.rotation = Eigen::Quaterniond(Eigen::AngleAxisd(0.01 * scale, axis.normalized())) * pose.rotation;
    pose.translation += 0.05 * scale * Eigen::Vector3d(normal(*rng), normal(*rng), normal(*rng));
  }
  for (auto& [id, point] : scene->points) {
    point.position += 0.05 * scale * Eigen::Vector3d(normal(*rng), normal(*rng), normal(*rng));
  }
  for (Camera& camera : scene->cameras) {
    camera.SetFocal(camera.MeanFocal() * 1.02);
    for (int i : camera.ExtraIndices()) camera.params[i] += 0.01;
  }
}

}  // namespace

Scene MakeNoisySyntheticScene(const SyntheticSceneOptions& options, double noise_px,
                              uint64_t seed) {
  Scene scene = MakeSyntheticScene(options);
  std::mt19937_64 rng(seed);
  AddNoiseAndPerturb(noise_px, 1.0, &rng, &scene);
  return scene;
}

Scene MakeRingScene(int num_images, int num_points, double noise_px, uint64_t seed) {
  constexpr int kWidth = 1000, kHeight = 800;
  constexpr double kRingRadius = 10, kWallRadius = 10.6, kWallHalfHeight = 0.25;
  const double focal = 0.5 * kWidth / std::tan(M_PI / 6);  // 60 degree horizontal field of view
  std::mt19937_64 rng(seed);
  Scene scene;
  const int num_cameras = (num_images + 9) / 10;
  for (int c = 0; c < num_cameras; ++c) {
    Camera camera = Camera::FromFocal(CameraModelId::kSimpleRadial, kWidth, kHeight, focal);
    camera.params[3] = -0.05;
    scene.cameras.push_back(camera);
  }
  std::uniform_real_distribution<double> unit(-1, 1);
  for (int i = 0; i < num_images; ++i) {
    const double angle = 2 * M_PI * i / num_images;
    const Eigen::Vector3d center(kRingRadius * std::cos(angle), 0.1 * unit(rng),
                                 kRingRadius * std::sin(angle));
    const Eigen::Vector3d target(2 * kRingRadius * std::cos(angle + 0.02 * unit(rng)),
                                 0.1 * unit(rng), 2 * kRingRadius * std::sin(angle));
    SceneImage image;
    image.name = "ring_" + std::to_string(i);
    image.camera_id = i / 10;
    image.registered = true;
    image.cam_from_world = LookAt(center, target);
    scene.images.push_back(image);
  }
  // The images whose centre angle is within this of a point's angle may see it.
  const double window = std::atan2(0.5 * kWidth / focal * (kWallRadius - kRingRadius) * 2,
                                   kRingRadius) + 2 * M_PI / num_images;
  for (int p = 0; p < num_points; ++p) {
    const double phi = M_PI * unit(rng);
    const Eigen::Vector3d position(kWallRadius * std::cos(phi), kWallHalfHeight * unit(rng),
                                   kWallRadius * std::sin(phi));
    std::vector<TrackElement> track;
    const int center_index = static_cast<int>(std::lround(phi / (2 * M_PI) * num_images));
    const int reach = static_cast<int>(std::ceil(window / (2 * M_PI) * num_images)) + 1;
    for (int k = center_index - reach; k <= center_index + reach; ++k) {
      const int i = ((k % num_images) + num_images) % num_images;
      SceneImage& image = scene.images[i];
      Eigen::Vector2d uv;
      if (!scene.cameras[image.camera_id].Project(image.cam_from_world * position, &uv)) continue;
      if (uv.x() < 0 || uv.y() < 0 || uv.x() > kWidth || uv.y() > kHeight) continue;
      track.push_back({i, static_cast<int>(image.keypoints.size())});
      image.keypoints.push_back(uv);
      image.point3d_ids.push_back(kInvalidId);
    }
    if (track.size() < 2) {
      for (const TrackElement& element : track) {
        scene.images[element.image_id].keypoints.pop_back();
        scene.images[element.image_id].point3d_ids.pop_back();
      }
      continue;
    }
    scene.AddPoint(position, track);
  }
  AddNoiseAndPerturb(noise_px, 0.1, &rng, &scene);
  return scene;
}

}  // namespace proj::testing
