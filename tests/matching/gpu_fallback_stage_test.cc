// The stages' GPU decorators with an injected fake GPU implementation that fails part-way:
// the feature extractor redoes the failed image and every later one on the CPU, the
// descriptor matcher the failed block of pairs and every later block, and each reports
// progress once per pair.
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/progress.h"
#include "cuda/gpu_error.h"
#include "features/gpu_fallback_extractor.h"
#include "matching/cpu_descriptor_matcher.h"
#include "matching/gpu_fallback_matcher.h"
#include "tests/support/cerr_capture.h"

namespace proj {
namespace {

using testing::CerrCapture;

cuda::GpuError LaunchFailure() {
  return cuda::GpuError(719, "cudaErrorLaunchFailure", "unspecified launch failure", "kernel<<<>>>",
                        "y.cu:2");
}

// One keypoint whose x tells which device extracted which image (image width).
class FakeExtractor : public FeatureExtractor {
 public:
  FakeExtractor(float device_tag, int fail_at_call) : tag_(device_tag), fail_at_(fail_at_call) {}
  FeatureSet Extract(const GrayImage& image) override {
    if (++calls_ == fail_at_) throw LaunchFailure();
    FeatureSet features;
    Keypoint keypoint;
    keypoint.x = tag_;
    keypoint.y = static_cast<float>(image.width);
    features.keypoints.push_back(keypoint);
    features.descriptors.assign(kSiftDescriptorSize, 0);
    return features;
  }
  int ConcurrentCalls() const override { return 1; }
  std::string Description() const override { return tag_ == 0 ? "fake gpu" : "fake cpu"; }

 private:
  float tag_;
  int fail_at_;
  int calls_ = 0;
};

TEST(GpuFallbackExtractor, ImageTheGpuFailedOnAndLaterOnesComeFromTheCpu) {
  CerrCapture capture;
  GpuFallbackExtractor extractor([] { return std::make_unique<FakeExtractor>(0, 3); },
                                 [] { return std::make_unique<FakeExtractor>(1, 0); });
  EXPECT_EQ(extractor.Description(), "fake gpu");
  std::vector<float> device;
  std::vector<float> image_of;
  for (int width = 1; width <= 5; ++width) {
    GrayImage image;
    image.width = width;
    const FeatureSet features = extractor.Extract(image);
    ASSERT_EQ(features.size(), 1);
    device.push_back(features.keypoints[0].x);
    image_of.push_back(features.keypoints[0].y);
  }
  EXPECT_EQ(device, (std::vector<float>{0, 0, 1, 1, 1}));
  EXPECT_EQ(image_of, (std::vector<float>{1, 2, 3, 4, 5}));  // every image once, in order
  EXPECT_EQ(extractor.Description(), "fake cpu");
  EXPECT_EQ(extractor.fallback().num_failures(), 1);
  EXPECT_NE(capture.text().find("feature extraction: the GPU failed (cudaErrorLaunchFailure"),
            std::string::npos);
}

// A GPU matcher that advances progress per pair, then fails on its `fail_at_call`-th block
// after half the block (as a real one could, part-way).
class FakeGpuMatcher : public DescriptorMatcher {
 public:
  explicit FakeGpuMatcher(int fail_at_call) : fail_at_(fail_at_call) {}
  using DescriptorMatcher::MatchPairs;
  std::vector<std::vector<FeatureMatch>> MatchPairs(const FeatureSetViews&,
                                                    const std::vector<ImagePair>& pairs,
                                                    Progress* progress) override {
    for (size_t p = 0; p < pairs.size() / 2; ++p) {
      if (progress != nullptr) progress->Advance();
    }
    if (++calls_ == fail_at_) throw LaunchFailure();
    for (size_t p = pairs.size() / 2; p < pairs.size(); ++p) {
      if (progress != nullptr) progress->Advance();
    }
    return std::vector<std::vector<FeatureMatch>>(pairs.size(), {FeatureMatch{-7, -7}});
  }
  std::string Description() const override { return "fake gpu"; }

 private:
  int fail_at_;
  int calls_ = 0;
};

// Two images of `count` identical descriptors: the CPU matcher finds `count` matches per pair
// at most (ties broken either way), never the GPU fake's marker (-7).
std::vector<FeatureSet> TwoImages(int count) {
  std::vector<FeatureSet> images(2);
  for (FeatureSet& features : images) {
    for (int k = 0; k < count; ++k) {
      features.keypoints.emplace_back();
      features.keypoints.back().x = static_cast<float>(k);
      for (int d = 0; d < kSiftDescriptorSize; ++d) {
        features.descriptors.push_back(static_cast<uint8_t>(d == k % kSiftDescriptorSize ? 200 : 1));
      }
    }
  }
  return images;
}

TEST(GpuFallbackMatcher, BlockTheGpuFailedOnAndLaterOnesComeFromTheCpuCountedOnce) {
  CerrCapture capture;
  DescriptorMatchOptions options;
  options.num_threads = 1;
  GpuFallbackMatcher matcher([] { return std::make_unique<FakeGpuMatcher>(2); },
                             [options] { return std::make_unique<CpuDescriptorMatcher>(options); });
  const std::vector<FeatureSet> features = TwoImages(4);
  const std::vector<ImagePair> block(4, ImagePair{0, 1});
  Progress progress("matching", 12, "pairs");
  std::vector<bool> from_gpu;
  for (int call = 0; call < 3; ++call) {
    const auto matches = matcher.MatchPairs(features, block, &progress);
    ASSERT_EQ(matches.size(), block.size());
    from_gpu.push_back(!matches[0].empty() && matches[0][0].index1 == -7);
    if (!from_gpu.back()) {
      EXPECT_EQ(matches[0].size(), 4u);
    }
  }
  EXPECT_EQ(from_gpu, (std::vector<bool>{true, false, false}));
  EXPECT_EQ(progress.done(), 12);  // the failed block's first half is not counted twice
  EXPECT_NE(capture.text().find("descriptor matching: the GPU failed"), std::string::npos);
}

}  // namespace
}  // namespace proj
