// Builds feature tracks from verified pairwise matches by union-find over (image, keypoint)
// observations. A track that would contain two keypoints of the same image is inconsistent
// (a wrong match somewhere) and is dropped, as COLMAP does.
#pragma once

#include <vector>

#include "matching/matching_types.h"
#include "sfm/scene/scene.h"

namespace proj {

struct TrackSet {
  std::vector<std::vector<TrackElement>> tracks;  // each with >= 2 observations, one per image
  // track_of[image][keypoint] = index into tracks, or kInvalidId.
  std::vector<std::vector<int>> track_of;
  int num_dropped_inconsistent = 0;
};

// `num_keypoints[i]` is the number of keypoints of image i; matches index into those.
TrackSet BuildTracks(const std::vector<int>& num_keypoints,
                     const std::vector<PairMatches>& verified_matches);

}  // namespace proj
