// Builds feature tracks from verified pairwise matches by union-find over (image, keypoint)
// observations, keeping every track consistent: at most one position per image.
//
// Joining every match gives chains; a chain holding two positions of one image holds a wrong
// match somewhere. COLMAP's rule drops such a chain whole. That is right for the short chains
// of repeated structure (Strecha's windows and arches: splitting them costs 2-6% of the
// accuracy on castle-P19 and entry-P10) but loses most observations on dense view sets, where
// a few wrong matches chain most features of all images into a handful of chains (issue 26:
// 83% of the features at 363 views of one object). So a chain is split when it needs many
// tracks (some image holds split_min_tracks of its positions) and dropped whole otherwise.
//
// Splitting: matches are joined pair by pair, pairs with the most verified inliers first; a
// match whose union would put two positions of one image in one track is refused (the match
// is dropped, both tracks stay). A refused match is also evidence against the tracks it would
// have joined, but right tracks of dense view sets meet refused matches too (5% of the
// matches at 300 views of one object), in proportion to their length. So a track is dropped
// when more refused matches touch it than the scene's rate explains: more than
// m + contest_sigma * sqrt(m), m = the matches that joined it times the scene's refused
// touches per joined match.
//
// Keypoints of one image at the same position (SIFT's extra orientations: one location, two
// descriptors) are one position: a track may join them, and then lists the lowest of them
// (the others keep track_of kInvalidId but count as held). Unjoined, they stay in separate
// tracks as before.
#pragma once

#include <vector>

#include "matching/matching_types.h"
#include "sfm/scene/scene.h"

namespace proj {

struct TrackBuilderOptions {
  // Keypoints of one image closer than this (pixels) are one position. 0: only keypoints at
  // exactly one position (SIFT's orientations of one point), not neighbouring detections of
  // other scales: at 0.5 px fountain-P11's error grew by 1%.
  double colocated_max_px = 0;
  // Refused matches touching a track beyond its expected share, in standard deviations
  // (Poisson); +infinity keeps every track.
  double contest_sigma = 3;
  // A chain holding different positions of one image is split into consistent tracks when it
  // needs at least this many (some image holds this many of its positions); one that fewer
  // tracks explain is dropped whole. Strecha's chains need up to 5 (castle-P19), those of 100
  // views of one object up to 24; at 3, entry-P10 lost 3% of its accuracy.
  int split_min_tracks = 5;
  void Check() const;  // throws InputError naming the field
};

struct TrackSet {
  std::vector<std::vector<TrackElement>> tracks;  // each with >= 2 observations, one per image, by image
  // track_of[image][keypoint] = index into tracks, or kInvalidId.
  std::vector<std::vector<int>> track_of;
  int num_refused_matches = 0;      // matches whose union would have made a track inconsistent
  int num_colocated_keypoints = 0;  // keypoints a track holds through a co-located one it lists
  int num_contested_tracks = 0;     // tracks dropped for their refused matches
  int num_dropped_chains = 0;       // conflicting chains dropped whole (fewer than split_min_tracks)
  int num_matched_features = 0;     // keypoints in at least one match
  int num_features_in_tracks = 0;   // of those, the ones a track holds (itself or a co-located one)

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
