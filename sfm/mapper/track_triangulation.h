// Triangulation of one feature track against the registered images of a scene, and extension
// of an existing point by the track's observations in newly registered images.
#pragma once

#include <optional>
#include <vector>

#include "sfm/scene/scene.h"

namespace proj {

// A point for the track's observations in registered images: triangulated from all of them,
// dropping the worst-reprojecting one until every remaining error is <= max_error_px (at
// least two remain), and kept only when its largest triangulation angle is >= min_angle_deg.
// The returned point's track holds the observations kept. nullopt when none qualifies.
std::optional<Point3D> TriangulateTrack(const Scene& scene, const std::vector<TrackElement>& track,
                                        double max_error_px, double min_angle_deg);

// Adds to point `point_id` the observations of `track` in registered images whose keypoint
// observes no point yet and reprojects within max_error_px. Returns how many were added.
int ExtendPoint(const std::vector<TrackElement>& track, int point_id, double max_error_px,
                Scene* scene);

}  // namespace proj
