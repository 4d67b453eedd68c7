#include "datasets/synthetic/synthetic_scene.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include <Eigen/Geometry>

#include "core/check.h"
#include "datasets/synthetic/synthetic_renderer.h"
#include "io/float_raster_file.h"
#include "io/image_decode.h"
#include "io/image_folder.h"
#include "io/strecha_camera.h"
#include "tests/datasets/test_world.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

using synthetic::SyntheticWorld;
using ::testing::HasSubstr;

constexpr double kPi = 3.14159265358979323846;

// The default scene with quarter-size images (320x240, same field of view).
SyntheticSceneOptions LowResOptions() {
  SyntheticSceneOptions options;
  options.width = 320;
  options.height = 240;
  options.focal_px = 275;
  return options;
}

// A smaller world and ring (about half the texture area), for tests that build worlds.
SyntheticSceneOptions SmallOptions() {
  SyntheticSceneOptions options = LowResOptions();
  options.num_images = 4;
  options.num_frames = 6;
  options.ring_radius_m = 6.5;
  options.world.num_boxes = 4;
  options.world.num_walls = 1;
  options.world.object_radius_m = 3.5;
  options.world.enclosure_apothem_m = 9;
  return options;
}

const SyntheticWorld& DefaultWorld() { return testing::DefaultSyntheticWorld(); }

TEST(SyntheticScene, OptionsCheck) {
  EXPECT_NO_THROW(SyntheticSceneOptions().Check());
  const auto fails = [](auto mutate, const char* field) {
    SyntheticSceneOptions options;
    mutate(options);
    try {
      options.Check();
      ADD_FAILURE() << "no error for " << field;
    } catch (const InputError& error) {
      EXPECT_THAT(error.what(), HasSubstr(field));
    }
  };
  fails([](SyntheticSceneOptions& o) { o.num_images = 0; }, "num_images");
  fails([](SyntheticSceneOptions& o) { o.width = 4; }, "width");
  fails([](SyntheticSceneOptions& o) { o.focal_px = -1; }, "focal_px");
  fails([](SyntheticSceneOptions& o) { o.min_elevation_deg = 40; }, "elevation");
  fails([](SyntheticSceneOptions& o) { o.ring_radius_m = 4; }, "ring_radius_m");
  fails([](SyntheticSceneOptions& o) { o.ring_radius_m = 40; }, "ring_radius_m");
  fails([](SyntheticSceneOptions& o) { o.supersampling = 0; }, "supersampling");
  fails([](SyntheticSceneOptions& o) { o.world.num_boxes = -1; }, "num_boxes");
}

TEST(SyntheticScene, RingCamerasLookAtTheCentreFromAbove) {
  const SyntheticSceneOptions options;
  const std::vector<StrechaCamera> cameras = MakeSyntheticCameras(options);
  ASSERT_EQ(cameras.size(), 12u);
  std::vector<double> azimuths;
  for (const StrechaCamera& camera : cameras) {
    EXPECT_EQ(camera.width, 1280);
    EXPECT_EQ(camera.height, 960);
    EXPECT_EQ(camera.K(0, 0), 1100);
    EXPECT_EQ(camera.K(1, 1), 1100);
    EXPECT_EQ(camera.K(0, 2), 640);
    EXPECT_EQ(camera.K(1, 2), 480);
    EXPECT_LT((camera.R.transpose() * camera.R - Eigen::Matrix3d::Identity()).norm(), 1e-12);
    EXPECT_NEAR(camera.R.determinant(), 1.0, 1e-12);
    EXPECT_FALSE(DefaultWorld().InsideAnyBox(camera.C));
    // The scene centre is near the image centre (the look-at point is jittered by < 0.5 m).
    Eigen::Vector2d uv;
    ASSERT_TRUE(camera.Project(SyntheticWorld::Center(), &uv));
    EXPECT_LT((uv - Eigen::Vector2d(640, 480)).norm(), 80.0);
    // Looking down at 15..30 degrees.
    const double elevation = std::asin(-camera.R.col(2).z()) * 180 / kPi;
    EXPECT_GT(elevation, 13.0);
    EXPECT_LT(elevation, 32.0);
    azimuths.push_back(std::atan2(camera.C.y(), camera.C.x()));
  }
  // Neighbours are 30 +- 10 degrees apart around the ring.
  for (size_t i = 0; i < azimuths.size(); ++i) {
    double step = azimuths[(i + 1) % azimuths.size()] - azimuths[i];
    step = std::remainder(step, 2 * kPi) * 180 / kPi;
    EXPECT_GT(std::abs(step), 18.0);
    EXPECT_LT(std::abs(step), 42.0);
  }
}

