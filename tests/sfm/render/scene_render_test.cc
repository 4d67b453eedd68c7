// The software renderer: points land where the pinhole projects them, in their colours, the
// nearer point wins, cameras are drawn as frustums and the automatic view frames the scene.
#include "sfm/render/scene_render.h"

#include <gtest/gtest.h>

#include "tests/sfm/ba/synthetic_scene.h"

namespace proj {
namespace {

constexpr int kWidth = 200;
constexpr int kHeight = 150;

Rgb8 PixelAt(const Image& image, int x, int y) {
  const uint8_t* p = image.pixel(x, y);
  return {p[0], p[1], p[2]};
}

// The viewer at the origin looking down +z, focal 100 px.
RenderView IdentityView() {
  RenderView view;
  view.focal_px = 100;
  view.width_px = kWidth;
  view.height_px = kHeight;
  view.target_distance = 5;
  return view;
}

int AddColoredPoint(Scene* scene, const Eigen::Vector3d& position, const Rgb8& color) {
  const int id = scene->AddPoint(position, {});
  scene->points[id].color << color[0], color[1], color[2];
  return id;
}

TEST(SceneRender, PointsAppearInTheirColoursWhereTheyProjectAndBackgroundElsewhere) {
  Scene scene;
  const Rgb8 red = {250, 10, 10}, green = {10, 240, 20}, blue = {30, 40, 250};
  AddColoredPoint(&scene, {0, 0, 5}, red);       // -> (100, 75)
  AddColoredPoint(&scene, {2, -1, 10}, green);   // -> (120, 65)
  AddColoredPoint(&scene, {-3, 1.5, 5}, blue);   // -> (40, 105)
  AddColoredPoint(&scene, {0, 0, -5}, blue);     // behind the viewer: not drawn
  RenderStyle style;
  style.point_size_px = 3;
  const Image image = RenderScene(scene, IdentityView(), style);
  ASSERT_EQ(image.width, kWidth);
  ASSERT_EQ(image.height, kHeight);
  ASSERT_EQ(image.channels, 3);
  EXPECT_EQ(PixelAt(image, 100, 75), red);
  EXPECT_EQ(PixelAt(image, 99, 74), red);  // the splat covers the pixels around the centre
  EXPECT_EQ(PixelAt(image, 120, 65), green);
  EXPECT_EQ(PixelAt(image, 40, 105), blue);
  int num_background = 0;
  int num_other = 0;
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      const Rgb8 pixel = PixelAt(image, x, y);
      if (pixel == style.background) {
        ++num_background;
      } else if (pixel != red && pixel != green && pixel != blue) {
        ++num_other;
      }
    }
  }
  EXPECT_EQ(num_other, 0);
  // Three splats of about 3x3 pixels; everything else is background.
  EXPECT_GE(num_background, kWidth * kHeight - 3 * 16);
  EXPECT_LE(num_background, kWidth * kHeight - 3 * 4);
}

TEST(SceneRender, NearerPointHidesFartherOne) {
  Scene scene;
  const Rgb8 near = {200, 200, 0}, far = {0, 200, 200};
  AddColoredPoint(&scene, {0, 0, 8}, far);
  AddColoredPoint(&scene, {0, 0, 4}, near);
  AddColoredPoint(&scene, {0.4, 0, 2}, far);   // -> (120, 75), drawn after and in front
  AddColoredPoint(&scene, {0.8, 0, 4}, near);  // same pixel, behind
  const Image image = RenderScene(scene, IdentityView(), RenderStyle{});
  EXPECT_EQ(PixelAt(image, 100, 75), near);
  EXPECT_EQ(PixelAt(image, 120, 75), far);
}

TEST(SceneRender, RegisteredCamerasAreDrawnAsFrustums) {
  Scene scene;
  scene.cameras.push_back(Camera::FromFocal(CameraModelId::kPinhole, 400, 300, 400));
  SceneImage image;
  image.camera_id = 0;
  image.registered = true;
  image.cam_from_world = testing::LookAt({0, 0, 5}, {0, 0, 10});  // ahead of the viewer
  scene.images.push_back(image);
  RenderStyle style;
  style.frustum_depth_share = 0.2;  // base 1 unit ahead of the apex
  const Image picture = RenderScene(scene, IdentityView(), style);
  EXPECT_EQ(PixelAt(picture, 100, 75), style.camera_color);  // apex, seen head-on
  int num_camera_pixels = 0;
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) num_camera_pixels += PixelAt(picture, x, y) == style.camera_color;
  }
  // The base (half-size 0.5 x 0.375 at depth 6) is a rectangle of about 17 x 12 px.
  EXPECT_GT(num_camera_pixels, 50);
  style.draw_cameras = false;
  const Image without = RenderScene(scene, IdentityView(), style);
  EXPECT_EQ(PixelAt(without, 100, 75), style.background);
}

TEST(AutomaticView, LooksAtTheMedianAndFramesThePointsAndCameras) {
  testing::SyntheticSceneOptions options;
  options.num_points = 500;
  const Scene scene = testing::MakeSyntheticScene(options);
  ViewOptions view_options;
  view_options.width_px = 320;
  view_options.height_px = 240;
  const RenderView view = AutomaticView(scene, view_options);
  int inside = 0;
  for (const auto& [id, point] : scene.points) {
    Eigen::Vector2d uv;
    double depth = 0;
    inside += view.Project(point.position, &uv, &depth) && uv.x() >= 0 && uv.y() >= 0 &&
              uv.x() < 320 && uv.y() < 240;
  }
  EXPECT_GE(inside, 0.97 * scene.points.size());
  for (const auto& image : scene.images) {
    Eigen::Vector2d uv;
    double depth = 0;
    ASSERT_TRUE(view.Project(image.cam_from_world.Center(), &uv, &depth)) << image.name;
    EXPECT_TRUE(uv.x() >= 0 && uv.y() >= 0 && uv.x() < 320 && uv.y() < 240) << uv.transpose();
  }
  // The points are centred on the origin: it projects near the middle of the picture.
  Eigen::Vector2d uv;
  double depth = 0;
  ASSERT_TRUE(view.Project(Eigen::Vector3d::Zero(), &uv, &depth));
  EXPECT_NEAR(uv.x(), 160, 20);
  EXPECT_NEAR(uv.y(), 120, 20);
  // Elevated: the viewer is above the cameras' mean horizon (up = minus their mean y axis).
  Eigen::Vector3d down = Eigen::Vector3d::Zero();
  for (const auto& image : scene.images) down += image.cam_from_world.rotation.conjugate() * Eigen::Vector3d::UnitY();
  const Eigen::Vector3d viewer = view.cam_from_world.Center();
  EXPECT_LT(viewer.dot(down.normalized()), -0.1 * viewer.norm());
}

TEST(AutomaticView, RejectsBadOptionsAndHandlesAnEmptyScene) {
  ViewOptions options;
  options.elevation_deg = 95;
  EXPECT_THROW(AutomaticView(Scene{}, options), InputError);
  const RenderView view = AutomaticView(Scene{}, ViewOptions{});
  const Image image = RenderScene(Scene{}, view, RenderStyle{});
  EXPECT_EQ(image.width, ViewOptions{}.width_px);
  RenderStyle style;
  style.point_size_px = 0;
  EXPECT_THROW(RenderScene(Scene{}, view, style), InputError);
}

}  // namespace
}  // namespace proj
