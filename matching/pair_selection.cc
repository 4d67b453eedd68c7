#include "matching/pair_selection.h"

#include <algorithm>

#include "core/check.h"

namespace proj {

void PairSelectionOptions::Check() const {
  PROJ_REQUIRE(overlap >= 1, "--overlap must be >= 1 (got " << overlap << ")");
}

std::vector<ImagePair> SelectImagePairs(const PairSelectionOptions& options, int num_images) {
  options.Check();
  std::vector<ImagePair> pairs;
  for (int i = 0; i < num_images; ++i) {
    const int last = options.mode == PairSelection::kExhaustive
                         ? num_images - 1
                         : std::min(num_images - 1, i + options.overlap);
    for (int j = i + 1; j <= last; ++j) pairs.push_back({i, j});
  }
  return pairs;
}

}  // namespace proj
