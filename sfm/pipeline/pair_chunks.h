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
  Value& Mutable(int key) { return values_.at(key); }
  long long num_loads() const { return num_loads_; }

 private:
  std::function<Value(int key)> load_;
  std::map<int, Value> values_;
  long long num_loads_ = 0;
};

}  // namespace proj
