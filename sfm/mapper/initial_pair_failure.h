// Why no initial pair started a model, for the mapper's failure message: how many pairs had
// enough verified inliers, at which step the tried ones failed, and how much of the matches
// the tracks hold (a pair with hundreds of inliers whose matches the tracks lost triangulates
// a handful of points: the failure is then the tracks', not the parallax's).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sfm/scene/track_builder.h"
#include "sfm/scene/view_graph.h"

namespace proj {

struct InitialPairAttempts {
  enum class Outcome {
    kFewPoseInliers,   // the relative pose had fewer than the wanted points as inliers
    kLowParallax,      // its inliers' median triangulation angle was too small
    kFewTrackPoints,   // the pair's tracks triangulated too few points
  };
  std::map<std::pair<int, int>, Outcome> last_outcome;  // by pair (image1, image2): its last try
  int most_track_points = 0;          // the most points a tried pair's tracks triangulated
  double widest_median_angle_deg = 0;  // the widest median angle among the tried pairs

  void Record(const ImagePair& pair, Outcome outcome) { last_outcome[{pair.image1, pair.image2}] = outcome; }
};

// One sentence: "no initial pair: ..." with the counts behind it.
std::string DescribeInitialPairFailure(const InitialPairAttempts& attempts, const std::vector<VerifiedPair>& pairs,
                                       const TrackSet& tracks, int min_num_points, double lowest_angle_deg);

}  // namespace proj
