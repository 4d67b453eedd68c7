// Which feature tracks have a 3D point, and per image how many of its tracks do: the score by
// which the mapper picks the next image to register. Kept up to date as points are created and
// deleted, so choosing the next image costs O(images), not a rescan of every keypoint.
#pragma once

#include <vector>

#include "sfm/scene/scene.h"
#include "sfm/scene/track_builder.h"

namespace proj {

class TrackVisibility {
 public:
  // All tracks start without a point. Only the sizes of `tracks` are kept.
  explicit TrackVisibility(const TrackSet& tracks);

  // Track `track_id` (with observations `elements`, as in the TrackSet) now has point
  // `point_id`; it had none.
  void SetPoint(int track_id, int point_id, const std::vector<TrackElement>& elements);
  // The point of `track_id` was deleted from the scene; no-op when it had none.
  void ClearPoint(int track_id, const std::vector<TrackElement>& elements);

  // kInvalidId when the track has no point.
  int PointOfTrack(int track_id) const { return point_of_track_[track_id]; }
  // kInvalidId for a point that is not (or no longer) a track's point.
  int TrackOfPoint(int point_id) const;
  // Number of tracks through keypoints of `image_id` that have a point (one keypoint of an
  // image per track).
  int NumTracksWithPoint(int image_id) const { return tracks_with_point_[image_id]; }

 private:
  std::vector<int> point_of_track_;
  std::vector<int> track_of_point_;  // by point id (ids grow and are never reused)
  std::vector<int> tracks_with_point_;  // by image id
};

}  // namespace proj
