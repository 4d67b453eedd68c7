// Consistency checks of SequenceCorrespondences against the synthetic test sequence
// (tests/features/klt_test_support.h), shared by the CPU and GPU tests.
#pragma once

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "matching/klt_sequence_matcher.h"
#include "tests/features/klt_test_support.h"

namespace proj::testing {

inline void ExpectConsistentSequence(const SequenceCorrespondences& result, int num_frames,
                                     const KltSequenceOptions& options, int width, int height) {
  ASSERT_EQ(result.keypoints.size(), static_cast<size_t>(num_frames));
  ASSERT_EQ(result.track_ids.size(), static_cast<size_t>(num_frames));
  for (int f = 0; f < num_frames; ++f) {
    ASSERT_EQ(result.keypoints[f].size(), result.track_ids[f].size());
    ASSERT_FALSE(result.keypoints[f].empty()) << "frame " << f;
    for (size_t k = 1; k < result.track_ids[f].size(); ++k) {
      ASSERT_GT(result.track_ids[f][k], result.track_ids[f][k - 1]);  // one keypoint per track
    }
    for (int id : result.track_ids[f]) ASSERT_LT(id, result.num_tracks);
  }
  std::set<std::pair<int, int>> seen;
  std::vector<double> errors;
  int longest_gap = 0;
  for (const PairMatches& p : result.pairs) {
    const int i = p.pair.image1, j = p.pair.image2;
    ASSERT_TRUE(i >= 0 && i < j && j < num_frames);
    const int gap = j - i;
    ASSERT_LE(gap, options.max_frame_gap);
    if (!options.all_gaps) {
      ASSERT_EQ(gap & (gap - 1), 0) << "gap " << gap << " is not a power of two";
    }
    ASSERT_TRUE(seen.insert({i, j}).second) << "pair listed twice";
    ASSERT_GE(static_cast<int>(p.matches.size()), options.min_pair_matches);
    longest_gap = std::max(longest_gap, gap);
    std::set<int> used1, used2;
    const SimilarityMotion motion_i = KltSequenceMotion(width, height, i);
    const SimilarityMotion motion_j = KltSequenceMotion(width, height, j);
    for (const FeatureMatch& m : p.matches) {
      ASSERT_TRUE(m.index1 >= 0 && m.index1 < static_cast<int>(result.keypoints[i].size()));
      ASSERT_TRUE(m.index2 >= 0 && m.index2 < static_cast<int>(result.keypoints[j].size()));
      ASSERT_TRUE(used1.insert(m.index1).second);
      ASSERT_TRUE(used2.insert(m.index2).second);
      ASSERT_EQ(result.track_ids[i][m.index1], result.track_ids[j][m.index2]);
      const Keypoint& a = result.keypoints[i][m.index1];
      const Keypoint& b = result.keypoints[j][m.index2];
      const KltPoint truth = MapBetweenFrames(motion_i, motion_j, KltPoint{a.x, a.y});
      errors.push_back(Distance(truth, KltPoint{b.x, b.y}));
    }
    // Every track alive in both frames is matched (tracks are contiguous).
    std::set<int> ids_i(result.track_ids[i].begin(), result.track_ids[i].end());
    int shared = 0;
    for (int id : result.track_ids[j]) shared += static_cast<int>(ids_i.count(id));
    EXPECT_EQ(shared, static_cast<int>(p.matches.size()));
  }
  for (int j = 1; j < num_frames; ++j) EXPECT_TRUE(seen.count({j - 1, j})) << "no pair " << j - 1 << "-" << j;
  if (!options.all_gaps && options.max_frame_gap >= 8 && num_frames > 8) {
    EXPECT_EQ(longest_gap, 8);
  }
  // Drift accumulates along a track; the median over all gaps stays well under a pixel.
  EXPECT_LT(Median(errors), 0.15);
}

}  // namespace proj::testing
