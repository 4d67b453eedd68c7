#include "sfm/mapper/initial_pair_failure.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace proj {

std::string DescribeInitialPairFailure(const InitialPairAttempts& attempts, const std::vector<VerifiedPair>& pairs,
                                       const TrackSet& tracks, int min_num_points, double lowest_angle_deg) {
  int enough_inliers = 0;
  size_t most_inliers = 0;
  for (const VerifiedPair& pair : pairs) {
    const size_t inliers = pair.geometry.inlier_matches.size();
    enough_inliers += static_cast<int>(inliers) >= min_num_points ? 1 : 0;
    most_inliers = std::max(most_inliers, inliers);
  }
  int few_pose_inliers = 0, low_parallax = 0, few_track_points = 0;
  for (const auto& [pair, outcome] : attempts.last_outcome) {
    few_pose_inliers += outcome == InitialPairAttempts::Outcome::kFewPoseInliers ? 1 : 0;
    low_parallax += outcome == InitialPairAttempts::Outcome::kLowParallax ? 1 : 0;
    few_track_points += outcome == InitialPairAttempts::Outcome::kFewTrackPoints ? 1 : 0;
  }
  std::ostringstream out;
  out << std::fixed << std::setprecision(1) << "no initial pair: " << enough_inliers << " of " << pairs.size()
      << " verified pairs have at least " << min_num_points << " inliers (the most: " << most_inliers << ")";
  if (!attempts.last_outcome.empty()) {
    out << "; of the " << attempts.last_outcome.size() << " tried, " << few_track_points << " triangulated fewer than "
        << min_num_points << " points from their tracks (the most: " << attempts.most_track_points << "), "
        << low_parallax << " had a median triangulation angle below " << lowest_angle_deg << " deg (the widest: "
        << attempts.widest_median_angle_deg << " deg), " << few_pose_inliers << " fewer than " << min_num_points
        << " relative pose inliers";
  }
  out << "; the tracks hold " << tracks.num_features_in_tracks << " of the " << tracks.num_matched_features
      << " matched features (" << 100 * tracks.KeptShare() << "%)";
  return out.str();
}

}  // namespace proj
