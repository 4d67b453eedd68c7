// Keyframes by parallax (sfm/mapper/keyframes.h) and the incremental mapper's use of them: a
// synthetic drive past a field of points, with a stop and a turn on the spot.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "sfm/mapper/incremental_mapper.h"
#include "sfm/mapper/keyframes.h"
#include "tests/sfm/mapper/mapper_test_scene.h"

namespace proj {
namespace {

constexpr double kPi = 3.14159265358979323846;

// A camera driving along +z past points 6 to 40 m ahead and 3 to 12 m to the sides, looking
// ahead turned by yaw_deg about the vertical; exact keypoints, one track per point.
struct Pose {
  double x_m, z_m, yaw_deg;
};

Scene MakeDrive(const std::vector<Pose>& poses, uint64_t seed = 7) {
  Scene scene;
  scene.cameras.push_back(Camera::FromFocal(CameraModelId::kSimpleRadial, 1000, 600, 700));
  for (size_t i = 0; i < poses.size(); ++i) {
    SceneImage image;
    image.name = "frame_" + std::to_string(1000 + i) + ".jpg";
    image.camera_id = 0;
    image.registered = true;
    const double yaw = poses[i].yaw_deg * kPi / 180;
    const Eigen::Vector3d center(poses[i].x_m, 0, poses[i].z_m);
    image.cam_from_world = testing::LookAt(center, center + Eigen::Vector3d(std::sin(yaw), 0, std::cos(yaw)));
    scene.images.push_back(image);
  }
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int p = 0; p < 3000; ++p) {
    const double side = unit(rng) < 0.5 ? -1 : 1;
    const Eigen::Vector3d position(side * (3 + 9 * unit(rng)), -2 + 5 * unit(rng), 6 + 34 * unit(rng));
    std::vector<TrackElement> track;
    for (size_t i = 0; i < scene.images.size(); ++i) {
      SceneImage& image = scene.images[i];
      Eigen::Vector2d uv;
      if (!scene.cameras[0].Project(image.cam_from_world * position, &uv)) continue;
      if (uv.x() < 0 || uv.y() < 0 || uv.x() > 1000 || uv.y() > 600) continue;
      track.push_back({static_cast<int>(i), static_cast<int>(image.keypoints.size())});
      image.keypoints.push_back(uv);
      image.point3d_ids.push_back(kInvalidId);
    }
    if (track.size() >= 2) scene.AddPoint(position, track);
  }
  return scene;
}

std::vector<int> InOrder(const Scene& scene) {
  std::vector<int> order(scene.images.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  return order;
}

// 0..5 drive 0.5 m apart, 6..9 stand where 5 is, 10..13 turn on the spot (2 deg each), then
// 14..19 drive on.
std::vector<Pose> DriveWithStopAndTurn() {
  std::vector<Pose> poses;
  for (int i = 0; i <= 5; ++i) poses.push_back({0, 0.5 * i, 0});
  for (int i = 0; i < 4; ++i) poses.push_back({0, 2.5, 0});
  for (int i = 1; i <= 4; ++i) poses.push_back({0, 2.5, 2.0 * i});
  for (int i = 1; i <= 6; ++i) poses.push_back({0.5 * i * std::sin(8 * kPi / 180), 2.5 + 0.5 * i * std::cos(8 * kPi / 180), 8});
  return poses;
}

TEST(Keyframes, ParallaxIsZeroWithoutTranslationAndGrowsWithBaseline) {
  const testing::MapperTestScene scene = testing::MakeMapperTestScene(
      MakeDrive({{0, 0, 0}, {0, 0, 0}, {0, 0, 6}, {1, 0, 0}, {0, 2, 0}}));
  int shared = 0;
  const auto parallax = [&](int a, int b) {
    const std::optional<double> value = RotationCompensatedParallaxDeg(scene.input, scene.tracks, a, b, &shared);
    EXPECT_TRUE(value.has_value());
    return value.value_or(-1);
  };
  EXPECT_LT(parallax(0, 1), 1e-6);  // standing still
  EXPECT_GT(shared, 1000);
  EXPECT_LT(parallax(0, 2), 0.01);  // turning on the spot: rotation only
  // Translation: clearly not zero, and at most the rays' true angles (a metre sideways with
  // points 6..40 m away: 1.4 to 9.5 deg). A rotation mimics most of a sideways motion, so
  // only the spread of the points' depths counts there.
  const double sideways = parallax(0, 3);
  EXPECT_GT(sideways, 0.3);
  EXPECT_LT(sideways, 3.0);
  const double ahead = parallax(0, 4);
  EXPECT_GT(ahead, 0.5);
  EXPECT_LT(ahead, 5.0);
}

TEST(Keyframes, StopsAndTurnsOnTheSpotAreNotKeyframes) {
  const testing::MapperTestScene scene = testing::MakeMapperTestScene(MakeDrive(DriveWithStopAndTurn()));
  KeyframeOptions options;
  options.min_parallax_deg = 0.3;
  const KeyframeSelection selection = SelectParallaxKeyframes(scene.input, scene.tracks, InOrder(scene.input), options);
  ASSERT_EQ(selection.is_keyframe.size(), 20u);
  EXPECT_TRUE(selection.is_keyframe[0]);
  for (int stopped = 6; stopped <= 13; ++stopped) {
    EXPECT_FALSE(selection.is_keyframe[stopped]) << "frame " << stopped << " adds no baseline";
  }
  int moving_keyframes = 0;
  for (int i = 1; i <= 5; ++i) moving_keyframes += selection.is_keyframe[i];
  for (int i = 14; i < 20; ++i) moving_keyframes += selection.is_keyframe[i];
  EXPECT_GE(moving_keyframes, 5);
  int counted = 0;
  for (char k : selection.is_keyframe) counted += k;
  EXPECT_EQ(counted, selection.num_keyframes);
  // Off: every frame is a keyframe.
  options.min_parallax_deg = 0;
  EXPECT_EQ(SelectParallaxKeyframes(scene.input, scene.tracks, InOrder(scene.input), options).num_keyframes, 20);
}

TEST(Keyframes, TooFewSharedTracksForceKeyframesThatKeepOverlap) {
  // Large steps: consecutive frames share few tracks, so every frame is needed although the
  // parallax threshold alone would skip some.
  std::vector<Pose> poses;
  for (int i = 0; i < 8; ++i) poses.push_back({0, 4.0 * i, 0});
  const testing::MapperTestScene scene = testing::MakeMapperTestScene(MakeDrive(poses));
  KeyframeOptions options;
  options.min_parallax_deg = 40;  // never reached
  options.min_shared_fraction = 0.6;
  const KeyframeSelection selection = SelectParallaxKeyframes(scene.input, scene.tracks, InOrder(scene.input), options);
  EXPECT_GE(selection.num_keyframes, 4);
  for (int i = 1; i < 8; ++i) {
    // The keyframe before each keyframe shares enough tracks with it.
    if (!selection.is_keyframe[i]) continue;
    int previous = i - 1;
    while (!selection.is_keyframe[previous]) --previous;
    int shared = 0;
    RotationCompensatedParallaxDeg(scene.input, scene.tracks, previous, i, &shared);
    EXPECT_GE(shared, options.min_shared_tracks) << "keyframes " << previous << " and " << i;
  }
}

TEST(Keyframes, MapperStartsAndTriangulatesFromKeyframesAndRegistersTheRestAfter) {
  const testing::MapperTestScene scene = testing::MakeMapperTestScene(MakeDrive(DriveWithStopAndTurn()));
  Scene input = scene.input;
  KeyframeOptions keyframe_options;
  keyframe_options.min_parallax_deg = 0.3;
  const KeyframeSelection selection =
      SelectParallaxKeyframes(input, scene.tracks, InOrder(input), keyframe_options);
  for (size_t i = 0; i < input.images.size(); ++i) input.images[i].keyframe = selection.is_keyframe[i];
  IncrementalMapperOptions options;
  options.init_min_num_points = 50;
  options.principal_point = IncrementalMapperOptions::PrincipalPoint::kOff;
  const MapperSummary summary = RunIncrementalMapper(options, scene.tracks, scene.pairs, &input);
  ASSERT_TRUE(summary.success) << summary.failure_reason;
  EXPECT_EQ(summary.num_registered, 20);
  EXPECT_TRUE(input.images[summary.initial_pair.image1].keyframe);
  EXPECT_TRUE(input.images[summary.initial_pair.image2].keyframe);
  // Every point rests on two keyframes at least; the other frames only joined points.
  int joined = 0;
  for (const auto& [id, point] : input.points) {
    int in_keyframes = 0;
    for (const TrackElement& e : point.track) {
      in_keyframes += input.images[e.image_id].keyframe ? 1 : 0;
      joined += input.images[e.image_id].keyframe ? 0 : 1;
    }
    ASSERT_GE(in_keyframes, 2) << "point " << id;
  }
  EXPECT_GT(joined, 1000);
  EXPECT_LT(testing::MaxRelativeRotationErrorDeg(scene.truth, input), 0.01);
}

// When no pair of keyframes can start a model (here the only keyframes stand still at the
// stop), the mapper starts from a pair with other frames, which become keyframes.
TEST(Keyframes, MapperStartsFromOtherFramesWhenNoPairOfKeyframesCan) {
  const testing::MapperTestScene scene = testing::MakeMapperTestScene(MakeDrive(DriveWithStopAndTurn()));
  Scene input = scene.input;
  const auto at_the_stop = [](int image) { return image >= 5 && image <= 9; };
  for (size_t i = 0; i < input.images.size(); ++i) input.images[i].keyframe = at_the_stop(static_cast<int>(i));
  IncrementalMapperOptions options;
  options.init_min_num_points = 50;
  options.principal_point = IncrementalMapperOptions::PrincipalPoint::kOff;
  const MapperSummary summary = RunIncrementalMapper(options, scene.tracks, scene.pairs, &input);
  ASSERT_TRUE(summary.success) << summary.failure_reason;
  const int first = summary.initial_pair.image1, second = summary.initial_pair.image2;
  EXPECT_FALSE(at_the_stop(first) && at_the_stop(second)) << first << ", " << second;
  EXPECT_TRUE(input.images[first].keyframe);
  EXPECT_TRUE(input.images[second].keyframe);
  EXPECT_GE(summary.num_registered, 10);
  EXPECT_LT(testing::MaxRelativeRotationErrorDeg(scene.truth, input), 0.01);
}

}  // namespace
}  // namespace proj