TEST(SyntheticScene, SequenceMotionIsSmall) {
  const SyntheticWorld& world = DefaultWorld();
  SyntheticSceneOptions options;
  options.sequence = true;
  const std::vector<StrechaCamera> cameras = MakeSyntheticCameras(options);
  ASSERT_EQ(cameras.size(), 80u);
  for (size_t i = 0; i + 1 < cameras.size(); ++i) {
    // Scene points seen on a grid of frame i, projected into frame i + 1.
    std::vector<double> motion;
    for (double v = 40; v < 960; v += 80) {
      for (double u = 40; u < 1280; u += 80) {
        synthetic::SurfaceHit hit;
        if (!world.Intersect(synthetic::PixelRay(cameras[i], u, v), &hit)) continue;
        Eigen::Vector2d next;
        ASSERT_TRUE(cameras[i + 1].Project(hit.point, &next));
        motion.push_back((next - Eigen::Vector2d(u, v)).norm());
      }
    }
    ASSERT_GT(motion.size(), 100u);
    std::sort(motion.begin(), motion.end());
    const double median = motion[motion.size() / 2];
    const double p95 = motion[motion.size() * 95 / 100];
    EXPECT_GT(median, 1.0) << "frame " << i;
    EXPECT_LT(median, 20.0) << "frame " << i;
    EXPECT_LT(p95, 30.0) << "frame " << i;
  }
}

// The renderer's rays and the ground truth agree: the point a pixel's ray hits projects back
// onto that pixel, with x ~ K R^T (X - C) evaluated independently by StrechaCamera::Project.
TEST(SyntheticScene, RayHitsProjectBackToTheirPixel) {
  const SyntheticWorld& world = DefaultWorld();
  const std::vector<StrechaCamera> cameras = MakeSyntheticCameras(SyntheticSceneOptions());
  int hits = 0;
  for (const StrechaCamera& camera : {cameras[0], cameras[5]}) {
    for (double v = 0.5; v < 960; v += 37.3) {
      for (double u = 0.25; u < 1280; u += 41.7) {
        synthetic::SurfaceHit hit;
        if (!world.Intersect(synthetic::PixelRay(camera, u, v), &hit)) continue;
        ++hits;
        Eigen::Vector2d uv;
        ASSERT_TRUE(camera.Project(hit.point, &uv));
        EXPECT_NEAR(uv.x(), u, 1e-7);
        EXPECT_NEAR(uv.y(), v, 1e-7);
      }
    }
  }
  EXPECT_GT(hits, 1000);
}

// A box corner drawn in an image is where the ground truth projects it: the ray through the
// projection of a point just inside the corner hits that box right at the corner (unless
// something else, or the box itself for back corners, is in front).
TEST(SyntheticScene, BoxCornersProjectOntoTheBox) {
  const SyntheticWorld& world = DefaultWorld();
  const std::vector<StrechaCamera> cameras = MakeSyntheticCameras(SyntheticSceneOptions());
  int visible = 0;
  for (const StrechaCamera& camera : cameras) {
    for (const synthetic::Box& box : world.boxes()) {
      const Eigen::Vector3d center(box.center_xy.x(), box.center_xy.y(), box.half_size.z());
      for (const Eigen::Vector3d& corner : box.Corners()) {
        const Eigen::Vector3d inside = corner + 1e-3 * (center - corner).normalized();
        Eigen::Vector2d uv;
        if (!camera.Project(inside, &uv) || uv.x() < 0 || uv.y() < 0 || uv.x() > 1280 || uv.y() > 960) continue;
        synthetic::SurfaceHit hit;
        ASSERT_TRUE(world.Intersect(synthetic::PixelRay(camera, uv.x(), uv.y()), &hit));
        if ((hit.point - camera.C).norm() < (inside - camera.C).norm() - 0.02) continue;  // occluded
        ++visible;
        EXPECT_LT((hit.point - corner).norm(), 0.05);
        EXPECT_GE(hit.surface, box.first_surface);
        EXPECT_LT(hit.surface, box.first_surface + 6);
      }
    }
  }
  EXPECT_GT(visible, 50);
}

