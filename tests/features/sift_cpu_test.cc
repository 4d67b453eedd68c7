// Properties of the CPU reference SIFT (features/sift/): blob localisation, determinism,
// limits, invariance to rotation and scale on a real image crop, and option handling.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>

#include "core/check.h"
#include "features/sift/fast_atan2.h"
#include "features/sift/scale_space.h"
#include "features/sift/sift_cpu.h"
#include "features/sift/sift_extractor_factory.h"
#include "tests/features/sift_test_support.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

constexpr char kFountainImage[] = "strecha/fountain-P11/images/0005.jpg";

GrayImage BlobImage(int width, int height, float cx, float cy, float sigma) {
  GrayImage image;
  image.width = width;
  image.height = height;
  image.pixels.resize(static_cast<size_t>(width) * height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      // Pixel (x, y) has its centre at (x + 0.5, y + 0.5).
      const float dx = x + 0.5f - cx, dy = y + 0.5f - cy;
      image.pixels[static_cast<size_t>(y) * width + x] =
          0.1f + 0.8f * std::exp(-(dx * dx + dy * dy) / (2 * sigma * sigma));
    }
  }
  return image;
}

FeatureSet Extract(const GrayImage& image, int num_threads, int max_features = 8192,
                   int upsample = 0) {
  FeatureOptions options;
  options.selection.upsample = upsample;
  options.selection.max_features = max_features;
  return ExtractSiftCpu(image, MakeSiftParams(options, image.width, image.height),
                        GaussianLevelSmoother(), num_threads);
}

// Image rotated by 90 degrees clockwise: output (x', y') = (H - 1 - y, x) in sample indices.
GrayImage Rotate90(const GrayImage& image) {
  GrayImage out;
  out.width = image.height;
  out.height = image.width;
  out.pixels.resize(image.pixels.size());
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      out.pixels[static_cast<size_t>(x) * out.width + (image.height - 1 - y)] = image.at(x, y);
    }
  }
  return out;
}

GrayImage HalveByAveraging(const GrayImage& image) {
  GrayImage out;
  out.width = image.width / 2;
  out.height = image.height / 2;
  out.pixels.resize(static_cast<size_t>(out.width) * out.height);
  for (int y = 0; y < out.height; ++y) {
    for (int x = 0; x < out.width; ++x) {
      out.pixels[static_cast<size_t>(y) * out.width + x] =
          0.25f * (image.at(2 * x, 2 * y) + image.at(2 * x + 1, 2 * y) +
                   image.at(2 * x, 2 * y + 1) + image.at(2 * x + 1, 2 * y + 1));
    }
  }
  return out;
}

// Fraction of ratio-test matches whose keypoint in image 2 lies within `tolerance_px` of
// the mapped keypoint of image 1, and their number.
template <typename Map>
void GeometricAgreement(const FeatureSet& f1, const FeatureSet& f2, Map map, double tolerance_px,
                        int* correct, int* total) {
  const auto matches = testing::MatchBruteForce(f1, f2, 0.8, true);
  *correct = 0;
  *total = static_cast<int>(matches.size());
  for (const FeatureMatch& m : matches) {
    const Keypoint& a = f1.keypoints[m.index1];
    const Keypoint& b = f2.keypoints[m.index2];
    float x = 0, y = 0;
    map(a.x, a.y, &x, &y);
    if (std::hypot(x - b.x, y - b.y) < tolerance_px) ++*correct;
  }
}

// Float values apart, counted in units in the last place (same sign assumed).
int64_t UlpDistance(float a, float b) {
  int32_t ia = 0, ib = 0;
  std::memcpy(&ia, &a, sizeof(float));
  std::memcpy(&ib, &b, sizeof(float));
  if (ia < 0) ia = INT32_MIN - ia;
  if (ib < 0) ib = INT32_MIN - ib;
  return std::abs(static_cast<int64_t>(ia) - ib);
}

