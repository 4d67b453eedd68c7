#include "sfm/mapper/track_visibility.h"

#include <random>

#include <gtest/gtest.h>

#include "tests/sfm/mapper/mapper_test_scene.h"

namespace proj {
namespace {

// Random sequences of point creation, extension and deletion (whole points, and single
// observations that may delete their point) keep the counts equal to a full rescan.
TEST(TrackVisibility, IncrementalCountsMatchRecountAfterRandomEdits) {
  testing::SyntheticSceneOptions options;
  options.num_images = 8;
  options.num_points = 150;
  const testing::MapperTestScene test = testing::MakeMapperTestScene(options);
  Scene scene = test.input;
  const TrackSet& tracks = test.tracks;
  TrackVisibility visibility(tracks);
  std::mt19937_64 rng(7);
  const int num_tracks = static_cast<int>(tracks.tracks.size());
  auto sync_deleted = [&](int track) {
    const int point = visibility.PointOfTrack(track);
    if (point != kInvalidId && !scene.points.count(point)) {
      visibility.ClearPoint(track, tracks.tracks[track]);
    }
  };
  for (int step = 0; step < 3000; ++step) {
    const int track = std::uniform_int_distribution<int>(0, num_tracks - 1)(rng);
    const auto& elements = tracks.tracks[track];
    const int point = visibility.PointOfTrack(track);
    const int op = std::uniform_int_distribution<int>(0, 3)(rng);
    if (point == kInvalidId) {
      // Create from the first two observations.
      const int id = scene.AddPoint(Eigen::Vector3d::Zero(), {elements[0], elements[1]});
      visibility.SetPoint(track, id, elements);
    } else if (op == 0) {
      scene.DeletePoint(point);
      sync_deleted(track);
    } else if (op == 1) {
      const auto& observed = scene.points.at(point).track;
      const TrackElement e = observed[std::uniform_int_distribution<size_t>(
          0, observed.size() - 1)(rng)];
      scene.DeleteObservation(e.image_id, e.keypoint_index);  // may delete the point
      sync_deleted(track);
    } else {
      for (const auto& e : elements) {  // extend by one observation
        if (scene.images[e.image_id].point3d_ids[e.keypoint_index] == kInvalidId) {
          scene.AddObservation(point, e);
          break;
        }
      }
    }
    const std::vector<int> recount = testing::RecountTracksWithPoint(scene, tracks);
    for (size_t i = 0; i < recount.size(); ++i) {
      ASSERT_EQ(visibility.NumTracksWithPoint(static_cast<int>(i)), recount[i])
          << "image " << i << " after step " << step;
    }
  }
  for (const auto& [id, point] : scene.points) {
    const TrackElement& e = point.track.front();
    const int track = tracks.track_of[e.image_id][e.keypoint_index];
    EXPECT_EQ(visibility.PointOfTrack(track), id);
    EXPECT_EQ(visibility.TrackOfPoint(id), track);
  }
}

}  // namespace
}  // namespace proj
