#include "sfm/mapper/scene_geometry.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "tests/sfm/ba/synthetic_scene.h"

namespace proj {
namespace {

Scene ExactScene() {
  testing::SyntheticSceneOptions options;
  options.num_images = 8;
  options.num_points = 120;
  return testing::MakeSyntheticScene(options);
}

// A point with the given observations, at `position`.
int AddPoint(Scene* scene, const Eigen::Vector3d& position, const std::vector<TrackElement>& track) {
  return scene->AddPoint(position, track);
}

TrackElement NewKeypoint(Scene* scene, int image_id, const Eigen::Vector3d& x) {
  return testing::AddKeypointAt(scene, image_id, x);
}

TEST(FilterPoints, ExactPointsStay) {
  Scene scene = ExactScene();
  const size_t points = scene.points.size();
  std::vector<int> deleted;
  EXPECT_EQ(FilterPoints(&scene, 1.0, 1.5, nullptr, &deleted), 0);
  EXPECT_EQ(scene.points.size(), points);
  EXPECT_TRUE(deleted.empty());
}

TEST(FilterPoints, RemovesBadObservationsThenPointsLeftWithOneOrANarrowAngle) {
  Scene scene = ExactScene();
  // A point seen by three images, one of them 30 px off: only that observation goes.
  auto [first_id, first] = *scene.points.begin();
  ASSERT_GE(first.track.size(), 3u);
  const TrackElement bad = first.track[1];
  scene.images[bad.image_id].keypoints[bad.keypoint_index] += Eigen::Vector2d(30, 0);
  // A point of two observations, one bad: the point goes.
  const Eigen::Vector3d x = first.position + Eigen::Vector3d(0.1, 0.1, 0);
  TrackElement a = NewKeypoint(&scene, 0, x), b = NewKeypoint(&scene, 4, x);
  scene.images[4].keypoints[b.keypoint_index] += Eigen::Vector2d(0, 10);
  const int two_view = AddPoint(&scene, x, {a, b});
  // A point seen from two neighbouring images at a narrow angle (far away): it goes whole.
  const Eigen::Vector3d far = scene.images[0].cam_from_world.Inverse() * Eigen::Vector3d(0, 0, 2000);
  const int narrow = AddPoint(&scene, far, {NewKeypoint(&scene, 0, far), NewKeypoint(&scene, 1, far)});
  ASSERT_LT(MaxTriangulationAngleDeg(scene, scene.points.at(narrow)), 1.5);

  const size_t points = scene.points.size();
  std::vector<int> deleted;
  EXPECT_EQ(FilterPoints(&scene, 4.0, 1.5, nullptr, &deleted), 1 + 1 + 2);
  std::sort(deleted.begin(), deleted.end());
  EXPECT_EQ(deleted, (std::vector<int>{two_view, narrow}));
  EXPECT_EQ(scene.points.size(), points - 2);
  EXPECT_EQ(scene.points.at(first_id).track.size(), first.track.size() - 1);
  EXPECT_EQ(scene.images[bad.image_id].point3d_ids[bad.keypoint_index], kInvalidId);
  EXPECT_EQ(scene.images[a.image_id].point3d_ids[a.keypoint_index], kInvalidId);
}

TEST(FilterPoints, ChecksOnlyTheListedPoints) {
  Scene scene = ExactScene();
  auto it = scene.points.begin();
  const auto [id1, point1] = *it++;
  const auto [id2, point2] = *it;
  for (const Point3D* point : {&point1, &point2}) {
    const TrackElement e = point->track.front();
    scene.images[e.image_id].keypoints[e.keypoint_index] += Eigen::Vector2d(30, 0);
  }
  const std::vector<int> listed = {id2};
  EXPECT_EQ(FilterPoints(&scene, 4.0, 1.5, &listed), 1);
  EXPECT_EQ(scene.points.at(id1).track.size(), point1.track.size());
  EXPECT_EQ(scene.points.at(id2).track.size(), point2.track.size() - 1);
}

}  // namespace
}  // namespace proj
