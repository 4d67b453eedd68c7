// Correspondences between the features of two images.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace proj {

struct FeatureMatch {
  int index1 = -1;  // keypoint index in the first image of the pair
  int index2 = -1;  // keypoint index in the second image
};

// Two images by index in the scene's image list, image1 < image2.
struct ImagePair {
  int image1 = -1;
  int image2 = -1;
};

struct PairMatches {
  ImagePair pair;
  std::vector<FeatureMatch> matches;
};

}  // namespace proj