TEST(SiftCpu, FastAtan2IsWithinThreeUlpOfTheLibrary) {
  std::mt19937 random(7);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  int64_t worst = 0;
  for (int i = 0; i < 200000; ++i) {
    // Gradients of every magnitude in every direction, as the central differences give.
    const float scale = std::pow(10.0f, 4.0f * uniform(random));
    const float y = scale * uniform(random), x = scale * uniform(random);
    if (x == 0 || y == 0) continue;
    worst = std::max(worst, UlpDistance(FastAtan2(y, x), std::atan2(y, x)));
  }
  EXPECT_LE(worst, 3);
  // Axes and diagonals, where the range reduction switches branches.
  for (const float y : {-2.0f, -1.0f, 0.0f, 1.0f, 2.0f}) {
    for (const float x : {-2.0f, -1.0f, 1.0f, 2.0f}) {
      EXPECT_LE(UlpDistance(FastAtan2(y, x), std::atan2(y, x)), 3) << y << ", " << x;
      EXPECT_LE(UlpDistance(FastAtan2(x, y == 0 ? 1.0f : y), std::atan2(x, y == 0 ? 1.0f : y)), 3);
    }
  }
  EXPECT_EQ(FastAtan2(0.0f, 0.0f), 0.0f);
}

// The blur's vectorized passes round as the plain loop of the CUDA SIFT does (taps from -r
// to +r, each product rounded before it is added: nvcc -fmad=false), bit for bit.
TEST(SiftCpu, GaussianBlurRoundsAsTheUnfusedTapLoop) {
  std::mt19937 random(3);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  Plane in(53, 37);
  for (float& v : in.pixels) v = uniform(random);
  for (const float sigma : {0.8f, 1.6f, 3.2f}) {
    const std::vector<float> taps = GaussianTaps(sigma);
    const int radius = static_cast<int>(taps.size()) / 2;
    auto sample = [](const Plane& p, int x, int y) {
      return p.at(std::clamp(x, 0, p.width - 1), std::clamp(y, 0, p.height - 1));
    };
    Plane horizontal(in.width, in.height), expected(in.width, in.height);
    for (int pass = 0; pass < 2; ++pass) {
      const Plane& src = pass == 0 ? in : horizontal;
      Plane& dst = pass == 0 ? horizontal : expected;
      for (int y = 0; y < in.height; ++y) {
        for (int x = 0; x < in.width; ++x) {
          float sum = 0;
          for (int k = -radius; k <= radius; ++k) {
            // volatile: the product is rounded on its own, never fused into the sum.
            volatile float product =
                taps[k + radius] * (pass == 0 ? sample(src, x + k, y) : sample(src, x, y + k));
            sum += product;
          }
          dst.at(x, y) = sum;
        }
      }
    }
    for (int threads : {1, 3}) {
      Plane out;
      GaussianBlur(in, sigma, threads, &out);
      ASSERT_EQ(out.pixels.size(), expected.pixels.size());
      int different = 0;
      for (size_t i = 0; i < out.pixels.size(); ++i) different += out.pixels[i] != expected.pixels[i];
      EXPECT_EQ(different, 0) << "sigma " << sigma << ", " << threads << " threads";
    }
  }
}

TEST(SiftCpu, FindsGaussianBlobAtItsCentreAndScale) {
  const float sigma = 6.0f, cx = 80.3f, cy = 70.6f;
  const FeatureSet features = Extract(BlobImage(160, 150, cx, cy, sigma), 1);
  ASSERT_GE(features.size(), 1);
  // The strongest keypoint is the blob (scale-normalised DoG peaks near sigma).
  const Keypoint& kp = features.keypoints[0];
  EXPECT_NEAR(kp.x, cx, 0.3);
  EXPECT_NEAR(kp.y, cy, 0.3);
  EXPECT_NEAR(kp.scale, sigma, 0.25 * sigma);
  EXPECT_GT(kp.response, 0.02f / 3);
}

TEST(SiftCpu, DescriptorsAreNormalisedAndResponsesSorted) {
  PROJ_REQUIRE_SHARED_DATASET(path, kFountainImage);
  const GrayImage crop = testing::CropImage(testing::LoadGrayJpeg(path), 1000, 600, 640, 480);
  const FeatureSet features = Extract(crop, 2);
  ASSERT_GT(features.size(), 300);
  ASSERT_EQ(features.descriptors.size(), features.keypoints.size() * 128);
  for (int i = 0; i < features.size(); ++i) {
    const Keypoint& kp = features.keypoints[i];
    EXPECT_TRUE(kp.x >= 0 && kp.x <= crop.width && kp.y >= 0 && kp.y <= crop.height);
    EXPECT_GE(kp.orientation, 0);
    EXPECT_LT(kp.orientation, 2 * M_PI);
    if (i > 0) {
      EXPECT_LE(kp.response, features.keypoints[i - 1].response);
    }
    double norm = 0;
    for (int k = 0; k < 128; ++k) norm += std::pow(features.descriptor(i)[k] / 512.0, 2);
    EXPECT_NEAR(std::sqrt(norm), 1.0, 0.02) << "keypoint " << i;
  }
}

