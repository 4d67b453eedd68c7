// Image retrieval by visual words (matching/image_retrieval.h): images of one place are alike,
// and loop pairs link a sequence's revisits of a place, not its neighbours.
#include "matching/image_retrieval.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/check.h"
#include "features/feature_types.h"

namespace proj {
namespace {

// Each place has 8 descriptors of its own; an image of a place shows 6 of them at random, each
// perturbed by a little noise: clusters of descriptors, one word each for a vocabulary of as
// many words as the places have descriptors.
struct Places {
  std::vector<DescriptorList> bases;
  std::mt19937_64 rng{5};

  explicit Places(int count) {
    std::uniform_int_distribution<int> byte(0, 255);
    for (int p = 0; p < count; ++p) {
      DescriptorList base(8 * kSiftDescriptorSize);
      for (auto& value : base) value = static_cast<uint8_t>(byte(rng));
      bases.push_back(base);
    }
  }
  DescriptorList Image(int place) {
    std::uniform_int_distribution<int> pick(0, 7), noise(-3, 3);
    DescriptorList image;
    for (int d = 0; d < 6; ++d) {
      const int index = pick(rng);
      for (int c = 0; c < kSiftDescriptorSize; ++c) {
        const int value = bases[place][index * kSiftDescriptorSize + c] + noise(rng);
        image.push_back(static_cast<uint8_t>(std::clamp(value, 0, 255)));
      }
    }
    return image;
  }
};

RetrievalOptions Vocabulary(int words) {
  RetrievalOptions options;
  options.vocabulary_size = words;
  options.max_training_descriptors = 2000;
  options.num_threads = 2;
  return options;
}

TEST(ImageRetrieval, ImagesOfOnePlaceAreMoreAlikeThanOfOthers) {
  Places places(4);
  std::vector<DescriptorList> images;
  for (int i = 0; i < 16; ++i) images.push_back(places.Image(i % 4));
  const auto vectors = ComputeImageVectors(16, [&](int i) { return images[i]; }, Vocabulary(32));
  ASSERT_EQ(vectors.size(), 16u);
  for (int i = 0; i < 16; ++i) {
    EXPECT_NEAR(ImageSimilarity(vectors[i], vectors[i]), 1.0, 1e-5);
    float worst_same = 1, best_other = 0;
    for (int j = 0; j < 16; ++j) {
      if (j == i) continue;
      const float similarity = ImageSimilarity(vectors[i], vectors[j]);
      if (j % 4 == i % 4) worst_same = std::min(worst_same, similarity);
      if (j % 4 != i % 4) best_other = std::max(best_other, similarity);
    }
    EXPECT_GT(worst_same, best_other + 0.1) << "image " << i;
  }
}

TEST(ImageRetrieval, LoopPairsLinkRevisitsBeyondTheWindow) {
  // A sequence through places 0..11, then back past 0, 1 and 2; neighbours share a place.
  Places places(12);
  std::vector<int> place_of;
  for (int p = 0; p < 12; ++p) place_of.insert(place_of.end(), {p, p});
  place_of.insert(place_of.end(), {0, 1, 2});
  std::vector<DescriptorList> images;
  for (int place : place_of) images.push_back(places.Image(place));
  const int n = static_cast<int>(images.size());
  const auto vectors = ComputeImageVectors(n, [&](int i) { return images[i]; }, Vocabulary(96));
  LoopPairOptions options;
  options.query_period = 1;
  options.num_candidates = 1;
  options.min_gap = 6;
  const std::vector<ImagePair> pairs = SelectLoopPairs(vectors, options);
  ASSERT_FALSE(pairs.empty());
  for (const ImagePair& pair : pairs) {
    EXPECT_GE(pair.image2 - pair.image1, options.min_gap);
    // Places seen once have nothing alike beyond the window (min_similarity keeps them out).
    EXPECT_EQ(place_of[pair.image1], place_of[pair.image2]) << pair.image1 << " and " << pair.image2;
  }
  // The revisiting images 24..26 each find their place's earlier images.
  for (int late = 24; late < n; ++late) {
    const bool found = std::any_of(pairs.begin(), pairs.end(), [&](const ImagePair& pair) {
      return pair.image2 == late && place_of[pair.image1] == place_of[late];
    });
    EXPECT_TRUE(found) << "image " << late;
  }
  // No candidates: no pairs; bad options are refused.
  options.num_candidates = 0;
  EXPECT_TRUE(SelectLoopPairs(vectors, options).empty());
  options.query_period = 0;
  EXPECT_THROW(SelectLoopPairs(vectors, options), InputError);
}

TEST(ImageRetrieval, ImagesWithoutDescriptorsGetZeroVectors) {
  Places places(2);
  std::vector<DescriptorList> images = {places.Image(0), {}, places.Image(1)};
  // Fewer descriptors (12) than words: one word per descriptor.
  const auto vectors = ComputeImageVectors(3, [&](int i) { return images[i]; }, Vocabulary(256));
  ASSERT_EQ(vectors[0].size(), 12u);
  EXPECT_EQ(ImageSimilarity(vectors[1], vectors[0]), 0.0f);
  EXPECT_GT(ImageSimilarity(vectors[0], vectors[0]), 0.99f);
}

}  // namespace
}  // namespace proj
