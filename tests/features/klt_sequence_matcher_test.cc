// KLT sequence matcher: per-frame keypoints and pair matches must be consistent (one keypoint
// per track per frame, the same indices in every pair) and agree with the true motion. Runs on
// the CPU tracker; tests/cuda/klt_gpu_tracker_test.cc repeats the consistency check on the GPU.
#include "matching/klt_sequence_matcher.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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

// 8-bit frames (the pipeline's form) give the correspondences of their float intensities, and
// the observer sees each frame once, in order, with the pairs ending at it already listed.
TEST(KltSequenceMatcher, EightBitFramesWithObserverMatchFloatFrames) {
  constexpr int kWidth = 320, kHeight = 240, kFrames = 9;
  const auto texture = MakeSyntheticTexture(kWidth + 2 * testing::kKltTextureMargin,
                                            kHeight + 2 * testing::kKltTextureMargin, 24);
  std::vector<std::vector<uint8_t>> bytes(kFrames);
  std::vector<GrayImage> floats(kFrames);
  for (int f = 0; f < kFrames; ++f) {
    const GrayImage image = RenderFrame(texture, testing::KltSequenceMotion(kWidth, kHeight, f), kWidth, kHeight);
    for (float v : image.pixels) bytes[f].push_back(static_cast<uint8_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255)));
    ToFloatFrame(KltFrame8{bytes[f].data(), kWidth, kHeight}, &floats[f]);
  }
  KltOptions options;
  options.max_features = 200;
  KltSequenceOptions sequence;
  sequence.device = ComputeDevice::kCpu;
  auto tracker = CreateKltTracker(options, ComputeDevice::kCpu);
  const SequenceCorrespondences expected = TrackSequence(floats, tracker.get(), sequence);

  std::vector<int> observed;
  std::vector<size_t> pairs_seen;
  SequenceCorrespondences result;
  TrackSequence(
      kFrames, [&](int f) { return KltFrame8{bytes[f].data(), kWidth, kHeight}; }, tracker.get(), sequence,
      [&](int frame, const SequenceCorrespondences& so_far) {
        observed.push_back(frame);
        pairs_seen.push_back(so_far.pairs.size());
        EXPECT_FALSE(so_far.keypoints[frame].empty());
        if (!so_far.pairs.empty()) {
          EXPECT_EQ(so_far.pairs.back().pair.image2, frame);
        }
      },
      &result);
  ASSERT_EQ(observed.size(), static_cast<size_t>(kFrames));
  for (int f = 0; f < kFrames; ++f) EXPECT_EQ(observed[f], f);
  EXPECT_EQ(pairs_seen.back(), expected.pairs.size());
  EXPECT_EQ(result.num_tracks, expected.num_tracks);
  ASSERT_EQ(result.pairs.size(), expected.pairs.size());
  for (int f = 0; f < kFrames; ++f) {
    EXPECT_EQ(result.track_ids[f], expected.track_ids[f]);
    ASSERT_EQ(result.keypoints[f].size(), expected.keypoints[f].size());
    for (size_t k = 0; k < result.keypoints[f].size(); ++k) {
      EXPECT_EQ(result.keypoints[f][k].x, expected.keypoints[f][k].x);
      EXPECT_EQ(result.keypoints[f][k].y, expected.keypoints[f][k].y);
    }
  }
  for (size_t p = 0; p < result.pairs.size(); ++p) {
    EXPECT_EQ(result.pairs[p].pair.image1, expected.pairs[p].pair.image1);
    EXPECT_EQ(result.pairs[p].matches.size(), expected.pairs[p].matches.size());
  }
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
