#include "matching/cpu_descriptor_matcher.h"

#include <algorithm>
#include <random>

#include <gtest/gtest.h>

namespace proj {
namespace {

// Random uint8 descriptors; the second set is a noisy permutation of the first plus
// distractors, so the true correspondence is known.
FeatureSet RandomFeatures(int count, std::mt19937_64* rng) {
  FeatureSet features;
  features.keypoints.resize(count);
  features.descriptors.resize(static_cast<size_t>(count) * kSiftDescriptorSize);
  std::uniform_int_distribution<int> value(0, 120);
  for (auto& d : features.descriptors) d = static_cast<uint8_t>(value(*rng));
  return features;
}

TEST(CpuDescriptorMatcher, FindsNoisyPermutation) {
  std::mt19937_64 rng(1);
  const int count = 600;
  FeatureSet a = RandomFeatures(count, &rng);
  FeatureSet b = RandomFeatures(count + 200, &rng);  // 200 distractors at the end
  std::vector<int> permutation(count);
  for (int i = 0; i < count; ++i) permutation[i] = i;
  std::shuffle(permutation.begin(), permutation.end(), rng);
  std::uniform_int_distribution<int> noise(-3, 3);
  for (int i = 0; i < count; ++i) {
    for (int k = 0; k < kSiftDescriptorSize; ++k) {
      const int v = a.descriptors[i * kSiftDescriptorSize + k] + noise(rng);
      b.descriptors[permutation[i] * kSiftDescriptorSize + k] = static_cast<uint8_t>(std::clamp(v, 0, 255));
    }
  }
  DescriptorMatchOptions options;
  options.num_threads = 2;
  CpuDescriptorMatcher matcher(options);
  const auto result = matcher.MatchPairs({a, b}, {{0, 1}}, nullptr);
  ASSERT_EQ(result.size(), 1u);
  int correct = 0;
  for (const auto& m : result[0]) correct += permutation[m.index1] == m.index2;
  EXPECT_GE(correct, count * 95 / 100);
  EXPECT_EQ(correct, static_cast<int>(result[0].size()));  // no wrong match survives
}

// Three pairs on two threads: the last is split into two row blocks (so that no thread idles
// at the end) and its column states merged. The matches equal those of each pair matched
// whole, ties across the blocks included (rows duplicated in both halves: the earlier row
// keeps the column, as in one pass).
TEST(CpuDescriptorMatcher, PairSplitIntoRowBlocksMatchesAsWhole) {
  std::mt19937_64 rng(3);
  std::vector<FeatureSet> sets;
  for (int i = 0; i < 3; ++i) sets.push_back(RandomFeatures(400, &rng));
  for (int r = 0; r < 40; ++r) {  // image 2's rows 200..239 repeat its rows 0..39
    std::copy_n(sets[2].descriptors.begin() + r * kSiftDescriptorSize, kSiftDescriptorSize,
                sets[2].descriptors.begin() + (200 + r) * kSiftDescriptorSize);
  }
  std::uniform_int_distribution<int> noise(-2, 2);
  for (size_t k = 0; k < sets[0].descriptors.size(); ++k) {  // image 0 close to image 2
    sets[0].descriptors[k] = static_cast<uint8_t>(std::clamp(sets[2].descriptors[k] + noise(rng), 0, 255));
  }
  // As the pipeline loads them: descriptors without keypoints.
  for (FeatureSet& set : sets) set.keypoints.clear();
  DescriptorMatchOptions options;
  options.num_threads = 2;
  options.max_ratio = 1.0;  // keep the tied rows: the cross-check decides between them
  CpuDescriptorMatcher matcher(options);
  const std::vector<ImagePair> pairs = {{0, 1}, {1, 2}, {2, 0}};
  const auto result = matcher.MatchPairs({sets[0], sets[1], sets[2]}, pairs, nullptr);
  ASSERT_EQ(result.size(), 3u);
  for (size_t p = 0; p < pairs.size(); ++p) {
    const auto expected = MatchDescriptorsCpu(NormalizedDescriptors(sets[pairs[p].image1], true),
                                              NormalizedDescriptors(sets[pairs[p].image2], true),
                                              options.max_ratio, options.cross_check);
    ASSERT_EQ(result[p].size(), expected.size()) << p;
    for (size_t m = 0; m < expected.size(); ++m) {
      EXPECT_EQ(result[p][m].index1, expected[m].index1) << p;
      EXPECT_EQ(result[p][m].index2, expected[m].index2) << p;
    }
  }
  EXPECT_GT(result[2].size(), 300u);  // image 2 against its noisy copy: most rows match
}

TEST(CpuDescriptorMatcher, RatioTestRejectsAmbiguousMatches) {
  std::mt19937_64 rng(2);
  FeatureSet a = RandomFeatures(1, &rng);
  a.keypoints.resize(2);
  a.descriptors.resize(2 * kSiftDescriptorSize, 7);
  // b holds two identical copies of a's first descriptor: the best two are equally close.
  FeatureSet b;
  b.keypoints.resize(2);
  b.descriptors.assign(a.descriptors.begin(), a.descriptors.begin() + kSiftDescriptorSize);
  b.descriptors.insert(b.descriptors.end(), a.descriptors.begin(),
                       a.descriptors.begin() + kSiftDescriptorSize);
  const auto da = NormalizedDescriptors(a, true);
  const auto db = NormalizedDescriptors(b, true);
  EXPECT_TRUE(MatchDescriptorsCpu(da, db, 0.8, false).empty());
}

TEST(CpuDescriptorMatcher, CrossCheckKeepsOnlyMutualNeighbours) {
  // Two queries share the same nearest neighbour; only the closer one survives cross-check.
  DescriptorMatrix a(2, kSiftDescriptorSize), b(3, kSiftDescriptorSize);
  a.setZero();
  b.setZero();
  a(0, 0) = 1;
  a(1, 0) = 0.9f;
  a(1, 1) = 0.1f;
  b(0, 0) = 1;
  b(1, 5) = 1;
  b(2, 9) = 1;
  for (int r = 0; r < 2; ++r) a.row(r).normalize();
  const auto with = MatchDescriptorsCpu(a, b, 0.95, true);
  const auto without = MatchDescriptorsCpu(a, b, 0.95, false);
  ASSERT_EQ(without.size(), 2u);
  ASSERT_EQ(with.size(), 1u);
  EXPECT_EQ(with[0].index1, 0);
  EXPECT_EQ(with[0].index2, 0);
}

TEST(RootSift, RowsHaveUnitNorm) {
  std::mt19937_64 rng(3);
  const FeatureSet f = RandomFeatures(10, &rng);
  const auto root = NormalizedDescriptors(f, true);
  for (int i = 0; i < 10; ++i) EXPECT_NEAR(root.row(i).norm(), 1.0f, 1e-5f);
}

}  // namespace
}  // namespace proj
