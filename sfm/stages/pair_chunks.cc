#include "sfm/stages/pair_chunks.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "core/check.h"

namespace proj {

std::vector<PairChunk> ChunkPairs(const std::vector<ImagePair>& pairs, int max_images) {
  PROJ_CHECK(max_images >= 2, "a chunk must hold at least the two images of a pair");
  const int block = std::max(1, max_images / 2);
  std::vector<size_t> order(pairs.size());
  std::iota(order.begin(), order.end(), 0);
  auto key = [&](size_t p) {
    const int a = std::min(pairs[p].image1, pairs[p].image2);
    const int b = std::max(pairs[p].image1, pairs[p].image2);
    return std::make_tuple(a / block, b / block, a, b);
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return key(x) < key(y); });

  std::vector<PairChunk> chunks;
  std::set<int> images;
  PairChunk chunk;
  auto close = [&]() {
    if (chunk.pair_indices.empty()) return;
    chunk.images.assign(images.begin(), images.end());
    chunks.push_back(std::move(chunk));
    chunk = PairChunk();
    images.clear();
  };
  for (size_t p : order) {
    const int added = (images.count(pairs[p].image1) ? 0 : 1) + (images.count(pairs[p].image2) ? 0 : 1);
    if (static_cast<int>(images.size()) + added > max_images) close();
    images.insert(pairs[p].image1);
    images.insert(pairs[p].image2);
    chunk.pair_indices.push_back(p);
  }
  close();
  return chunks;
}

PositionedPairs ToPositions(const std::vector<ImagePair>& pairs) {
  PositionedPairs result;
  std::map<int, int> position_of;
  auto position = [&](int id) {
    auto [it, inserted] = position_of.emplace(id, static_cast<int>(result.image_of_position.size()));
    if (inserted) result.image_of_position.push_back(id);
    return it->second;
  };
  for (const ImagePair& pair : pairs) {
    const int position1 = position(pair.image1);
    result.pairs.push_back({position1, position(pair.image2)});
  }
  return result;
}

std::vector<ImagePair> ChunkLocalPairs(const PairChunk& chunk, const std::vector<ImagePair>& positioned) {
  auto local = [&](int position) {
    return static_cast<int>(std::lower_bound(chunk.images.begin(), chunk.images.end(), position) -
                            chunk.images.begin());
  };
  std::vector<ImagePair> pairs;
  for (size_t p : chunk.pair_indices) pairs.push_back({local(positioned[p].image1), local(positioned[p].image2)});
  return pairs;
}

}  // namespace proj