TEST(SiftCpu, DeterministicAcrossThreadCounts) {
  PROJ_REQUIRE_SHARED_DATASET(path, kFountainImage);
  const GrayImage crop = testing::CropImage(testing::LoadGrayJpeg(path), 800, 500, 512, 384);
  const FeatureSet a = Extract(crop, 1), b = Extract(crop, 2), c = Extract(crop, 2);
  ASSERT_EQ(a.size(), b.size());
  ASSERT_EQ(b.size(), c.size());
  EXPECT_EQ(a.descriptors, b.descriptors);
  EXPECT_EQ(b.descriptors, c.descriptors);
  for (int i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a.keypoints[i].x, b.keypoints[i].x);
    EXPECT_EQ(a.keypoints[i].orientation, b.keypoints[i].orientation);
  }
}

TEST(SiftCpu, KeepsTheStrongestMaxFeatures) {
  PROJ_REQUIRE_SHARED_DATASET(path, kFountainImage);
  const GrayImage crop = testing::CropImage(testing::LoadGrayJpeg(path), 800, 500, 512, 384);
  const FeatureSet all = Extract(crop, 2);
  ASSERT_GT(all.size(), 400);
  const FeatureSet few = Extract(crop, 2, 200);
  ASSERT_EQ(few.size(), 200);
  for (int i = 0; i < few.size(); ++i) {
    EXPECT_EQ(few.keypoints[i].response, all.keypoints[i].response);
  }
}

TEST(SiftCpu, InvariantToRotationBy90Degrees) {
  PROJ_REQUIRE_SHARED_DATASET(path, kFountainImage);
  const GrayImage crop = testing::CropImage(testing::LoadGrayJpeg(path), 1000, 600, 512, 512);
  const FeatureSet f1 = Extract(crop, 2), f2 = Extract(Rotate90(crop), 2);
  int correct = 0, total = 0;
  // Continuous coordinates: (x, y) -> (H - y, x).
  GeometricAgreement(f1, f2, [&](float x, float y, float* u, float* v) {
    *u = crop.height - y;
    *v = x;
  }, 1.0, &correct, &total);
  EXPECT_GT(correct, 0.5 * std::min(f1.size(), f2.size()));
  EXPECT_GT(correct, 0.95 * total);
}

TEST(SiftCpu, InvariantToHalvingTheScale) {
  PROJ_REQUIRE_SHARED_DATASET(path, kFountainImage);
  const GrayImage crop = testing::CropImage(testing::LoadGrayJpeg(path), 900, 500, 768, 768);
  const FeatureSet f1 = Extract(crop, 2), f2 = Extract(HalveByAveraging(crop), 2);
  int correct = 0, total = 0;
  GeometricAgreement(f1, f2, [](float x, float y, float* u, float* v) {
    *u = 0.5f * x;
    *v = 0.5f * y;
  }, 1.5, &correct, &total);
  EXPECT_GT(correct, 0.3 * f2.size());
  EXPECT_GT(correct, 0.9 * total);
}

