#include "sfm/scene/track_builder.h"

#include <algorithm>
#include <limits>
#include <random>

#include <gtest/gtest.h>

namespace proj {
namespace {

// `num_images` images of `num_keypoints` keypoints each, all at distinct positions.
Scene SceneWithKeypoints(int num_images, int num_keypoints) {
  Scene scene;
  scene.images.resize(num_images);
  for (auto& image : scene.images) {
    for (int k = 0; k < num_keypoints; ++k) image.keypoints.emplace_back(10.5 + 7 * k, 20.5 + 3 * k);
  }
  return scene;
}

// Options that split every conflicting chain (however few tracks it needs).
TrackBuilderOptions SplitEveryChain() {
  TrackBuilderOptions options;
  options.split_min_tracks = 2;
  return options;
}

// Options that split every conflicting chain and keep every track however many matches were
// refused against it.
TrackBuilderOptions KeepContested() {
  TrackBuilderOptions options = SplitEveryChain();
  options.contest_sigma = std::numeric_limits<double>::infinity();
  return options;
}

// True if every track holds at most one keypoint per image, track_of agrees with the tracks
// and the held features are the listed ones and their co-located keypoints.
bool Consistent(const TrackSet& tracks) {
  int num_linked = 0;
  for (const auto& of_image : tracks.track_of) {
    num_linked += static_cast<int>(std::count_if(of_image.begin(), of_image.end(), [](int t) { return t != kInvalidId; }));
  }
  int num_elements = 0;
  for (size_t t = 0; t < tracks.tracks.size(); ++t) {
    const auto& track = tracks.tracks[t];
    num_elements += static_cast<int>(track.size());
    for (size_t i = 0; i < track.size(); ++i) {
      if (i > 0 && track[i].image_id <= track[i - 1].image_id) return false;
      if (tracks.track_of[track[i].image_id][track[i].keypoint_index] != static_cast<int>(t)) return false;
    }
  }
  return num_linked == num_elements && num_elements + tracks.num_colocated_keypoints == tracks.num_features_in_tracks;
}

TEST(TrackBuilder, ChainsMatchesAcrossImages) {
  // 0:5 - 1:3 - 2:7 form one track; 0:1 - 2:2 another.
  const std::vector<PairMatches> matches = {
      {{0, 1}, {{5, 3}}}, {{1, 2}, {{3, 7}}}, {{0, 2}, {{1, 2}}}};
  const TrackSet tracks = BuildTracks(SceneWithKeypoints(3, 10), matches);
  ASSERT_EQ(tracks.tracks.size(), 2u);
  const int t = tracks.track_of[0][5];
  ASSERT_NE(t, kInvalidId);
  EXPECT_EQ(tracks.tracks[t].size(), 3u);
  EXPECT_EQ(tracks.track_of[1][3], t);
  EXPECT_EQ(tracks.track_of[2][7], t);
  EXPECT_EQ(tracks.track_of[2][2], tracks.track_of[0][1]);
  EXPECT_EQ(tracks.track_of[0][0], kInvalidId);
  EXPECT_EQ(tracks.num_refused_matches, 0);
  EXPECT_EQ(tracks.num_matched_features, 5);
  EXPECT_EQ(tracks.num_features_in_tracks, 5);
  EXPECT_TRUE(Consistent(tracks));
}

TEST(TrackBuilder, SplitsAConflictingChainInsteadOfDroppingIt) {
  // 0:1 - 1:1 and 0:1 - 2:4 agree; the weakest pair's 1:2 - 2:4 would put keypoints 1 and 2
  // of image 1 in one track: that match alone is refused.
  const std::vector<PairMatches> matches = {{{1, 2}, {{2, 4}}},
                                            {{0, 1}, {{1, 1}, {3, 3}, {4, 4}}},
                                            {{0, 2}, {{1, 4}, {3, 3}}}};
  const TrackSet tracks = BuildTracks(SceneWithKeypoints(3, 5), matches, KeepContested());
  EXPECT_EQ(tracks.num_refused_matches, 1);
  const int t = tracks.track_of[0][1];
  ASSERT_NE(t, kInvalidId);
  EXPECT_EQ(tracks.tracks[t].size(), 3u);
  EXPECT_EQ(tracks.track_of[1][1], t);
  EXPECT_EQ(tracks.track_of[2][4], t);
  EXPECT_EQ(tracks.track_of[1][2], kInvalidId);
  EXPECT_EQ(tracks.tracks[tracks.track_of[0][3]].size(), 3u);
  EXPECT_EQ(tracks.num_matched_features, 9);  // 0:1,3,4  1:1,2,3,4  2:3,4
  EXPECT_EQ(tracks.num_features_in_tracks, 8);  // all but 1:2
  EXPECT_TRUE(Consistent(tracks));
}

TEST(TrackBuilder, DropsAChainThatTwoTracksExplain) {
  // The chain 0:1 - 1:1 - 2:4 - 1:2 holds two keypoints of image 1 only: by default it is
  // dropped whole (a wrong match between two tracks, as on repeated structure).
  const std::vector<PairMatches> matches = {{{1, 2}, {{2, 4}}},
                                            {{0, 1}, {{1, 1}, {3, 3}, {4, 4}}},
                                            {{0, 2}, {{1, 4}, {3, 3}}}};
  const TrackSet tracks = BuildTracks(SceneWithKeypoints(3, 5), matches);
  EXPECT_EQ(tracks.num_dropped_chains, 1);
  EXPECT_EQ(tracks.tracks.size(), 2u);  // 0:3 - 1:3 - 2:3 and 0:4 - 1:4
  EXPECT_EQ(tracks.track_of[0][1], kInvalidId);
  EXPECT_EQ(tracks.track_of[2][4], kInvalidId);
  EXPECT_EQ(tracks.num_features_in_tracks, 5);
  EXPECT_TRUE(Consistent(tracks));
}

TEST(TrackBuilder, SplitsAChainThatNeedsManyTracks) {
  // Five tracks (keypoints 0..4 of images 0..5, matched in every pair) chained by image 6's
  // keypoint 0, matched once to each of them: image 0 holds five positions of the chain.
  std::vector<PairMatches> matches;
  for (int i = 0; i < 6; ++i) {
    for (int j = i + 1; j < 6; ++j) matches.push_back({{i, j}, {{0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}}});
  }
  for (int k = 0; k < 5; ++k) matches.push_back({{k, 6}, {{k, 0}}});
  const Scene scene = SceneWithKeypoints(7, 5);
  TrackBuilderOptions split = KeepContested();
  split.split_min_tracks = 5;
  const TrackSet tracks = BuildTracks(scene, matches, split);
  EXPECT_EQ(tracks.num_dropped_chains, 0);
  EXPECT_EQ(tracks.num_refused_matches, 4);  // 6:0 joins the first track only
  EXPECT_EQ(tracks.tracks.size(), 5u);
  EXPECT_EQ(tracks.num_features_in_tracks, 31);
  EXPECT_TRUE(Consistent(tracks));

  split.split_min_tracks = 6;
  const TrackSet dropped = BuildTracks(scene, matches, split);
  EXPECT_EQ(dropped.num_dropped_chains, 1);
  EXPECT_TRUE(dropped.tracks.empty());
}

TEST(TrackBuilder, StrongestPairWins) {
  // 0:0 matches 1:0 in a pair of one match, and 1:1 through image 2 in pairs of three: the
  // weak pair's match is the one refused, wherever it comes in the input.
  const std::vector<PairMatches> matches = {{{0, 1}, {{0, 0}}},
                                            {{0, 2}, {{0, 0}, {2, 2}, {3, 3}}},
                                            {{1, 2}, {{1, 0}, {2, 2}, {3, 3}}}};
  const TrackSet tracks = BuildTracks(SceneWithKeypoints(3, 4), matches, KeepContested());
  EXPECT_EQ(tracks.num_refused_matches, 1);
  const int t = tracks.track_of[0][0];
  ASSERT_NE(t, kInvalidId);
  EXPECT_EQ(tracks.track_of[2][0], t);
  EXPECT_EQ(tracks.track_of[1][1], t);
  EXPECT_EQ(tracks.track_of[1][0], kInvalidId);
  EXPECT_TRUE(Consistent(tracks));
}

TEST(TrackBuilder, DropsAShortTrackARefusedMatchContestsButNotALongOne) {
  // Keypoints 1, 3, 5..9 matched across all pairs of images 0..5: seven tracks, 15 matches
  // joining each. Image 6's keypoint 1 joins 5:1, its match to 5:3 is refused; its keypoint 4
  // joins 0:4 and 1:4 (a short track), and 2:1 - 6:4 is refused. The long tracks bear a refused
  // match or two, as the scene's rate (4 touches per 108 joined matches) allows; the short one
  // does not.
  std::vector<PairMatches> matches;
  for (int i = 0; i < 6; ++i) {
    for (int j = i + 1; j < 6; ++j) matches.push_back({{i, j}, {{1, 1}, {3, 3}, {5, 5}, {6, 6}, {7, 7}, {8, 8}, {9, 9}}});
  }
  matches.push_back({{5, 6}, {{1, 1}, {3, 1}}});
  matches.push_back({{0, 6}, {{4, 4}}});
  matches.push_back({{1, 6}, {{4, 4}}});
  matches.push_back({{2, 6}, {{1, 4}}});
  const Scene scene = SceneWithKeypoints(7, 10);
  const TrackSet tracks = BuildTracks(scene, matches, SplitEveryChain());
  EXPECT_EQ(tracks.num_refused_matches, 2);
  EXPECT_EQ(tracks.num_contested_tracks, 1);
  EXPECT_EQ(tracks.tracks.size(), 7u);
  ASSERT_NE(tracks.track_of[0][1], kInvalidId);
  EXPECT_EQ(tracks.tracks[tracks.track_of[0][1]].size(), 7u);
  EXPECT_EQ(tracks.tracks[tracks.track_of[0][3]].size(), 6u);
  EXPECT_EQ(tracks.track_of[6][4], kInvalidId);
  EXPECT_EQ(tracks.track_of[0][4], kInvalidId);
  EXPECT_TRUE(Consistent(tracks));

  const TrackSet kept = BuildTracks(scene, matches, KeepContested());
  EXPECT_EQ(kept.num_contested_tracks, 0);
  EXPECT_EQ(kept.tracks.size(), 8u);
  EXPECT_EQ(kept.tracks[kept.track_of[6][4]].size(), 3u);
}

TEST(TrackBuilder, MergesColocatedKeypoints) {
  // Keypoints 0 and 1 of image 0 lie at one position (two orientations of one SIFT point).
  Scene scene = SceneWithKeypoints(3, 4);
  scene.images[0].keypoints[1] = scene.images[0].keypoints[0];
  // Through keypoint 0 to image 1, through keypoint 1 to image 2, and 1:0 - 2:0: one chain
  // holding both, one position, one track (dropped whole if they were two positions).
  const std::vector<PairMatches> chained = {{{0, 1}, {{0, 0}}}, {{0, 2}, {{1, 0}}}, {{1, 2}, {{0, 0}}}};
  const TrackSet tracks = BuildTracks(scene, chained);
  EXPECT_EQ(tracks.num_colocated_keypoints, 1);
  ASSERT_EQ(tracks.tracks.size(), 1u);
  EXPECT_EQ(tracks.tracks[0].size(), 3u);
  EXPECT_EQ(tracks.track_of[0][0], 0);
  EXPECT_EQ(tracks.track_of[0][1], kInvalidId);  // the track lists the lowest index only
  EXPECT_EQ(tracks.num_features_in_tracks, 4);
  EXPECT_TRUE(Consistent(tracks));

  // Not chained, they stay two tracks.
  EXPECT_EQ(BuildTracks(scene, {{{0, 1}, {{0, 0}}}, {{0, 2}, {{1, 0}}}}).tracks.size(), 2u);

  // 0.2 px apart they are two positions (other detections): the chain is dropped whole,
  // unless the option makes them one.
  scene.images[0].keypoints[1] += Eigen::Vector2d(0.2, -0.1);
  const TrackSet conflict = BuildTracks(scene, chained);
  EXPECT_EQ(conflict.num_dropped_chains, 1);
  EXPECT_TRUE(conflict.tracks.empty());
  TrackBuilderOptions near;
  near.colocated_max_px = 0.5;
  EXPECT_EQ(BuildTracks(scene, chained, near).tracks.size(), 1u);
}

TEST(TrackBuilder, ColocatedRepresentativesChainAndTakeTheLowestIndex) {
  const std::vector<Eigen::Vector2d> keypoints = {{5.8, 1}, {5.0, 1}, {9, 9}, {5.4, 1.1}, {5.0, 1}};
  const std::vector<int> representative = ColocatedRepresentatives(keypoints, 0.5);
  EXPECT_EQ(representative, (std::vector<int>{0, 0, 2, 0, 0}));
  EXPECT_EQ(ColocatedRepresentatives(keypoints, 0), (std::vector<int>{0, 1, 2, 3, 1}));
}

TEST(TrackBuilder, ConsistentAndDeterministicOnRandomConflictingMatches) {
  // Random matches among 12 images of 30 keypoints: many chains conflict.
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> keypoint(0, 29);
  std::vector<PairMatches> matches;
  for (int i = 0; i < 12; ++i) {
    for (int j = i + 1; j < 12; ++j) {
      PairMatches pair{{i, j}, {}};
      const int count = 1 + static_cast<int>(matches.size());  // distinct sizes: a strict order
      for (int m = 0; m < count; ++m) pair.matches.push_back({keypoint(rng), keypoint(rng)});
      matches.push_back(pair);
    }
  }
  const Scene scene = SceneWithKeypoints(12, 30);
  const TrackSet tracks = BuildTracks(scene, matches);
  EXPECT_GT(tracks.num_refused_matches, 0);
  EXPECT_TRUE(Consistent(tracks));

  std::vector<PairMatches> shuffled = matches;
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  for (const TrackSet& again : {BuildTracks(scene, matches), BuildTracks(scene, shuffled)}) {
    EXPECT_EQ(again.track_of, tracks.track_of);
    EXPECT_EQ(again.num_refused_matches, tracks.num_refused_matches);
    EXPECT_EQ(again.num_contested_tracks, tracks.num_contested_tracks);
  }
}

}  // namespace
}  // namespace proj
