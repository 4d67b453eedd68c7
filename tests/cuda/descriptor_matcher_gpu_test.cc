// The CUDA brute-force matcher against the CPU reference (RootSIFT, ratio test, mutual
// nearest neighbours). Skips with a message when no GPU is usable.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <utility>

#include "core/check.h"
#include "cuda/device.h"
#include "cuda/matching/descriptor_matcher_gpu.h"
#include "features/sift/scale_space.h"
#include "features/sift/sift_cpu.h"
#include "matching/gpu_descriptor_matcher.h"
#include "tests/features/sift_test_support.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

#define PROJ_REQUIRE_GPU()                                                          \
  if (!cuda::DeviceAvailable()) {                                                   \
    GTEST_SKIP() << "no usable CUDA device (" << cuda::DeviceDescription() << ")"; \
  }

// Random SIFT-like descriptors (sparse, uint8).
FeatureSet RandomFeatures(int count, std::mt19937* rng) {
  FeatureSet f;
  f.keypoints.resize(count);
  f.descriptors.resize(static_cast<size_t>(count) * 128);
  std::uniform_int_distribution<int> value(0, 120), zero(0, 3);
  for (uint8_t& d : f.descriptors) d = zero(*rng) == 0 ? 0 : static_cast<uint8_t>(value(*rng));
  return f;
}

// b = a permuted, with noise on a random half of the features.
FeatureSet PermutedNoisy(const FeatureSet& a, const std::vector<int>& permutation, std::mt19937* rng) {
  FeatureSet b = a;
  std::uniform_int_distribution<int> noise(-3, 3);
  for (int i = 0; i < a.size(); ++i) {
    for (int k = 0; k < 128; ++k) {
      const int v = a.descriptor(i)[k] + ((i % 2) ? noise(*rng) : 0);
      b.descriptors[static_cast<size_t>(permutation[i]) * 128 + k] = static_cast<uint8_t>(std::clamp(v, 0, 255));
    }
  }
  return b;
}

std::set<std::pair<int, int>> AsSet(const std::vector<FeatureMatch>& matches) {
  std::set<std::pair<int, int>> s;
  for (const FeatureMatch& m : matches) s.insert({m.index1, m.index2});
  return s;
}

TEST(DescriptorMatcherGpu, ThrowsWithoutDevice) {
  if (cuda::DeviceAvailable()) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_THROW(cuda::DescriptorMatcherGpu(), InputError);
  EXPECT_THROW(CreateGpuDescriptorMatcher(DescriptorMatchOptions{}), InputError);
}

TEST(DescriptorMatcherGpu, RecoversAPermutation) {
  PROJ_REQUIRE_GPU();
  std::mt19937 rng(7);
  const int n = 3000;  // not a multiple of any tile size
  const FeatureSet a = RandomFeatures(n, &rng);
  std::vector<int> permutation(n);
  for (int i = 0; i < n; ++i) permutation[i] = i;
  std::shuffle(permutation.begin(), permutation.end(), rng);
  const FeatureSet b = PermutedNoisy(a, permutation, &rng);
  cuda::DescriptorMatcherGpu matcher;
  const int sa = matcher.AddDescriptors(a.descriptors.data(), a.size());
  const int sb = matcher.AddDescriptors(b.descriptors.data(), b.size());
  const auto result = matcher.MatchPairs({{sa, sb}, {sb, sa}}, cuda::GpuMatchOptions{});
  ASSERT_EQ(result.size(), 2u);
  EXPECT_EQ(static_cast<int>(result[0].size()), n);
  for (const cuda::GpuMatch& m : result[0]) EXPECT_EQ(m.index2, permutation[m.index1]);
  EXPECT_EQ(static_cast<int>(result[1].size()), n);
  for (const cuda::GpuMatch& m : result[1]) EXPECT_EQ(permutation[m.index2], m.index1);
}

TEST(DescriptorMatcherGpu, AgreesWithCpuReferenceOnRealFeatures) {
  PROJ_REQUIRE_GPU();
  PROJ_REQUIRE_SHARED_DATASET(path0, "strecha/fountain-P11/images/0003.jpg");
  PROJ_REQUIRE_SHARED_DATASET(path1, "strecha/fountain-P11/images/0004.jpg");
  FeatureOptions options;
  options.selection.max_features = 8192;
  std::vector<FeatureSet> features;
  for (const std::string& path : {path0, path1}) {
    const GrayImage image = testing::LoadGrayJpeg(path);
    features.push_back(ExtractSiftCpu(image, MakeSiftParams(options, image.width, image.height),
                                      GaussianLevelSmoother(), 0));
  }
  // Also an image with few features and an empty one, batched with the big pair.
  FeatureSet few;
  few.keypoints.assign(features[1].keypoints.begin(), features[1].keypoints.begin() + 50);
  few.descriptors.assign(features[1].descriptors.begin(), features[1].descriptors.begin() + 50 * 128);
  features.push_back(few);
  features.push_back(FeatureSet{});
  const std::vector<ImagePair> pairs = {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {1, 2}};
  for (bool cross_check : {true, false}) {
    DescriptorMatchOptions match_options;
    match_options.cross_check = cross_check;
    auto matcher = CreateGpuDescriptorMatcher(match_options);
    const auto gpu = matcher->MatchPairs(features, pairs, nullptr);
    ASSERT_EQ(gpu.size(), pairs.size());
    for (size_t p = 0; p < pairs.size(); ++p) {
      const auto cpu = testing::MatchBruteForce(features[pairs[p].image1], features[pairs[p].image2],
                                                0.8, cross_check);
      const auto g = AsSet(gpu[p]), c = AsSet(cpu);
      int common = 0;
      for (const auto& m : c) common += g.count(m);
      std::printf("pair %d-%d cross_check %d: cpu %zu, gpu %zu, common %d\n", pairs[p].image1,
                  pairs[p].image2, cross_check, c.size(), g.size(), common);
      // FP16 rounding may flip near ties of the ratio test: allow 1% (+1) either way.
      EXPECT_GE(common, 0.99 * c.size() - 1);
      EXPECT_GE(common, 0.99 * g.size() - 1);
      EXPECT_TRUE(std::is_sorted(gpu[p].begin(), gpu[p].end(), [](const FeatureMatch& x, const FeatureMatch& y) {
        return x.index1 < y.index1;
      }));
    }
    EXPECT_GT(gpu[0].size(), 500u);
    EXPECT_TRUE(gpu[2].empty());
    EXPECT_TRUE(gpu[3].empty());
  }
}

TEST(DescriptorMatcherGpu, RejectsUnknownSets) {
  PROJ_REQUIRE_GPU();
  cuda::DescriptorMatcherGpu matcher;
  EXPECT_THROW(matcher.MatchPairs({{0, 1}}, cuda::GpuMatchOptions{}), InputError);
  auto m = CreateGpuDescriptorMatcher(DescriptorMatchOptions{});
  EXPECT_THROW(m->MatchPairs({FeatureSet{}}, {{0, 1}}, nullptr), InputError);
}

}  // namespace
}  // namespace proj
