#include "sfm/undistort/undistort_image.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <gtest/gtest.h>

#include "sfm/undistort/undistorted_camera.h"
#include "tests/support/rgb_image.h"

namespace proj {
namespace {

// A linear ramp, which bilinear interpolation reproduces exactly: any difference from it in
// the undistorted image is a wrong pixel map, not interpolation error.
double Ramp(double u, double v) { return 20 + 0.3 * u + 0.4 * v; }

Image RampImage(int width, int height) {
  Image image;
  image.width = width;
  image.height = height;
  image.channels = 1;
  image.data.resize(static_cast<size_t>(width) * height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) image.data[y * width + x] = static_cast<uint8_t>(std::lround(Ramp(x + 0.5, y + 0.5)));
  }
  return image;
}

Image CheckerImage(int width, int height, int square_px) {
  return testing::MakeRgbImage(width, height, [&](int x, int y, uint8_t* p) {
    const bool white = ((x / square_px) + (y / square_px)) % 2 == 0;
    p[0] = white ? 250 : 10;
    p[1] = static_cast<uint8_t>(x % 256);
    p[2] = static_cast<uint8_t>(y % 256);
  });
}

TEST(UndistortImage, RampReadsWhereThePixelMapPoints) {
  Camera camera;
  camera.model = CameraModelId::kRadial;
  camera.width = 320;
  camera.height = 240;
  camera.params = {260, 158, 122, -0.12, 0.03};
  const Camera pinhole = UndistortCamera(camera, {});
  const Image out = UndistortImage(RampImage(320, 240), camera, pinhole);
  ASSERT_EQ(out.width, pinhole.width);
  ASSERT_EQ(out.height, pinhole.height);
  ASSERT_EQ(out.channels, 1);
  int worst = 0;
  for (int y = 0; y < out.height; ++y) {
    for (int x = 0; x < out.width; ++x) {
      const Eigen::Vector2d uv = DistortPixel(pinhole, camera, Eigen::Vector2d(x + 0.5, y + 0.5));
      // Clamped as the sampler clamps: the outer half pixel reads the edge pixel.
      const double u = std::clamp(uv.x(), 0.5, camera.width - 0.5);
      const double v = std::clamp(uv.y(), 0.5, camera.height - 0.5);
      const int expected = static_cast<int>(std::lround(Ramp(u, v)));
      worst = std::max(worst, std::abs(out.data[y * out.width + x] - expected));
    }
  }
  EXPECT_LE(worst, 1);  // the ramp's own rounding to 8 bits
}

TEST(UndistortImage, PinholeCameraGivesTheSameImage) {
  Camera camera;
  camera.model = CameraModelId::kPinhole;
  camera.width = 96;
  camera.height = 64;
  camera.params = {90, 92, 47, 33};
  const Image checker = CheckerImage(96, 64, 8);
  const Image out = UndistortImage(checker, camera, UndistortCamera(camera, {}));
  EXPECT_EQ(out.width, 96);
  EXPECT_EQ(out.height, 64);
  EXPECT_EQ(out.channels, 3);
  EXPECT_EQ(out.data, checker.data);
}

TEST(UndistortImage, CheckerSquaresStayOnTheUndistortedGrid) {
  // Barrel distortion bends the checker's straight edges; undistorted, a pixel well inside a
  // square of the original is the colour of that square.
  Camera camera;
  camera.model = CameraModelId::kSimpleRadial;
  camera.width = 160;
  camera.height = 128;
  camera.params = {150, 80, 64, -0.15};
  const Image checker = CheckerImage(160, 128, 16);
  const Camera pinhole = UndistortCamera(camera, {});
  const Image out = UndistortImage(checker, camera, pinhole);
  int checked = 0;
  for (int y = 0; y < out.height; ++y) {
    for (int x = 0; x < out.width; ++x) {
      const Eigen::Vector2d uv = DistortPixel(pinhole, camera, Eigen::Vector2d(x + 0.5, y + 0.5));
      const double in_square_u = std::fmod(uv.x(), 16.0);
      const double in_square_v = std::fmod(uv.y(), 16.0);
      if (in_square_u < 2 || in_square_u > 14 || in_square_v < 2 || in_square_v > 14) continue;
      const bool white = (static_cast<int>(uv.x() / 16) + static_cast<int>(uv.y() / 16)) % 2 == 0;
      EXPECT_EQ(out.data[(static_cast<size_t>(y) * out.width + x) * 3], white ? 250 : 10) << x << ", " << y;
      ++checked;
    }
  }
  EXPECT_GT(checked, out.width * out.height / 2);
}

TEST(UndistortImage, OutsideTheOriginalIsBlack) {
  Image image;
  image.width = 4;
  image.height = 4;
  image.channels = 1;
  image.data.assign(16, 200);
  double value = 0;
  EXPECT_TRUE(SampleBilinear(image, 0, 0, 0, &value));
  EXPECT_DOUBLE_EQ(value, 200);
  EXPECT_FALSE(SampleBilinear(image, -0.01, 2, 0, &value));
  EXPECT_FALSE(SampleBilinear(image, 2, 4.01, 0, &value));
}

}  // namespace
}  // namespace proj
