#include "mvs/source_view_selection.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "core/check.h"

namespace proj::mvs {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// A camera at `center` looking at `target` (y down in the image, as in the model).
Rigid3d LookAt(const Eigen::Vector3d& center, const Eigen::Vector3d& target) {
  const Eigen::Vector3d z = (target - center).normalized();
  const Eigen::Vector3d x = Eigen::Vector3d::UnitY().cross(z).normalized();
  const Eigen::Vector3d y = z.cross(x);
  Eigen::Matrix3d rotation;  // rows: the camera axes in the world
  rotation.row(0) = x;
  rotation.row(1) = y;
  rotation.row(2) = z;
  return Rigid3d(rotation, -rotation * center);
}

Camera PinholeOf(int width, int height, double focal_px) {
  return {CameraModelId::kPinhole, width, height, {focal_px, focal_px, width / 2.0, height / 2.0}};
}

// A grid of points on the plane z = 10 (x, y in [-3, 3], 0.25 apart) and images observing the
// points that project into them.
class PlaneScene {
 public:
  PlaneScene() {
    for (int i = -12; i <= 12; ++i) {
      for (int j = -12; j <= 12; ++j) points_.emplace_back(0.25 * i, 0.25 * j, 10.0);
    }
  }

  // Adds a registered image of `camera` at `center` looking at the plane's centre; its id.
  int AddImage(const Camera& camera, const Eigen::Vector3d& center, bool registered = true) {
    const int camera_id = static_cast<int>(scene_.cameras.size());
    scene_.cameras.push_back(camera);
    SceneImage image;
    image.name = "image" + std::to_string(scene_.images.size()) + ".jpg";
    image.camera_id = camera_id;
    image.registered = registered;
    image.cam_from_world = LookAt(center, Eigen::Vector3d(0, 0, 10));
    scene_.images.push_back(image);
    return static_cast<int>(scene_.images.size()) - 1;
  }

  // The scene with points and tracks: each grid point observed by every image it projects
  // into.
  Scene Build() const {
    Scene scene = scene_;
    for (const Eigen::Vector3d& position : points_) {
      std::vector<TrackElement> track;
      for (size_t id = 0; id < scene.images.size(); ++id) {
        SceneImage& image = scene.images[id];
        const Camera& camera = scene.cameras[image.camera_id];
        Eigen::Vector2d uv;
        if (!camera.Project(image.cam_from_world * position, &uv)) continue;
        if (uv.x() < 0 || uv.y() < 0 || uv.x() >= camera.width || uv.y() >= camera.height) continue;
        image.keypoints.push_back(uv);
        image.point3d_ids.push_back(kInvalidId);
        track.push_back({static_cast<int>(id), static_cast<int>(image.keypoints.size()) - 1});
      }
      if (track.size() >= 2) scene.AddPoint(position, track);
    }
    return scene;
  }

