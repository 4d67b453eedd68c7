// Loop closure of ordered input (--matcher sequential; --matcher klt with --klt-keyframe-sift):
// when the path returns to a place it passed, the images of the two passes are far apart in
// name order, so neither the sequential window nor the KLT tracks pair them, and the model
// drifts apart where it should close. The images are compared by a bag of visual words of
// their SIFT descriptors (matching/image_retrieval.h); every few images query their most
// similar images beyond the window, and those pairs are matched and verified like the others.
// A loop pair that does not verify costs its matching time and nothing else.
#pragma once

#include <string>
#include <vector>

#include "matching/image_retrieval.h"
#include "sfm/database/scene_database.h"

namespace proj {

struct LoopClosureOptions {
  bool enabled = true;
  RetrievalOptions retrieval;
  LoopPairOptions pairs;  // pairs.min_gap is raised to the caller's window + 1
  void Check() const;
};

// Loop pairs (database image ids, image1 < image2) among `image_ids`, which are in sequence
// order, at least window + 1 positions apart; descriptors are read from `database`.
std::vector<ImagePair> SelectLoopClosurePairs(const LoopClosureOptions& options,
                                              const SceneDatabase& database,
                                              const std::vector<int>& image_ids, int window);

}  // namespace proj
