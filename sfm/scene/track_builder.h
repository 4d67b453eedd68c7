// Builds feature tracks from verified pairwise matches by union-find over (image, keypoint)
// observations, keeping every track consistent: at most one keypoint per image.
//
// Matches are joined pair by pair, pairs with the most verified inliers first. A match whose
// union would put two different keypoints of one image in one track is refused (the match is
// dropped, both tracks stay): a wrong match then splits a chain instead of removing it whole.
// Dropping every inconsistent component (COLMAP's rule) loses most observations on dense view
// sets, where union-find chains most features of all images into one component (issue 26:
// 83% of the features at 363 views of one object).
//
// A refused match is also evidence against the tracks it would have joined: on scenes of
// repeated structure (Strecha's entry and castle) it is the visible end of a chain of wrong
// matches, and keeping those tracks costs 5-7% of the accuracy. In dense view sets, though,
// right tracks meet refused matches too (5% of the matches at 300 views of one object), in
// proportion to their length. So a track is dropped when more refused matches touch it than
// the scene's rate explains: more than m + contest_sigma * sqrt(m), m = the matches that
// joined it times the scene's refused touches per joined match.
//
// Keypoints of one image at the same position (SIFT's extra orientations: one location, two
// descriptors) are one observation: each group of them is represented by its lowest keypoint
// index, the only one a track holds; the others stay outside tracks (track_of kInvalidId).
#pragma once

#include <vector>

#include "matching/matching_types.h"
#include "sfm/scene/scene.h"

namespace proj {

struct TrackBuilderOptions {
  // Keypoints of one image closer than this (pixels) are one observation.
  double colocated_max_px = 0.5;
  // Refused matches touching a track beyond its expected share, in standard deviations
  // (Poisson); +infinity keeps every track.
  double contest_sigma = 3;
  void Check() const;  // throws InputError naming the field
};

struct TrackSet {
  std::vector<std::vector<TrackElement>> tracks;  // each with >= 2 observations, one per image, by image
  // track_of[image][keypoint] = index into tracks, or kInvalidId.
  std::vector<std::vector<int>> track_of;
  int num_refused_matches = 0;      // matches whose union would have made a track inconsistent
  int num_colocated_keypoints = 0;  // keypoints merged into another at the same position
  int num_contested_tracks = 0;     // tracks dropped for their refused matches
  int num_matched_features = 0;     // observations (after merging) in at least one match
  int num_features_in_tracks = 0;   // of those, the ones a track holds

  // Share of the matched features that tracks hold (1 when none are matched).
  double KeptShare() const;
};

// `scene.images[i].keypoints` are image i's keypoint positions; matches index into them.
TrackSet BuildTracks(const Scene& scene, const std::vector<PairMatches>& verified_matches,
                     const TrackBuilderOptions& options = {});

// For each keypoint of `keypoints`, the lowest index of the keypoints within max_px of it
// (chained: a keypoint within max_px of a group's member joins the group).
std::vector<int> ColocatedRepresentatives(const std::vector<Eigen::Vector2d>& keypoints, double max_px);

}  // namespace proj
