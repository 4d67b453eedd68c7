// The true depth maps of `sfm synth` checked against the geometry: each depth puts the pixel's
// point on a surface of the world, where the ray through the pixel centre first meets it, and
// the sky has depth 0.
#include <gtest/gtest.h>

#include <cmath>

#include <Eigen/Geometry>

#include "datasets/synthetic/synthetic_renderer.h"
#include "datasets/synthetic/synthetic_street.h"
#include "tests/datasets/test_world.h"

namespace proj {
namespace {

using synthetic::SyntheticWorld;

// 320x240 camera 1.5 m above the ground, looking along +y and 20 degrees up: ground, boxes,
// enclosure and sky in one view.
StrechaCamera UpwardCamera() {
  StrechaCamera camera;
  camera.width = 320;
  camera.height = 240;
  camera.K << 275, 0, 160, 0, 275, 120, 0, 0, 1;
  const double pitch = 20 * M_PI / 180;
  const Eigen::Vector3d forward(0, std::cos(pitch), std::sin(pitch));
  const Eigen::Vector3d right(1, 0, 0);
  camera.R.col(0) = right;
  camera.R.col(1) = forward.cross(right);  // image y points down
  camera.R.col(2) = forward;
  camera.C = Eigen::Vector3d(0.3, -9, 1.5);
  return camera;
}

TEST(SyntheticDepth, DepthPutsEachPixelOnTheFirstSurfaceItsRayMeets) {
  const SyntheticWorld& world = testing::DefaultSyntheticWorld();
  const StrechaCamera camera = UpwardCamera();
  const FloatRaster depth = synthetic::RenderDepth(world, camera, 0);
  ASSERT_EQ(depth.width, 320);
  ASSERT_EQ(depth.height, 240);
  ASSERT_EQ(depth.channels, 1);
  const Eigen::Matrix3d k_inverse = camera.K.inverse();
  int sky = 0, surface = 0;
  for (int y = 0; y < camera.height; y += 3) {
    for (int x = 0; x < camera.width; x += 3) {
      const double u = x + 0.5, v = y + 0.5, d = depth.At(x, y);
      synthetic::SurfaceHit hit;
      const bool hits = world.Intersect(synthetic::PixelRay(camera, u, v), &hit);
      if (!hits) {
        EXPECT_EQ(d, 0.0) << "sky pixel " << x << "," << y;
        ++sky;
        continue;
      }
      ++surface;
      ASSERT_GT(d, 0.0) << x << "," << y;
      const Eigen::Vector3d point = camera.C + d * camera.R * k_inverse * Eigen::Vector3d(u, v, 1);
      Eigen::Vector2d uv;
      ASSERT_TRUE(camera.Project(point, &uv));
      EXPECT_LT((uv - Eigen::Vector2d(u, v)).norm(), 1e-6) << x << "," << y;
      // On a surface (float depth: ~1e-7 relative) and at the ray's first hit.
      EXPECT_LT(world.DistanceToSurfaces(point), 1e-5 * d) << x << "," << y;
      EXPECT_NEAR(d, hit.t, 1e-6 * hit.t) << x << "," << y;
    }
  }
  EXPECT_GT(sky, 100);
  EXPECT_GT(surface, 1000);
}

// The true normal map beside the depth: the unit normal of the surface each ray meets, in
// the camera frame, facing the camera; zero for the sky.
TEST(SyntheticDepth, NormalsAreTheSurfacesFacingTheCamera) {
  const SyntheticWorld& world = testing::DefaultSyntheticWorld();
  const StrechaCamera camera = UpwardCamera();
  FloatRaster normals;
  const FloatRaster depth = synthetic::RenderDepth(world, camera, 0, nullptr, &normals);
  EXPECT_EQ(depth.data, synthetic::RenderDepth(world, camera, 0).data);
  ASSERT_EQ(normals.channels, 3);
  ASSERT_EQ(normals.width, camera.width);
  const Eigen::Matrix3d k_inverse = camera.K.inverse();
  int checked = 0;
  for (int y = 0; y < camera.height; y += 3) {
    for (int x = 0; x < camera.width; x += 3) {
      const Eigen::Vector3d normal(normals.At(x, y, 0), normals.At(x, y, 1), normals.At(x, y, 2));
      if (depth.At(x, y) == 0) {
        EXPECT_EQ(normal, Eigen::Vector3d::Zero());
        continue;
      }
      ++checked;
      const Eigen::Vector3d ray = k_inverse * Eigen::Vector3d(x + 0.5, y + 0.5, 1);
      int surface = -1;
      world.DistanceToSurfaces(camera.C + depth.At(x, y) * camera.R * ray, &surface);
      EXPECT_NEAR(normal.norm(), 1.0, 1e-6);
      EXPECT_LT(normal.dot(ray), 0) << x << "," << y;
      EXPECT_NEAR(std::abs(normal.dot(camera.R.transpose() * world.surfaces()[surface].normal)), 1.0, 1e-6)
          << x << "," << y;
    }
  }
  EXPECT_GT(checked, 1000);
}

TEST(SyntheticDepth, DistortedStreetDepthFollowsTheBentRays) {
  SyntheticStreetOptions options;
  options.width = 200;
  options.height = 80;
  options.radial_k1 = -0.1;
  const SyntheticWorld world = BuildStreetWorld(options);
  const StrechaCamera camera = MakeStreetCameras(options)[3];
  const FloatRaster depth = RenderStreetDepth(world, camera, options);
  const double f = camera.K(0, 0), cx = camera.K(0, 2), cy = camera.K(1, 2);
  int checked = 0;
  for (int y = 0; y < camera.height; y += 2) {
    for (int x = 0; x < camera.width; x += 2) {
      const double d = depth.At(x, y);
      if (d == 0) continue;
      ++checked;
      // Undistort by fixed-point iteration, then check the forward (distorting) projection.
      const Eigen::Vector2d distorted((x + 0.5 - cx) / f, (y + 0.5 - cy) / f);
      Eigen::Vector2d n = distorted;
      for (int i = 0; i < 50; ++i) n = distorted / (1 + options.radial_k1 * n.squaredNorm());
      const Eigen::Vector3d point = camera.C + d * camera.R * Eigen::Vector3d(n.x(), n.y(), 1);
      const Eigen::Vector3d in_camera = camera.R.transpose() * (point - camera.C);
      const Eigen::Vector2d xn = in_camera.head<2>() / in_camera.z();
      const Eigen::Vector2d pixel = f * xn * (1 + options.radial_k1 * xn.squaredNorm()) + Eigen::Vector2d(cx, cy);
      EXPECT_LT((pixel - Eigen::Vector2d(x + 0.5, y + 0.5)).norm(), 1e-6) << x << "," << y;
      EXPECT_NEAR(in_camera.z(), d, 1e-9 * d);
      EXPECT_LT(world.DistanceToSurfaces(point), 1e-5 * d) << x << "," << y;
    }
  }
  EXPECT_GT(checked, 1000);
}

}  // namespace
}  // namespace proj
