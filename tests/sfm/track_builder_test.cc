#include "sfm/scene/track_builder.h"

#include <gtest/gtest.h>

namespace proj {
namespace {

TEST(TrackBuilder, ChainsMatchesAcrossImages) {
  // 0:5 - 1:3 - 2:7 form one track; 0:1 - 2:2 another.
  const std::vector<PairMatches> matches = {
      {{0, 1}, {{5, 3}}}, {{1, 2}, {{3, 7}}}, {{0, 2}, {{1, 2}}}};
  const TrackSet tracks = BuildTracks({10, 10, 10}, matches);
  ASSERT_EQ(tracks.tracks.size(), 2u);
  const int t = tracks.track_of[0][5];
  ASSERT_NE(t, kInvalidId);
  EXPECT_EQ(tracks.tracks[t].size(), 3u);
  EXPECT_EQ(tracks.track_of[1][3], t);
  EXPECT_EQ(tracks.track_of[2][7], t);
  EXPECT_EQ(tracks.track_of[2][2], tracks.track_of[0][1]);
  EXPECT_EQ(tracks.track_of[0][0], kInvalidId);
}

TEST(TrackBuilder, DropsTracksWithTwoKeypointsInOneImage) {
  // 0:1 matches 1:1 and 1:2 through image 2: the track holds two keypoints of image 1.
  const std::vector<PairMatches> matches = {
      {{0, 1}, {{1, 1}}}, {{0, 2}, {{1, 4}}}, {{1, 2}, {{2, 4}}}, {{0, 1}, {{3, 3}}}};
  const TrackSet tracks = BuildTracks({5, 5, 5}, matches);
  EXPECT_EQ(tracks.num_dropped_inconsistent, 1);
  ASSERT_EQ(tracks.tracks.size(), 1u);
  EXPECT_EQ(tracks.track_of[0][1], kInvalidId);
  EXPECT_EQ(tracks.track_of[0][3], 0);
}

}  // namespace
}  // namespace proj
