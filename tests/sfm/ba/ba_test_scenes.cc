#include "tests/sfm/ba/ba_test_scenes.h"

#include <Eigen/Geometry>
#include <algorithm>
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

Scene MakeAerialGridScene(int num_images, int num_points, double noise_px, uint64_t seed) {
  constexpr int kWidth = 1000, kHeight = 800;
  constexpr double kHeightM = 3;  // above the ground, in grid spacings
  const double focal = 0.5 * kWidth / std::tan(M_PI / 6);  // 60 degree horizontal field of view
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(num_images))));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(-1, 1);
  Scene scene;
  for (int c = 0; c < (num_images + 9) / 10; ++c) {
    Camera camera = Camera::FromFocal(CameraModelId::kSimpleRadial, kWidth, kHeight, focal);
    camera.params[3] = -0.05;
    scene.cameras.push_back(camera);
  }
  // World: x east, y down, z north; cameras look down (+y) with a few degrees of tilt.
  Eigen::Matrix3d down;
  down.row(0) = Eigen::Vector3d(1, 0, 0);
  down.row(1) = Eigen::Vector3d(0, 0, -1);
  down.row(2) = Eigen::Vector3d(0, 1, 0);
  for (int i = 0; i < num_images; ++i) {
    SceneImage image;
    image.name = "aerial_" + std::to_string(i);
    image.camera_id = i / 10;
    image.registered = true;
    const Eigen::Vector3d center(i % side, -kHeightM + 0.1 * unit(rng), i / side);
    const Eigen::Vector3d tilt(unit(rng), unit(rng), unit(rng));
    const Eigen::Matrix3d rotation =
        Eigen::AngleAxisd(0.15, tilt.normalized()).toRotationMatrix() * down;
    image.cam_from_world = Rigid3d(rotation, -(rotation * center));
    scene.images.push_back(image);
  }
  const int rows = (num_images + side - 1) / side;
  for (int p = 0; p < num_points; ++p) {
    const Eigen::Vector3d position((side - 1) * 0.5 * (1 + unit(rng)), 1.0 * unit(rng),
                                   (rows - 1) * 0.5 * (1 + unit(rng)));
    std::vector<TrackElement> track;
    const int x0 = static_cast<int>(std::lround(position.x()));
    const int z0 = static_cast<int>(std::lround(position.z()));
    for (int z = std::max(0, z0 - 3); z <= std::min(rows - 1, z0 + 3); ++z) {
      for (int x = std::max(0, x0 - 3); x <= std::min(side - 1, x0 + 3); ++x) {
        const int i = z * side + x;
        if (i >= num_images) continue;
        SceneImage& image = scene.images[i];
        Eigen::Vector2d uv;
        if (!scene.cameras[image.camera_id].Project(image.cam_from_world * position, &uv)) continue;
        if (uv.x() < 0 || uv.y() < 0 || uv.x() > kWidth || uv.y() > kHeight) continue;
        track.push_back({i, static_cast<int>(image.keypoints.size())});
        image.keypoints.push_back(uv);
        image.point3d_ids.push_back(kInvalidId);
      }
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

void AddPriorsForTest(const Scene& scene, double sigma_m, uint64_t seed,
                      BundleAdjustmentConfig* config) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0, sigma_m);
  for (int image_id : config->variable_image_ids) {
    PositionPrior prior;
    prior.position = scene.images[image_id].cam_from_world.Center() +
                     Eigen::Vector3d(normal(rng), normal(rng), normal(rng));
    prior.sigma = Eigen::Vector3d::Constant(sigma_m);
    config->position_priors[image_id] = prior;
  }
  for (size_t camera_id = 0; camera_id < scene.cameras.size(); ++camera_id) {
    const double focal = scene.cameras[camera_id].MeanFocal();
    config->focal_priors[static_cast<int>(camera_id)] = {1.01 * focal, 0.02 * focal};
  }
}

void AddPointPriorsForTest(const Scene& scene, int every, double sigma_m, uint64_t seed,
                           BundleAdjustmentConfig* config) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0, sigma_m);
  int count = 0;
  for (int point_id : config->variable_point_ids) {
    if (count++ % every != 0) continue;
    config->point_priors[point_id] = PositionPrior{
        scene.points.at(point_id).position + Eigen::Vector3d(normal(rng), normal(rng), normal(rng)),
        Eigen::Vector3d::Constant(sigma_m)};
  }
  config->fix_gauge = false;
}

}  // namespace proj::testing
