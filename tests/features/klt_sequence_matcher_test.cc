// KLT sequence matcher: per-frame keypoints and pair matches must be consistent (one keypoint
// per track per frame, the same indices in every pair) and agree with the true motion. Runs on
// the CPU tracker; tests/cuda/klt_gpu_tracker_test.cc repeats the consistency check on the GPU.
#include "matching/klt_sequence_matcher.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "core/check.h"
#include "tests/features/klt_sequence_checks.h"
#include "tests/features/klt_test_support.h"

namespace proj {
namespace {

TEST(KltSequenceMatcher, ProducesConsistentIndicesAndTrueMatches) {
  constexpr int kWidth = 640, kHeight = 480, kFrames = 20;
  const auto texture = MakeSyntheticTexture(kWidth + 2 * testing::kKltTextureMargin,
                                            kHeight + 2 * testing::kKltTextureMargin, 21);
  std::vector<int> requested;
  const FrameProvider provider = [&](int f, GrayImage* frame) {
    requested.push_back(f);
    *frame = RenderFrame(texture, testing::KltSequenceMotion(kWidth, kHeight, f), kWidth, kHeight);
  };
  KltOptions options;
  options.max_features = 400;
  KltSequenceOptions sequence;
  sequence.device = ComputeDevice::kCpu;
  const SequenceCorrespondences result = TrackSequence(kFrames, provider, options, sequence);
  std::vector<int> expected_order(kFrames);
  for (int f = 0; f < kFrames; ++f) expected_order[f] = f;
  EXPECT_EQ(requested, expected_order);
  testing::ExpectConsistentSequence(result, kFrames, sequence, kWidth, kHeight);
}

TEST(KltSequenceMatcher, AllGapsAndMinimumMatches) {
  constexpr int kWidth = 320, kHeight = 240, kFrames = 6;
  const auto texture = MakeSyntheticTexture(kWidth + 2 * testing::kKltTextureMargin,
                                            kHeight + 2 * testing::kKltTextureMargin, 22);
  std::vector<GrayImage> frames;
  for (int f = 0; f < kFrames; ++f) {
    frames.push_back(RenderFrame(texture, testing::KltSequenceMotion(kWidth, kHeight, f), kWidth, kHeight));
  }
  KltSequenceOptions sequence;
  sequence.device = ComputeDevice::kCpu;
  sequence.all_gaps = true;
  sequence.max_frame_gap = 3;
  const SequenceCorrespondences result = TrackSequence(frames, KltOptions{}, sequence);
  std::set<std::pair<int, int>> pairs;
  for (const PairMatches& p : result.pairs) pairs.insert({p.pair.image1, p.pair.image2});
  for (int j = 1; j < kFrames; ++j) {
    for (int g = 1; g <= 3 && j - g >= 0; ++g) EXPECT_TRUE(pairs.count({j - g, j})) << j - g << "-" << j;
  }
  EXPECT_EQ(pairs.size(), 5u + 4u + 3u);

  sequence.min_pair_matches = 1000000;
  EXPECT_TRUE(TrackSequence(frames, KltOptions{}, sequence).pairs.empty());
  sequence.max_frame_gap = 0;
  EXPECT_THROW(TrackSequence(frames, KltOptions{}, sequence), InputError);
}

}  // namespace
}  // namespace proj
