// Which image pairs to match: all pairs, or each image with the next K in name order.
#pragma once

#include <vector>

#include "matching/matching_types.h"

namespace proj {

enum class PairSelection { kExhaustive, kSequential };

struct PairSelectionOptions {
  PairSelection mode = PairSelection::kExhaustive;
  int overlap = 10;  // sequential: each image is paired with the next `overlap` images
  void Check() const;
};

std::vector<ImagePair> SelectImagePairs(const PairSelectionOptions& options, int num_images);

}  // namespace proj