// Pixel (x, y) shows the scene at image point (x + 0.5, y + 0.5), the project's pixel-centre
// convention: away from geometric edges it equals the ray sample there, not at (x + 1, y).
TEST(SyntheticScene, PixelsAreSampledAtPixelCentres) {
  const SyntheticWorld& world = DefaultWorld();
  const StrechaCamera camera = MakeSyntheticCameras(LowResOptions())[1];
  const Image image = synthetic::RenderView(world, camera, /*supersampling=*/2, 0);
  int centre_matches = 0, shifted_matches = 0, tested = 0;
  for (int y = 3; y < camera.height - 3; y += 7) {
    for (int x = 3; x < camera.width - 3; x += 5) {
      ++tested;
      const auto at_centre = synthetic::RenderSample(world, camera, x + 0.5, y + 0.5, 1.0);
      const auto shifted = synthetic::RenderSample(world, camera, x + 1.0, y + 0.5, 1.0);
      bool centre_ok = true, shifted_ok = true;
      for (int c = 0; c < 3; ++c) {
        centre_ok = centre_ok && std::abs(image.pixel(x, y)[c] - at_centre[c]) <= 0.51;
        shifted_ok = shifted_ok && std::abs(image.pixel(x, y)[c] - shifted[c]) <= 0.51;
      }
      centre_matches += centre_ok;
      shifted_matches += shifted_ok;
    }
  }
  // Edge pixels (a few percent) are supersampled and so differ.
  EXPECT_GT(centre_matches, 0.9 * tested);
  EXPECT_LT(shifted_matches, 0.3 * tested);
}

TEST(SyntheticScene, DeterministicFromSeed) {
  SyntheticSceneOptions options = SmallOptions();
  options.num_images = 2;
  options.num_threads = 1;
  const std::vector<SyntheticView> a = RenderSyntheticScene(options);
  options.num_threads = 2;
  const std::vector<SyntheticView> b = RenderSyntheticScene(options);
  ASSERT_EQ(a.size(), 2u);
  ASSERT_EQ(b.size(), 2u);
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].name, b[i].name);
    EXPECT_EQ(a[i].image.data, b[i].image.data);
    EXPECT_EQ(a[i].camera.R, b[i].camera.R);
    EXPECT_EQ(a[i].camera.C, b[i].camera.C);
  }
  EXPECT_EQ(a[0].name, "0000.jpg");
  EXPECT_EQ(a[0].image.width, 320);
  EXPECT_EQ(a[0].image.height, 240);
  EXPECT_EQ(a[0].image.channels, 3);

  options.seed = 2;
  const std::vector<SyntheticView> c = RenderSyntheticScene(options);
  EXPECT_NE(a[0].image.data, c[0].image.data);
  EXPECT_NE(a[0].camera.C, c[0].camera.C);
}

TEST(SyntheticScene, WritesStrechaLayout) {
  const std::string dir = testing::MakeTempDir("synthetic_write");
  SyntheticSceneOptions options = SmallOptions();
  options.sequence = true;
  options.num_frames = 3;
  WriteSyntheticScene(options, dir);
  const std::vector<std::string> images = ListImageFiles(dir + "/images");
  ASSERT_EQ(images.size(), 3u);
  const std::vector<StrechaCamera> cameras = MakeSyntheticCameras(options);
  for (int i = 0; i < 3; ++i) {
    const std::string name = SyntheticImageName(i);
    EXPECT_EQ(std::filesystem::path(images[i]).filename().string(), name);
    const Image image = ReadImageFile(images[i]);
    EXPECT_EQ(image.width, 320);
    EXPECT_EQ(image.height, 240);
    const StrechaCamera camera = ReadStrechaCamera(dir + "/gt_dense_cameras/" + name + ".camera");
    EXPECT_EQ(camera.K, cameras[i].K);
    EXPECT_EQ(camera.R, cameras[i].R);
    EXPECT_EQ(camera.C, cameras[i].C);
    const FloatRaster depth = ReadFloatRasterFile(dir + "/depth/" + name + ".bin", 1);
    EXPECT_EQ(depth.width, 320);
    EXPECT_EQ(depth.height, 240);
  }
  EXPECT_TRUE(std::filesystem::exists(dir + "/images/K.txt"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/gt_cameras.ply"));

  // A shorter scene into the same folder would leave 0002.jpg behind: refused.
  options.num_frames = 2;
  try {
    WriteSyntheticScene(options, dir);
    FAIL() << "expected InputError";
  } catch (const InputError& error) {
    EXPECT_THAT(error.what(), HasSubstr("0002.jpg"));
  }
  // The same scene again is fine (files are replaced).
  options.num_frames = 3;
  EXPECT_NO_THROW(WriteSyntheticScene(options, dir));
}

}  // namespace
}  // namespace proj
