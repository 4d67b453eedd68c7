#include "sfm/stages/pair_chunks.h"

#include <algorithm>
#include <set>

#include <gtest/gtest.h>

#include "matching/pair_selection.h"

namespace proj {
namespace {

void ExpectValidChunks(const std::vector<ImagePair>& pairs, const std::vector<PairChunk>& chunks,
                       int max_images) {
  std::vector<int> seen(pairs.size(), 0);
  for (const PairChunk& chunk : chunks) {
    EXPECT_LE(static_cast<int>(chunk.images.size()), max_images);
    EXPECT_TRUE(std::is_sorted(chunk.images.begin(), chunk.images.end()));
    for (size_t p : chunk.pair_indices) {
      ++seen[p];
      EXPECT_TRUE(std::binary_search(chunk.images.begin(), chunk.images.end(), pairs[p].image1));
      EXPECT_TRUE(std::binary_search(chunk.images.begin(), chunk.images.end(), pairs[p].image2));
    }
  }
  for (size_t p = 0; p < pairs.size(); ++p) EXPECT_EQ(seen[p], 1) << "pair " << p;
}

TEST(PairChunks, ExhaustivePairsStayWithinTheImageBoundAndLoadEachBlockOncePerRow) {
  PairSelectionOptions selection;
  const std::vector<ImagePair> pairs = SelectImagePairs(selection, 200);
  const int max_images = 40;
  const std::vector<PairChunk> chunks = ChunkPairs(pairs, max_images);
  ExpectValidChunks(pairs, chunks, max_images);
  // Loads with a cache of one chunk: 10 blocks of 20 -> the block pairs (i, j), i <= j.
  ChunkCache<int> cache([](int key) { return key; });
  for (const PairChunk& chunk : chunks) cache.Prepare(chunk.images);
  EXPECT_LE(chunks.size(), 55u);
  EXPECT_LE(cache.num_loads(), 200 + 45 * 20);
}

TEST(PairChunks, SequentialWindowsAreChunkedInOrder) {
  PairSelectionOptions selection;
  selection.mode = PairSelection::kSequential;
  selection.overlap = 5;
  const std::vector<ImagePair> pairs = SelectImagePairs(selection, 1000);
  const std::vector<PairChunk> chunks = ChunkPairs(pairs, 50);
  ExpectValidChunks(pairs, chunks, 50);
  ChunkCache<int> cache([](int key) { return key; });
  for (const PairChunk& chunk : chunks) cache.Prepare(chunk.images);
  // Each image is loaded about once (a window spans at most two blocks).
  EXPECT_LE(cache.num_loads(), 1000 * 2);
}

TEST(PairChunks, EmptyAndTinyInputs) {
  EXPECT_TRUE(ChunkPairs({}, 10).empty());
  const std::vector<PairChunk> chunks = ChunkPairs({{0, 1}, {1, 2}, {0, 2}}, 2);
  ExpectValidChunks({{0, 1}, {1, 2}, {0, 2}}, chunks, 2);
  EXPECT_EQ(chunks.size(), 3u);
}

}  // namespace
}  // namespace proj

namespace proj {
namespace {

TEST(PairChunks, PositionsAndLocalIndicesMapBackToTheImages) {
  const std::vector<ImagePair> pairs = {{7, 3}, {3, 12}, {12, 7}, {40, 3}};
  const PositionedPairs positioned = ToPositions(pairs);
  EXPECT_EQ(positioned.image_of_position, (std::vector<int>{7, 3, 12, 40}));
  for (const PairChunk& chunk : ChunkPairs(positioned.pairs, 3)) {
    const std::vector<ImagePair> local = ChunkLocalPairs(chunk, positioned.pairs);
    ASSERT_EQ(local.size(), chunk.pair_indices.size());
    for (size_t k = 0; k < local.size(); ++k) {
      const ImagePair& original = pairs[chunk.pair_indices[k]];
      EXPECT_EQ(positioned.image_of_position[chunk.images[local[k].image1]], original.image1);
      EXPECT_EQ(positioned.image_of_position[chunk.images[local[k].image2]], original.image2);
    }
  }
}

}  // namespace
}  // namespace proj
