// Work on image pairs in chunks that each touch a bounded number of images, so that a stage
// holds the features of one chunk at a time rather than of every image (COLMAP's matcher
// cache does the same): memory stays bounded at 10,000 images.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <vector>

#include "matching/matching_types.h"

namespace proj {

struct PairChunk {
  std::vector<int> images;           // every image the chunk's pairs use, increasing
  std::vector<size_t> pair_indices;  // into the list given to ChunkPairs
};

// Splits `pairs` (images given as positions 0..n-1) into chunks of at most `max_images`
// images (>= 2). Pairs are taken in blocks of max_images / 2 consecutive positions (block of
// the first image, then of the second), so consecutive chunks share a block and the images
// of a sequence window stay together. Every pair is in exactly one chunk.
std::vector<PairChunk> ChunkPairs(const std::vector<ImagePair>& pairs, int max_images);

// Pairs of any image ids renumbered as positions 0..n-1 in order of first appearance, the
// form ChunkPairs works on.
struct PositionedPairs {
  std::vector<int> image_of_position;
  std::vector<ImagePair> pairs;  // pairs[p] of the input, in positions
};
PositionedPairs ToPositions(const std::vector<ImagePair>& pairs);

// The chunk's pairs with images numbered by their index in chunk.images.
std::vector<ImagePair> ChunkLocalPairs(const PairChunk& chunk, const std::vector<ImagePair>& positioned);

// The values of one chunk's images, loaded on demand: Prepare(keys) drops what the next
// chunk does not need and loads what it lacks, so consecutive chunks sharing a block load it
// once.
template <typename Value>
class ChunkCache {
 public:
  explicit ChunkCache(std::function<Value(int key)> load) : load_(std::move(load)) {}

  void Prepare(const std::vector<int>& keys) {
    std::map<int, Value> kept;
    for (int key : keys) {
      auto found = values_.find(key);
      if (found != values_.end()) {
        kept.emplace(key, std::move(found->second));
      } else {
        kept.emplace(key, load_(key));
        ++num_loads_;
      }
    }
    values_ = std::move(kept);
  }
  const Value& Get(int key) const { return values_.at(key); }
  // The chunk's values in the order of chunk.images, moved out (after Prepare) and back.
  std::vector<Value> Take(const PairChunk& chunk) {
    std::vector<Value> taken;
    for (int key : chunk.images) taken.push_back(std::move(values_.at(key)));
    return taken;
  }
  void Return(const PairChunk& chunk, std::vector<Value>&& taken) {
    for (size_t k = 0; k < chunk.images.size(); ++k) values_.at(chunk.images[k]) = std::move(taken[k]);
  }
  long long num_loads() const { return num_loads_; }

 private:
  std::function<Value(int key)> load_;
  std::map<int, Value> values_;
  long long num_loads_ = 0;
};

}  // namespace proj