TEST(SiftCpu, UpsamplesSmallImagesByDefault) {
  FeatureOptions options;  // upsample = -1: automatic
  EXPECT_TRUE(MakeSiftParams(options, 320, 240).upsample);
  EXPECT_FALSE(MakeSiftParams(options, 3072, 2048).upsample);
  // Small blobs (sigma 1.1 px) on a grid: their DoG extrema lie below level 0 of octave 0,
  // so only the upsampled octave finds them.
  GrayImage image = BlobImage(200, 160, -100, -100, 1);
  for (int gy = 0; gy < 7; ++gy) {
    for (int gx = 0; gx < 9; ++gx) {
      const float cx = 20.3f + 20 * gx, cy = 20.6f + 20 * gy;
      for (int y = 0; y < image.height; ++y) {
        for (int x = 0; x < image.width; ++x) {
          const float dx = x + 0.5f - cx, dy = y + 0.5f - cy;
          image.pixels[static_cast<size_t>(y) * image.width + x] +=
              0.6f * std::exp(-(dx * dx + dy * dy) / (2 * 1.1f * 1.1f));
        }
      }
    }
  }
  const FeatureSet up = Extract(image, 2, 8192, -1), plain = Extract(image, 2, 8192, 0);
  const auto fine = [](const Keypoint& kp) { return kp.octave == -1 && kp.scale < 1.5f; };
  EXPECT_GE(std::count_if(up.keypoints.begin(), up.keypoints.end(), fine), 50);
  EXPECT_EQ(std::count_if(plain.keypoints.begin(), plain.keypoints.end(), fine), 0);
}

TEST(SiftCpu, EdgeTestRemovesKeypoints) {
  PROJ_REQUIRE_SHARED_DATASET(path, kFountainImage);
  const GrayImage crop = testing::CropImage(testing::LoadGrayJpeg(path), 1000, 600, 400, 300);
  FeatureOptions options;
  options.selection.upsample = 0;
  SiftParams params = MakeSiftParams(options, crop.width, crop.height);
  const int with_test = ExtractSiftCpu(crop, params, GaussianLevelSmoother(), 2).size();
  params.edge_test = false;
  const int without_test = ExtractSiftCpu(crop, params, GaussianLevelSmoother(), 2).size();
  EXPECT_GT(without_test, with_test);
}

TEST(SiftCpu, ExtractorThroughTheFactory) {
  FeatureOptions options;
  options.device = ComputeDevice::kCpu;
  options.num_threads = 2;
  auto extractor = CreateSiftExtractor(options);
  EXPECT_EQ(extractor->ConcurrentCalls(), 2);
  EXPECT_EQ(extractor->Description(), "sift (cpu)");
  const FeatureSet features = extractor->Extract(BlobImage(128, 128, 64, 64, 5));
  EXPECT_GE(features.size(), 1);
}

TEST(SiftCpu, RejectsBadInput) {
  FeatureOptions options;
  options.device = ComputeDevice::kCpu;
  auto extractor = CreateSiftExtractor(options);
  EXPECT_THROW(extractor->Extract(GrayImage{}), InputError);
  // Too small for one octave: no features, no failure.
  EXPECT_EQ(extractor->Extract(BlobImage(6, 6, 3, 3, 1)).size(), 0);
}

// The trilateral smoother is built in (features/trilateral/sources.cmake) and really used:
// the same image gives other keypoints than with the Gaussian scale space. A Gaussian
// substitute under the trilateral name, or a missing smoother, fails here.
TEST(SiftCpu, TrilateralScaleSpaceIsNotFaked) {
  FeatureOptions gaussian;
  gaussian.device = ComputeDevice::kCpu;
  gaussian.num_threads = 2;
  gaussian.selection.upsample = 0;  // the trilateral filter is slow at twice the size
  FeatureOptions trilateral = gaussian;
  trilateral.scale_space = ScaleSpaceType::kTrilateral;
  std::unique_ptr<FeatureExtractor> extractor;
  ASSERT_NO_THROW(extractor = CreateSiftExtractor(trilateral));
  EXPECT_EQ(extractor->Description(), "sift (cpu, trilateral)");

  const GrayImage image = BlobImage(128, 128, 64, 64, 5);
  const FeatureSet with_gaussian = CreateSiftExtractor(gaussian)->Extract(image);
  const FeatureSet with_trilateral = extractor->Extract(image);
  ASSERT_GE(with_gaussian.size(), 1);
  auto same = [](const Keypoint& a, const Keypoint& b) {
    return a.x == b.x && a.y == b.y && a.scale == b.scale && a.response == b.response;
  };
  const bool identical = with_gaussian.keypoints.size() == with_trilateral.keypoints.size() &&
                         std::equal(with_gaussian.keypoints.begin(), with_gaussian.keypoints.end(),
                                    with_trilateral.keypoints.begin(), same);
  EXPECT_FALSE(identical) << "the trilateral scale space gave the Gaussian one's keypoints";
}

}  // namespace
}  // namespace proj
