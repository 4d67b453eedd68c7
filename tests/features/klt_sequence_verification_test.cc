// Tracking with the pairs' verification overlapped (matching/klt_sequence_verification.h) on the
// CPU tracker: the overlapped schedule must give exactly the geometries of verifying after
// tracking and of the plain per-pair verification, with keypoints in original pixels.
#include "matching/klt_sequence_verification.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/check.h"
#include "features/klt/klt_tracker.h"
#include "tests/features/klt_test_support.h"

namespace proj {
namespace {

constexpr int kWidth = 640, kHeight = 480, kFrames = 14;
constexpr double kScale = 2.0;  // the "original" images are twice the tracked size

// The test sequence (klt_test_support.h) rounded to 8 bits.
std::vector<std::vector<uint8_t>> EightBitSequence() {
  const auto texture = MakeSyntheticTexture(kWidth + 2 * testing::kKltTextureMargin,
                                            kHeight + 2 * testing::kKltTextureMargin, 31);
  std::vector<std::vector<uint8_t>> frames(kFrames);
  for (int f = 0; f < kFrames; ++f) {
    const GrayImage image = RenderFrame(texture, testing::KltSequenceMotion(kWidth, kHeight, f), kWidth, kHeight);
    frames[f].resize(image.pixels.size());
    for (size_t p = 0; p < image.pixels.size(); ++p) {
      frames[f][p] = static_cast<uint8_t>(std::lround(std::clamp(image.pixels[p], 0.0f, 1.0f) * 255));
    }
  }
  return frames;
}

struct Fixture {
  std::vector<std::vector<uint8_t>> bytes = EightBitSequence();
  Frame8Provider frames = [this](int f) { return KltFrame8{bytes[f].data(), kWidth, kHeight}; };
  std::vector<Camera> cameras = std::vector<Camera>(
      kFrames, Camera::FromFocal(CameraModelId::kSimpleRadial, static_cast<int>(kScale * kWidth),
                                 static_cast<int>(kScale * kHeight), 1.2 * kScale * kWidth));
  std::vector<double> scales = std::vector<double>(kFrames, kScale);
  KltOptions klt;
  KltSequenceOptions sequence;
  Fixture() {
    klt.max_features = 300;
    sequence.device = ComputeDevice::kCpu;
  }
  VerifiedSequence Run(bool overlap, int threads) const {
    SequenceVerificationOptions options;
    options.overlap = overlap;
    options.num_threads = threads;
    auto tracker = CreateKltTracker(klt, ComputeDevice::kCpu);
    return TrackAndVerifySequence(kFrames, frames, cameras, scales, tracker.get(), sequence, options);
  }
};

void ExpectSameGeometry(const TwoViewGeometry& a, const TwoViewGeometry& b, size_t pair) {
  EXPECT_EQ(a.configuration, b.configuration) << "pair " << pair;
  EXPECT_EQ(a.num_e_inliers, b.num_e_inliers) << "pair " << pair;
  EXPECT_EQ(a.num_f_inliers, b.num_f_inliers) << "pair " << pair;
  EXPECT_EQ(a.num_h_inliers, b.num_h_inliers) << "pair " << pair;
  EXPECT_EQ(a.F, b.F) << "pair " << pair;  // exact: the same seed draws the same samples
  ASSERT_EQ(a.inlier_matches.size(), b.inlier_matches.size()) << "pair " << pair;
  for (size_t k = 0; k < a.inlier_matches.size(); ++k) {
    ASSERT_EQ(a.inlier_matches[k].index1, b.inlier_matches[k].index1) << "pair " << pair;
    ASSERT_EQ(a.inlier_matches[k].index2, b.inlier_matches[k].index2) << "pair " << pair;
  }
}

TEST(KltSequenceVerification, OverlappedScheduleGivesTheGeometriesOfVerifyingAfterTracking) {
  const Fixture fixture;
  const VerifiedSequence overlapped = fixture.Run(true, 3);
  const VerifiedSequence after = fixture.Run(false, 1);

  // Reference: plain tracking, keypoints scaled, every pair verified in turn (seed + index).
  auto tracker = CreateKltTracker(fixture.klt, ComputeDevice::kCpu);
  SequenceCorrespondences tracked;
  TrackSequence(kFrames, fixture.frames, tracker.get(), fixture.sequence, {}, &tracked);
  std::vector<std::vector<Eigen::Vector2d>> pixels(kFrames);
  for (int f = 0; f < kFrames; ++f) {
    for (const Keypoint& k : tracked.keypoints[f]) {
      pixels[f].emplace_back(static_cast<float>(k.x * kScale), static_cast<float>(k.y * kScale));
    }
  }

  ASSERT_GE(tracked.pairs.size(), 30u);
  ASSERT_EQ(overlapped.correspondences.pairs.size(), tracked.pairs.size());
  ASSERT_EQ(after.correspondences.pairs.size(), tracked.pairs.size());
  ASSERT_EQ(overlapped.geometries.size(), tracked.pairs.size());
  ASSERT_EQ(after.geometries.size(), tracked.pairs.size());
  int verified = 0;
  for (size_t p = 0; p < tracked.pairs.size(); ++p) {
    const ImagePair& pair = tracked.pairs[p].pair;
    ASSERT_EQ(overlapped.correspondences.pairs[p].pair.image1, pair.image1);
    ASSERT_EQ(overlapped.correspondences.pairs[p].pair.image2, pair.image2);
    ASSERT_EQ(overlapped.correspondences.pairs[p].matches.size(), tracked.pairs[p].matches.size());
    TwoViewGeometryOptions options;
    options.seed += p;
    const TwoViewGeometry expected =
        EstimateTwoViewGeometry(options, fixture.cameras[pair.image1], pixels[pair.image1],
                                fixture.cameras[pair.image2], pixels[pair.image2], tracked.pairs[p].matches);
    ASSERT_NO_FATAL_FAILURE(ExpectSameGeometry(overlapped.geometries[p], expected, p));
    ASSERT_NO_FATAL_FAILURE(ExpectSameGeometry(after.geometries[p], expected, p));
    verified += expected.configuration != TwoViewConfiguration::kDegenerate;
  }
  EXPECT_GE(verified, static_cast<int>(tracked.pairs.size()) / 2);

  // Keypoints come back in original pixels.
  for (int f = 0; f < kFrames; ++f) {
    ASSERT_EQ(overlapped.correspondences.keypoints[f].size(), pixels[f].size());
    ASSERT_EQ(overlapped.correspondences.track_ids[f], tracked.track_ids[f]);
    for (size_t k = 0; k < pixels[f].size(); ++k) {
      ASSERT_EQ(overlapped.correspondences.keypoints[f][k].x, pixels[f][k].x());
      ASSERT_EQ(overlapped.correspondences.keypoints[f][k].y, pixels[f][k].y());
    }
  }
}

TEST(KltSequenceVerification, TrackingFailureStopsTheVerifiersAndThrows) {
  Fixture fixture;
  const Frame8Provider frames = fixture.frames;
  fixture.frames = [&](int f) {
    PROJ_REQUIRE(f < 9, "frame " << f << " is unreadable");
    return frames(f);
  };
  EXPECT_THROW(fixture.Run(true, 2), InputError);
  EXPECT_THROW(fixture.Run(false, 2), InputError);
}

TEST(KltSequenceVerification, RejectsCameraAndScaleCountsThatDifferFromTheFrames) {
  Fixture fixture;
  fixture.cameras.pop_back();
  EXPECT_THROW(fixture.Run(true, 2), InputError);
  Fixture scales;
  scales.scales.pop_back();
  EXPECT_THROW(scales.Run(true, 2), InputError);
}

}  // namespace
}  // namespace proj
