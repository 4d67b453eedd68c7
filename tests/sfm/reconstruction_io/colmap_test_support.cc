#include "tests/sfm/reconstruction_io/colmap_test_support.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/check.h"

namespace proj::testing {

std::string ReadText(const std::string& path) {
  std::ifstream file(path);
  std::stringstream buffer;
  buffer << file.rdbuf();
  return buffer.str();
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream file(path);
  file << text;
}

void ExpectScenesEqual(const Scene& a, const Scene& b) {
  ASSERT_EQ(a.cameras.size(), b.cameras.size());
  for (size_t c = 0; c < a.cameras.size(); ++c) {
    EXPECT_EQ(a.cameras[c].model, b.cameras[c].model) << c;
    EXPECT_EQ(a.cameras[c].width, b.cameras[c].width) << c;
    EXPECT_EQ(a.cameras[c].height, b.cameras[c].height) << c;
    EXPECT_EQ(a.cameras[c].params, b.cameras[c].params) << c;
  }
  ASSERT_EQ(a.images.size(), b.images.size());
  for (size_t i = 0; i < a.images.size(); ++i) {
    const SceneImage& x = a.images[i];
    const SceneImage& y = b.images[i];
    ASSERT_EQ(x.registered, y.registered) << i;
    if (!x.registered) continue;
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.camera_id, y.camera_id);
    EXPECT_LT((x.cam_from_world.rotation.coeffs() - y.cam_from_world.rotation.coeffs()).norm(),
              1e-15);
    EXPECT_EQ(x.cam_from_world.translation, y.cam_from_world.translation);
    EXPECT_EQ(x.keypoints, y.keypoints);
    EXPECT_EQ(x.point3d_ids, y.point3d_ids);
  }
  ASSERT_EQ(a.points.size(), b.points.size());
  for (const auto& [id, p] : a.points) {
    ASSERT_EQ(b.points.count(id), 1u) << id;
    const Point3D& q = b.points.at(id);
    EXPECT_EQ(p.position, q.position) << id;
    EXPECT_EQ(p.color, q.color) << id;
    EXPECT_EQ(p.mean_error_px, q.mean_error_px) << id;
    ASSERT_EQ(p.track.size(), q.track.size()) << id;
    for (size_t k = 0; k < p.track.size(); ++k) {
      EXPECT_EQ(p.track[k].image_id, q.track[k].image_id);
      EXPECT_EQ(p.track[k].keypoint_index, q.track[k].keypoint_index);
    }
  }
}

void ExpectInputError(const std::function<void()>& read, const std::vector<std::string>& fragments) {
  try {
    read();
    ADD_FAILURE() << "no InputError (expected one mentioning '" << fragments.front() << "')";
  } catch (const InputError& error) {
    for (const auto& fragment : fragments) {
      EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos)
          << "'" << error.what() << "' lacks '" << fragment << "'";
    }
  }
}

Scene MakeSmallScene() {
  Scene scene;
  Camera pinhole;
  pinhole.model = CameraModelId::kPinhole;
  pinhole.width = 640;
  pinhole.height = 480;
  pinhole.params = {500, 510, 320, 240};
  Camera radial;
  radial.model = CameraModelId::kSimpleRadial;
  radial.width = 800;
  radial.height = 600;
  radial.params = {700, 400, 300, -0.125};
  scene.cameras = {pinhole, radial};
  scene.images.resize(3);
  SceneImage& a = scene.images[0];
  a.name = "a.jpg";
  a.camera_id = 0;
  a.registered = true;
  a.cam_from_world = Rigid3d(Eigen::Quaterniond::Identity(), Eigen::Vector3d(0.5, -1, 2));
  a.keypoints = {{10.5, 20.25}, {30, 40}, {50.5, 60.5}};
  SceneImage& b = scene.images[1];
  b.name = "b.jpg";
  b.camera_id = 0;
  b.keypoints = {{1, 1}};
  SceneImage& c = scene.images[2];
  c.name = "c.jpg";
  c.camera_id = 1;
  c.registered = true;
  c.cam_from_world = Rigid3d(Eigen::Quaterniond(0.5, 0.5, 0.5, 0.5), Eigen::Vector3d(1, 2, 3));
  c.keypoints = {{1.5, 2.5}, {3.5, 4.5}, {7, 8}};
  for (auto& image : scene.images) image.point3d_ids.assign(image.keypoints.size(), kInvalidId);
  const int p0 = scene.AddPoint({1, 2, 3}, {{0, 0}, {2, 0}});
  scene.DeletePoint(scene.AddPoint({9, 9, 9}, {}));
  const int p2 = scene.AddPoint({-1.5, 0, 4.75}, {{0, 2}, {1, 0}, {2, 1}});
  scene.points[p0].color = {255, 128, 0};
  scene.points[p0].mean_error_px = 0.25;
  scene.points[p2].color = {1, 2, 3};
  scene.points[p2].mean_error_px = 0.5;
  return scene;
}


}  // namespace proj::testing