 private:
  Scene scene_;
  std::vector<Eigen::Vector3d> points_;
};

// The reference image (id 0) facing the plane from 10 m and a second image 1.5 m to its side.
Scene TwoViewPlane() {
  PlaneScene builder;
  const Camera camera = PinholeOf(640, 480, 500);
  builder.AddImage(camera, {0, 0, 0});
  builder.AddImage(camera, {1.5, 0, 0});
  return builder.Build();
}

TEST(SourceViewSelection, AngleWeightIsZeroOutsideItsBandAndOneInside) {
  const SourceViewOptions options;
  EXPECT_EQ(TriangulationAngleWeight(0.0, options), 0.0);
  EXPECT_EQ(TriangulationAngleWeight(1.0, options), 0.0);
  EXPECT_GT(TriangulationAngleWeight(2.0, options), 0.0);
  EXPECT_LT(TriangulationAngleWeight(2.0, options), TriangulationAngleWeight(4.0, options));
  EXPECT_EQ(TriangulationAngleWeight(5.0, options), 1.0);
  EXPECT_EQ(TriangulationAngleWeight(25.0, options), 1.0);
  EXPECT_EQ(TriangulationAngleWeight(40.0, options), 1.0);
  EXPECT_GT(TriangulationAngleWeight(45.0, options), TriangulationAngleWeight(55.0, options));
  EXPECT_EQ(TriangulationAngleWeight(60.0, options), 0.0);
  EXPECT_EQ(TriangulationAngleWeight(120.0, options), 0.0);
}

TEST(SourceViewSelection, ScaleWeightIsSymmetricAndFallsBeyondTheRatio) {
  const SourceViewOptions options;
  EXPECT_EQ(ScaleRatioWeight(1.0, options), 1.0);
  EXPECT_EQ(ScaleRatioWeight(1.2, options), 1.0);
  EXPECT_NEAR(ScaleRatioWeight(2.0, options), std::pow(1.25 / 2, 2), 1e-12);
  EXPECT_DOUBLE_EQ(ScaleRatioWeight(0.5, options), ScaleRatioWeight(2.0, options));
  EXPECT_LT(ScaleRatioWeight(4.0, options), ScaleRatioWeight(2.0, options));
  EXPECT_EQ(ScaleRatioWeight(0.0, options), 0.0);
}

TEST(SourceViewSelection, KeepsWellTriangulatedNeighboursAndDropsTinyAndWideBaselines) {
  PlaneScene builder;
  const Camera camera = PinholeOf(640, 480, 500);
  const int reference = builder.AddImage(camera, {0, 0, 0});
  const int tiny = builder.AddImage(camera, {0.05, 0, 0});   // 0.3 deg: no depth
  const int good = builder.AddImage(camera, {1.5, 0, 0});    // 8.5 deg
  const int fair = builder.AddImage(camera, {-0.3, 0, 0});   // 1.7 deg: counts a little
  const int wide = builder.AddImage(camera, {-25, 0, 10});   // 90 deg: sees the plane edge-on
  const Scene scene = builder.Build();
  const std::vector<std::vector<int>> sources = SelectSourceViews(scene, SourceViewOptions{});
  ASSERT_EQ(sources.size(), scene.images.size());
  EXPECT_THAT(sources[reference], ElementsAre(good, fair));
  EXPECT_THAT(sources[wide], IsEmpty());
  // Symmetric scores: the good image picks the reference (and the others it triangulates with).
  EXPECT_EQ(sources[good].front(), reference);
  (void)tiny;
}

TEST(SourceViewSelection, PrefersTheSameScaleAndHonoursTheCount) {
  PlaneScene builder;
  const int reference = builder.AddImage(PinholeOf(640, 480, 500), {0, 0, 0});
  // Both 1.5 m to a side and seeing the same points; one with twice the resolution.
  const int same_scale = builder.AddImage(PinholeOf(640, 480, 500), {1.5, 0, 0});
  const int finer = builder.AddImage(PinholeOf(1280, 960, 1000), {-1.5, 0, 0});
  const Scene scene = builder.Build();
  EXPECT_THAT(SelectSourceViews(scene, SourceViewOptions{})[reference], ElementsAre(same_scale, finer));
  SourceViewOptions one;
  one.max_num_sources = 1;
  EXPECT_THAT(SelectSourceViews(scene, one)[reference], ElementsAre(same_scale));
  // A score below min_relative_score of the best is dropped: the finer image's is ~0.39 of it.
  SourceViewOptions strict;
  strict.min_relative_score = 0.5;
  EXPECT_THAT(SelectSourceViews(scene, strict)[reference], ElementsAre(same_scale));
}

TEST(SourceViewSelection, UnregisteredImagesNeitherChooseNorAreChosen) {
  PlaneScene builder;
  const Camera camera = PinholeOf(640, 480, 500);
  const int reference = builder.AddImage(camera, {0, 0, 0});
  const int other = builder.AddImage(camera, {1.5, 0, 0});
  const int unregistered = builder.AddImage(camera, {-1.5, 0, 0}, /*registered=*/false);
  const Scene scene = builder.Build();
  const std::vector<std::vector<int>> sources = SelectSourceViews(scene, SourceViewOptions{});
  EXPECT_THAT(sources[reference], ElementsAre(other));
  EXPECT_THAT(sources[unregistered], IsEmpty());
}

TEST(SourceViewSelection, RejectsBadOptions) {
  SourceViewOptions options;
  options.max_num_sources = 0;
  EXPECT_THROW(options.Check(), InputError);
  options = {};
  options.full_angle_deg = 0.5;  // below min_angle_deg
  EXPECT_THROW(options.Check(), InputError);
  options = {};
  options.max_scale_ratio = 0.9;
  EXPECT_THROW(options.Check(), InputError);
  DepthRangeOptions range;
  range.margin = 1;
  EXPECT_THROW(range.Check(), InputError);
}

TEST(DepthRange, PercentilesOfObservedDepthsWithTheMargin) {
  const Scene scene = TwoViewPlane();
  const int reference = 0;
  // Every point at depth 10 for the fronto-parallel reference.
  const std::optional<DepthRange> range = ComputeDepthRange(scene, reference, DepthRangeOptions{});
  ASSERT_TRUE(range);
  EXPECT_NEAR(range->min, 7.5, 1e-4);
  EXPECT_NEAR(range->max, 12.5, 1e-4);
  DepthRangeOptions no_margin;
  no_margin.margin = 0;
  const std::optional<DepthRange> tight = ComputeDepthRange(scene, reference, no_margin);
  ASSERT_TRUE(tight);
  EXPECT_LT(tight->min, tight->max);  // all depths equal: still a range
  EXPECT_NEAR(tight->min, 10, 1e-4);
}

TEST(DepthRange, FallsBackToProjectedPointsAndIsNoneWithNothingInFront) {
  Scene scene = TwoViewPlane();
  // An image observing nothing, but with the plane in view: the projected points count.
  SceneImage blind = scene.images[0];
  blind.name = "blind.jpg";
  blind.keypoints.clear();
  blind.point3d_ids.clear();
  scene.images.push_back(blind);
  const std::optional<DepthRange> range =
      ComputeDepthRange(scene, static_cast<int>(scene.images.size()) - 1, DepthRangeOptions{});
  ASSERT_TRUE(range);
  EXPECT_NEAR(range->min, 7.5, 1e-4);
  // Looking away from every point: no range.
  SceneImage away = blind;
  away.cam_from_world = LookAt({0, 0, 0}, {0, 0, -10});
  scene.images.push_back(away);
  EXPECT_FALSE(ComputeDepthRange(scene, static_cast<int>(scene.images.size()) - 1, DepthRangeOptions{}));
}

TEST(DepthSeeds, ThePixelAndDepthOfEachObservedPoint) {
  const Scene scene = TwoViewPlane();
  const int reference = 0;
  const std::vector<DepthSeed> seeds = ComputeDepthSeeds(scene, reference);
  int observed = 0;
  for (const int id : scene.images[reference].point3d_ids) observed += id != kInvalidId;
  ASSERT_EQ(static_cast<int>(seeds.size()), observed);
  for (const DepthSeed& seed : seeds) {
    EXPECT_NEAR(seed.depth, 10, 1e-4);
    EXPECT_GE(seed.x, 0);
    EXPECT_LT(seed.x, 640);
    EXPECT_GE(seed.y, 0);
    EXPECT_LT(seed.y, 480);
  }
  // The point (0.25, -0.5, 10) projects to (332.5, 215): pixel (332, 215).
  bool found = false;
  for (const DepthSeed& seed : seeds) found = found || (seed.x == 332 && seed.y == 215);
  EXPECT_TRUE(found);
}

TEST(DepthSeeds, NeedPinholeCameras) {
  PlaneScene builder;
  const int reference = builder.AddImage(Camera::FromFocal(CameraModelId::kSimpleRadial, 640, 480, 500), {0, 0, 0});
  builder.AddImage(Camera::FromFocal(CameraModelId::kSimpleRadial, 640, 480, 500), {1.5, 0, 0});
  const Scene scene = builder.Build();
  EXPECT_THROW(ComputeDepthSeeds(scene, reference), InputError);
}

}  // namespace
}  // namespace proj::mvs
