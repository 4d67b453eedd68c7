#include "sfm/undistort/undistorted_camera.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace proj {
namespace {

Camera MakeCamera(CameraModelId model, std::vector<double> params) {
  Camera camera;
  camera.model = model;
  camera.width = 640;
  camera.height = 480;
  camera.params = std::move(params);
  return camera;
}

// One camera per model, with distortion strong enough to move the image edge by pixels.
std::vector<std::pair<std::string, Camera>> DistortedCameras() {
  return {
      {"PINHOLE", MakeCamera(CameraModelId::kPinhole, {520, 530, 322, 236})},
      {"SIMPLE_RADIAL barrel", MakeCamera(CameraModelId::kSimpleRadial, {500, 318, 243, -0.08})},
      {"SIMPLE_RADIAL pincushion", MakeCamera(CameraModelId::kSimpleRadial, {500, 320, 240, 0.05})},
      {"RADIAL", MakeCamera(CameraModelId::kRadial, {480, 325, 238, -0.1, 0.02})},
  };
}

// Points in the camera frame spread over the whole original image, at several depths.
std::vector<Eigen::Vector3d> PointsInView(const Camera& camera) {
  std::vector<Eigen::Vector3d> points;
  for (double u = 1; u < camera.width; u += 21) {
    for (double v = 1; v < camera.height; v += 19) {
      const Eigen::Vector2d xy = camera.PixelToNormalized(Eigen::Vector2d(u, v));
      const double depth = 2 + (static_cast<int>(u + v) % 7);
      points.push_back(depth * Eigen::Vector3d(xy.x(), xy.y(), 1));
    }
  }
  return points;
}

TEST(UndistortedCamera, PixelMapsAgreeWithBothCamerasProjections) {
  for (const UndistortCameraOptions& options : {UndistortCameraOptions{}, UndistortCameraOptions{400}}) {
    for (const auto& [name, camera] : DistortedCameras()) {
      const Camera pinhole = UndistortCamera(camera, options);
      ASSERT_EQ(pinhole.model, CameraModelId::kPinhole) << name;
      double worst_px = 0;
      for (const Eigen::Vector3d& point : PointsInView(camera)) {
        Eigen::Vector2d distorted, undistorted;
        ASSERT_TRUE(camera.Project(point, &distorted));
        ASSERT_TRUE(pinhole.Project(point, &undistorted));
        // Keypoints: distorted projection -> undistorted image = the PINHOLE projection.
        worst_px = std::max(worst_px, (UndistortPixel(camera, pinhole, distorted) - undistorted).norm());
        // Resampling: PINHOLE projection -> original image = the distorted projection.
        worst_px = std::max(worst_px, (DistortPixel(pinhole, camera, undistorted) - distorted).norm());
      }
      EXPECT_LT(worst_px, 1e-3) << name << ", max size " << options.max_image_size_px;
    }
  }
}

TEST(UndistortedCamera, KeepsFocalAndLeavesNoBlankPixels) {
  for (const auto& [name, camera] : DistortedCameras()) {
    const Camera pinhole = UndistortCamera(camera, {});
    const std::vector<int> focal = camera.FocalIndices();
    EXPECT_DOUBLE_EQ(pinhole.params[0], camera.params[focal.front()]) << name;
    EXPECT_DOUBLE_EQ(pinhole.params[1], camera.params[focal.back()]) << name;
    // Every pixel centre on the undistorted image's border reads inside the original.
    for (int x = 0; x < pinhole.width; ++x) {
      for (const double v : {0.5, pinhole.height - 0.5}) {
        const Eigen::Vector2d uv = DistortPixel(pinhole, camera, Eigen::Vector2d(x + 0.5, v));
        EXPECT_TRUE(uv.x() >= 0 && uv.x() <= camera.width && uv.y() >= 0 && uv.y() <= camera.height)
            << name << " pixel (" << x << ", " << v << ") reads " << uv.transpose();
      }
    }
    for (int y = 0; y < pinhole.height; ++y) {
      for (const double u : {0.5, pinhole.width - 0.5}) {
        const Eigen::Vector2d uv = DistortPixel(pinhole, camera, Eigen::Vector2d(u, y + 0.5));
        EXPECT_TRUE(uv.x() >= 0 && uv.x() <= camera.width && uv.y() >= 0 && uv.y() <= camera.height)
            << name << " pixel (" << u << ", " << y << ") reads " << uv.transpose();
      }
    }
  }
}

TEST(UndistortedCamera, SizeFollowsTheDistortion) {
  const auto cameras = DistortedCameras();
  const Camera pinhole = UndistortCamera(cameras[0].second, {});
  EXPECT_EQ(pinhole.width, 640);  // no distortion: the same camera
  EXPECT_EQ(pinhole.height, 480);
  EXPECT_EQ(pinhole.params, cameras[0].second.params);
  const Camera barrel = UndistortCamera(cameras[1].second, {});
  EXPECT_GT(barrel.width, 640);  // barrel: the edges' middles move outwards
  EXPECT_GT(barrel.height, 480);
  const Camera pincushion = UndistortCamera(cameras[2].second, {});
  EXPECT_LT(pincushion.width, 640);
  EXPECT_LT(pincushion.height, 480);
  // The principal point keeps its relative position.
  EXPECT_NEAR(barrel.params[2] / barrel.width, 318.0 / 640, 1e-12);
  EXPECT_NEAR(barrel.params[3] / barrel.height, 243.0 / 480, 1e-12);
}

TEST(UndistortedCamera, MaxImageSizeShrinksTheLargerSide) {
  UndistortCameraOptions options;
  options.max_image_size_px = 320;
  const Camera pinhole = UndistortCamera(DistortedCameras()[0].second, options);
  EXPECT_EQ(pinhole.width, 320);
  EXPECT_EQ(pinhole.height, 240);
  EXPECT_DOUBLE_EQ(pinhole.params[0], 260);
  EXPECT_DOUBLE_EQ(pinhole.params[3], 118);
  options.max_image_size_px = -1;
  EXPECT_THROW(UndistortCamera(DistortedCameras()[0].second, options), InputError);
}

}  // namespace
}  // namespace proj
