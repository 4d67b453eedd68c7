#include "sfm/mapper/local_adjustment.h"

#include <gtest/gtest.h>

#include "tests/sfm/ba/synthetic_scene.h"

namespace proj {
namespace {

// Every point is seen by every image: the local configuration of image 0 holds all others.
Scene WideScene() {
  testing::SyntheticSceneOptions options;
  options.num_images = 16;
  options.num_points = 150;
  options.camera_distance_m = 20;  // far: every camera sees the whole box
  return testing::MakeSyntheticScene(options);
}

int ObservationsIn(const Scene& scene, const BundleAdjustmentConfig& config, int point_id) {
  int count = 0;
  for (const TrackElement& element : scene.points.at(point_id).track) {
    count += config.variable_image_ids.count(element.image_id) ||
             config.constant_pose_image_ids.count(element.image_id);
  }
  return count;
}

TEST(LimitConstantPoseImagesTest, KeepsTheImagesSharingMostPoints) {
  Scene scene = WideScene();
  // Image 15 loses most of its observations: it must be among the dropped ones.
  int removed = 0;
  for (size_t k = 0; k < scene.images[15].point3d_ids.size() && removed < 100; ++k) {
    const int point_id = scene.images[15].point3d_ids[k];
    if (point_id == kInvalidId) continue;
    scene.DeleteObservation(15, static_cast<int>(k));
    ++removed;
  }
  BundleAdjustmentConfig config = ConfigForLocal(scene, 0, 3);
  ASSERT_GT(config.constant_pose_image_ids.size(), 5u);
  const auto variable_points = config.variable_point_ids;
  LimitConstantPoseImages(scene, 5, &config);
  EXPECT_EQ(config.constant_pose_image_ids.size(), 5u);
  EXPECT_EQ(config.constant_pose_image_ids.count(15), 0u);
  for (int image_id : config.constant_pose_image_ids) {
    EXPECT_EQ(config.variable_image_ids.count(image_id), 0u);
  }
  // Every point seen by two kept images stays; none with fewer remains.
  for (int point_id : variable_points) {
    EXPECT_EQ(config.variable_point_ids.count(point_id) == 1,
              ObservationsIn(scene, config, point_id) >= 2)
        << "point " << point_id;
  }
  EXPECT_FALSE(config.variable_point_ids.empty());
}

TEST(LimitConstantPoseImagesTest, SmallConfigsAreUnchanged) {
  const Scene scene = WideScene();
  BundleAdjustmentConfig config = ConfigForLocal(scene, 0, 3);
  const BundleAdjustmentConfig before = config;
  LimitConstantPoseImages(scene, static_cast<int>(config.constant_pose_image_ids.size()), &config);
  EXPECT_EQ(config.constant_pose_image_ids, before.constant_pose_image_ids);
  EXPECT_EQ(config.variable_point_ids, before.variable_point_ids);
}

}  // namespace
}  // namespace proj
