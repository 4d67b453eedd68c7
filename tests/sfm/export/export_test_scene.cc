#include "tests/sfm/export/export_test_scene.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>

#include "io/image.h"
#include "io/image_encode.h"

namespace proj::testing {
namespace {

// cam_from_world of a camera at `center` looking at the origin, y down roughly along -z.
Rigid3d LookAtOrigin(const Eigen::Vector3d& center) {
  const Eigen::Vector3d forward = -center.normalized();
  const Eigen::Vector3d right = forward.cross(Eigen::Vector3d::UnitZ()).normalized();
  const Eigen::Vector3d down = forward.cross(right);
  Eigen::Matrix3d cam_from_world;
  cam_from_world.row(0) = right.transpose();
  cam_from_world.row(1) = down.transpose();
  cam_from_world.row(2) = forward.transpose();
  return Rigid3d(cam_from_world, -(cam_from_world * center));
}

Image DrawDots(const Camera& camera, const std::vector<Eigen::Vector2d>& dots) {
  std::vector<float> intensity(static_cast<size_t>(camera.width) * camera.height, 0.f);
  for (const Eigen::Vector2d& dot : dots) {
    const int x0 = std::max(0, static_cast<int>(dot.x()) - 5), x1 = std::min(camera.width - 1, static_cast<int>(dot.x()) + 5);
    const int y0 = std::max(0, static_cast<int>(dot.y()) - 5), y1 = std::min(camera.height - 1, static_cast<int>(dot.y()) + 5);
    for (int y = y0; y <= y1; ++y) {
      for (int x = x0; x <= x1; ++x) {
        const Eigen::Vector2d d = Eigen::Vector2d(x + 0.5, y + 0.5) - dot;  // pixel centres at +0.5
        intensity[y * camera.width + x] += 255.f * std::exp(-d.squaredNorm() / (2 * kDotSigmaPx * kDotSigmaPx));
      }
    }
  }
  Image image;
  image.width = camera.width;
  image.height = camera.height;
  image.channels = 3;
  image.data.resize(intensity.size() * 3);
  for (size_t i = 0; i < intensity.size(); ++i) {
    const auto value = static_cast<uint8_t>(std::lround(std::min(255.f, intensity[i])));
    std::fill_n(&image.data[i * 3], 3, value);
  }
  return image;
}

}  // namespace

ExportTestScene MakeExportTestScene(const std::string& dir, bool two_cameras) {
  ExportTestScene out;
  Scene& scene = out.scene;
  scene.cameras.push_back(Camera::FromFocal(CameraModelId::kSimpleRadial, 160, 120, 120));
  scene.cameras[0].params[3] = -0.15;
  Camera radial = Camera::FromFocal(CameraModelId::kRadial, 200, 150, 170);
  radial.params[1] += 3;  // principal point off centre
  radial.params[2] -= 2;
  radial.params[3] = 0.12;
  radial.params[4] = -0.05;
  scene.cameras.push_back(radial);

  const int num_images = 8;
  for (int i = 0; i < num_images; ++i) {
    const double angle = 2 * M_PI * i / num_images;
    SceneImage image;
    image.name = (i == 3 ? "sub/view_" : "view_") + std::to_string(i) + ".png";
    image.camera_id = two_cameras ? i % 2 : 0;
    image.registered = true;
    image.cam_from_world = LookAtOrigin(Eigen::Vector3d(3.2 * std::cos(angle), 3.2 * std::sin(angle), 0.8 + 0.2 * i));
    scene.images.push_back(image);
  }
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> coordinate(-1.2, 1.2);
  for (int p = 0; p < 40; ++p) {
    const Eigen::Vector3d position(coordinate(rng), coordinate(rng), coordinate(rng));
    std::vector<TrackElement> track;
    for (int i = 0; i < num_images; ++i) {
      SceneImage& image = scene.images[i];
      Eigen::Vector2d uv;
      const Camera& camera = scene.cameras[image.camera_id];
      if (!camera.Project(image.cam_from_world * position, &uv)) continue;
      if (uv.x() < 0 || uv.y() < 0 || uv.x() > camera.width || uv.y() > camera.height) continue;
      track.push_back({i, static_cast<int>(image.keypoints.size())});
      image.keypoints.push_back(uv);
      image.point3d_ids.push_back(kInvalidId);
    }
    if (track.size() < 2) continue;  // a point needs two views; its lone keypoint stays unobserved
    const int id = scene.AddPoint(position, track);
    scene.points[id].color = {static_cast<uint8_t>(p * 6), 100, 200};
  }

  out.images_dir = dir + "/images";
  for (const SceneImage& image : scene.images) {
    const std::filesystem::path path = std::filesystem::path(out.images_dir) / image.name;
    std::filesystem::create_directories(path.parent_path());
    WritePng(path.string(), DrawDots(scene.cameras[image.camera_id], image.keypoints));
  }
  return out;
}

}  // namespace proj::testing
