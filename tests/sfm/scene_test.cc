#include "sfm/scene/scene.h"

#include <gtest/gtest.h>

namespace proj {
namespace {

Scene ThreeImages() {
  Scene scene;
  scene.cameras.push_back(Camera::FromFocal(CameraModelId::kPinhole, 100, 100, 100));
  scene.images.resize(3);
  for (auto& image : scene.images) {
    image.camera_id = 0;
    image.keypoints.assign(4, Eigen::Vector2d::Zero());
    image.point3d_ids.assign(4, kInvalidId);
  }
  return scene;
}

TEST(Scene, AddAndDeleteKeepLinksConsistent) {
  Scene scene = ThreeImages();
  const int id = scene.AddPoint(Eigen::Vector3d(1, 2, 3), {{0, 1}, {1, 2}, {2, 3}});
  EXPECT_EQ(scene.images[1].point3d_ids[2], id);
  scene.DeleteObservation(2, 3);
  EXPECT_EQ(scene.points.at(id).track.size(), 2u);
  EXPECT_EQ(scene.images[2].point3d_ids[3], kInvalidId);
  scene.DeleteObservation(1, 2);  // one observation left: the point goes
  EXPECT_EQ(scene.points.count(id), 0u);
  EXPECT_EQ(scene.images[0].point3d_ids[1], kInvalidId);
}

TEST(Scene, PointIdsAreNeverReused) {
  Scene scene = ThreeImages();
  const int a = scene.AddPoint(Eigen::Vector3d::Zero(), {{0, 0}, {1, 0}});
  scene.DeletePoint(a);
  const int b = scene.AddPoint(Eigen::Vector3d::Zero(), {{0, 0}, {1, 0}});
  EXPECT_NE(a, b);
}

}  // namespace
}  // namespace proj
