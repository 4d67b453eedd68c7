// The trilateral filter's entry points for the CLI (TrilateralFilterImage) and for SIFT's
// scale space (CreateTrilateralLevelSmoother, through MakeLevelSmoother).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/check.h"
#include "features/feature_extractor.h"
#include "features/image_preprocessing.h"
#include "features/sift/scale_space.h"
#include "features/trilateral/trilateral_filter.h"
#include "features/trilateral/trilateral_filter_image.h"
#include "features/trilateral/trilateral_level_smoother.h"
#include "tests/support/rgb_image.h"

namespace proj {
namespace {

Image RgbTestImage(int width, int height) {
  return testing::MakeRgbImage(width, height, [&](int x, int y, uint8_t* p) {
    const bool inside = x > width / 3 && x < 2 * width / 3 && y > height / 4;
    p[0] = static_cast<uint8_t>(inside ? 200 : 40 + x % 7);
    p[1] = static_cast<uint8_t>(inside ? 180 : 60 + (x * y) % 5);
    p[2] = static_cast<uint8_t>(inside ? 90 : 30 + y % 3);
  });
}

Plane PlaneFrom(const GrayImage& image) {
  Plane plane(image.width, image.height);
  plane.pixels = image.pixels;
  return plane;
}

TEST(TrilateralFilterImage, CpuPathFiltersTheLuma) {
  const Image image = RgbTestImage(48, 36);
  const GrayImage out = TrilateralFilterImage(image, 3.0, ComputeDevice::kCpu, 2);
  TrilateralOptions options;
  options.sigma_c = 3.0;
  const GrayImage expected = TrilateralFilter(ToGrayImage(image), options);
  EXPECT_EQ(out.width, 48);
  EXPECT_EQ(out.height, 36);
  EXPECT_EQ(out.pixels, expected.pixels);
  EXPECT_THROW(TrilateralFilterImage(image, 0.0, ComputeDevice::kCpu), InputError);
  EXPECT_THROW(TrilateralFilterImage(Image(), 3.0, ComputeDevice::kCpu), InputError);
}

TEST(TrilateralFilterImage, AutoDeviceMatchesCpu) {
  const Image image = RgbTestImage(64, 40);
  const GrayImage cpu = TrilateralFilterImage(image, 2.0, ComputeDevice::kCpu);
  const GrayImage any = TrilateralFilterImage(image, 2.0, ComputeDevice::kAuto);
  ASSERT_EQ(any.pixels.size(), cpu.pixels.size());
  for (size_t i = 0; i < cpu.pixels.size(); ++i) EXPECT_NEAR(any.pixels[i], cpu.pixels[i], 1e-5);
}

TEST(TrilateralLevelSmoother, FiltersTheBaseAtTheLevelSigma) {
  const GrayImage grey = ToGrayImage(RgbTestImage(40, 30));
  const Plane base = PlaneFrom(grey);
  const Plane previous = PlaneFrom(grey);
  FeatureOptions options;
  options.scale_space = ScaleSpaceType::kTrilateral;
  const LevelSmoother smoother = MakeLevelSmoother(options);
  LevelSmoothRequest request;
  request.base = &base;
  request.base_sigma = 1.27f;
  request.previous = &previous;
  request.previous_sigma = 1.6f;
  request.target_sigma = 2.02f;
  request.num_threads = 2;
  Plane out;
  smoother(request, &out);
  TrilateralOptions expected_options;
  expected_options.sigma_c = 2.02f;
  EXPECT_EQ(out.width, 40);
  EXPECT_EQ(out.height, 30);
  EXPECT_EQ(out.pixels, TrilateralFilter(base.pixels.data(), 40, 30, expected_options));
  // A sigma_c scale multiplies the level's sigma.
  options.trilateral_sigma_c = 1.5;
  Plane scaled;
  CreateTrilateralLevelSmoother(options)(request, &scaled);
  expected_options.sigma_c = 1.5 * 2.02f;
  EXPECT_EQ(scaled.pixels, TrilateralFilter(base.pixels.data(), 40, 30, expected_options));
  EXPECT_DOUBLE_EQ(TrilateralLevelSigmaC(0, 2.0), 2.0);
}

}  // namespace
}  // namespace proj
