#include "sfm/stages/loop_closure.h"

#include <algorithm>

#include "core/logging.h"

namespace proj {

void LoopClosureOptions::Check() const {
  retrieval.Check();
  pairs.Check();
}

std::vector<ImagePair> SelectLoopClosurePairs(const LoopClosureOptions& options,
                                              const SceneDatabase& database,
                                              const std::vector<int>& image_ids, int window) {
  options.Check();
  if (!options.enabled || options.pairs.num_candidates == 0) return {};
  LoopPairOptions pair_options = options.pairs;
  pair_options.min_gap = std::max(pair_options.min_gap, window + 1);
  if (static_cast<int>(image_ids.size()) <= pair_options.min_gap) return {};
  const std::vector<std::vector<float>> vectors = ComputeImageVectors(
      static_cast<int>(image_ids.size()),
      [&](int index) { return database.ReadDescriptors(image_ids[index]); }, options.retrieval);
  std::vector<ImagePair> pairs;
  for (const ImagePair& pair : SelectLoopPairs(vectors, pair_options)) {
    pairs.push_back({image_ids[pair.image1], image_ids[pair.image2]});
  }
  return pairs;
}

}  // namespace proj
