#include "sfm/mapper/track_visibility.h"

#include "core/check.h"

namespace proj {

TrackVisibility::TrackVisibility(const TrackSet& tracks)
    : point_of_track_(tracks.tracks.size(), kInvalidId),
      tracks_with_point_(tracks.track_of.size(), 0) {}

void TrackVisibility::SetPoint(int track_id, int point_id,
                               const std::vector<TrackElement>& elements) {
  PROJ_CHECK(point_of_track_[track_id] == kInvalidId,
             "track " << track_id << " already has point " << point_of_track_[track_id]);
  PROJ_CHECK(point_id >= 0, "invalid point id " << point_id);
  point_of_track_[track_id] = point_id;
  if (static_cast<size_t>(point_id) >= track_of_point_.size()) {
    track_of_point_.resize(point_id + 1, kInvalidId);
  }
  track_of_point_[point_id] = track_id;
  for (const auto& element : elements) ++tracks_with_point_[element.image_id];
}

void TrackVisibility::ClearPoint(int track_id, const std::vector<TrackElement>& elements) {
  const int point_id = point_of_track_[track_id];
  if (point_id == kInvalidId) return;
  point_of_track_[track_id] = kInvalidId;
  track_of_point_[point_id] = kInvalidId;
  for (const auto& element : elements) --tracks_with_point_[element.image_id];
}

int TrackVisibility::TrackOfPoint(int point_id) const {
  if (point_id < 0 || static_cast<size_t>(point_id) >= track_of_point_.size()) return kInvalidId;
  return track_of_point_[point_id];
}

}  // namespace proj
