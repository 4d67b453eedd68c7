// Triangulation of one feature track against the registered images of a scene, and extension
// of an existing point by the track's observations in newly registered images.
#pragma once

#include <optional>
#include <vector>

#include "sfm/scene/scene.h"

namespace proj {

// Which observations of a track make its point when some disagree.
enum class TrackTriangulation {
  // Triangulated from all of them, the worst-reprojecting one dropped until every remaining
  // error is <= max_error_px: enough for a track met a few images at a time, as the incremental
  // mapper meets them.
  kDropWorst,
  // kDropWorst, and when it drops any: the largest subset that agrees with a two-view seed
  // (every pair of a short track, 91 drawn from a long one), when larger. A whole long track
  // triangulated at once (the merged parts of a partitioned mapping) holds mismatches chained
  // into it; a linear solution over all of them is pulled towards them and dropping the worst
  // can keep the wrong side: the merged 200-image flight in 4 parts so lost 10,000 observations
  // one run of the whole kept and held 3,200 it did not (RESULTS-mapping, "Merged parts
  // triangulated").
  kLargestAgreeingSubset,
};

// A point for the track's observations in registered images, by `rule`, every observation kept
// within max_error_px (at least two), and kept only when its largest triangulation angle is
// >= min_angle_deg. The returned point's track holds the observations kept. nullopt when none
// qualifies.
std::optional<Point3D> TriangulateTrack(const Scene& scene, const std::vector<TrackElement>& track,
                                        double max_error_px, double min_angle_deg,
                                        TrackTriangulation rule = TrackTriangulation::kDropWorst);

// Adds to point `point_id` the observations of `track` in registered images whose keypoint
// observes no point yet and reprojects within max_error_px. Returns how many were added.
int ExtendPoint(const std::vector<TrackElement>& track, int point_id, double max_error_px,
                Scene* scene);

}  // namespace proj
