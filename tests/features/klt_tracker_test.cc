// CPU (OpenCV) KLT tracker: accuracy on synthetic motion, the forward-backward check,
// selection constraints and the sequence logic. The GPU tracker runs the same checks against
// this one in tests/cuda/klt_gpu_tracker_test.cc.
#include <gtest/gtest.h>

#include <set>

#include "core/check.h"
#include "features/klt/klt_affine_refiner.h"
#include "features/klt/klt_cpu_tracker.h"
#include "features/klt/klt_tracker.h"
#include "tests/features/klt_test_support.h"

namespace proj {
namespace {

using testing::CornerPoints;
using testing::Distance;
using testing::MakeKltPair;
using testing::Median;

constexpr int kWidth = 640;
constexpr int kHeight = 480;

struct MotionCase {
  const char* name;
  double shift_x, shift_y, angle_deg;
};

class KltCpuMotionTest : public ::testing::TestWithParam<MotionCase> {};

TEST_P(KltCpuMotionTest, TracksKnownMotionToATenthOfAPixel) {
  const MotionCase& c = GetParam();
  const auto pair = MakeKltPair(kWidth, kHeight, c.shift_x, c.shift_y, c.angle_deg * M_PI / 180, 11);
  auto tracker = CreateKltCpuTracker(KltOptions{});
  const auto corners = tracker->SelectCorners(pair.first, 500, {});
  ASSERT_GE(corners.size(), 400u);
  const auto start = CornerPoints(corners);
  const KltTrackResult result = tracker->TrackPoints(pair.first, pair.second, start);
  ASSERT_EQ(result.points.size(), start.size());
  EXPECT_GE(testing::TrackedFraction(result), 0.9) << c.name;
  const double median = Median(testing::TruthErrors(pair, start, result));
  EXPECT_LT(median, 0.1) << c.name;
  for (size_t i = 0; i < start.size(); ++i) {
    if (result.status[i] != KltStatus::kTracked) continue;
    EXPECT_LE(result.forward_backward_px[i], 0.5f);
    EXPECT_GE(result.forward_backward_px[i], 0.0f);
  }
}

INSTANTIATE_TEST_SUITE_P(Motions, KltCpuMotionTest,
                         ::testing::Values(MotionCase{"subpixel", 0.37, -0.61, 0},
                                           MotionCase{"shift", 2.3, -1.7, 0},
                                           MotionCase{"pyramid", 14.6, -9.3, 0},
                                           MotionCase{"rotation", 3.2, 1.1, 1.0}),
                         [](const auto& info) { return std::string(info.param.name); });

// Features on a surface that changes between the frames (an occluder appears) must be
// rejected by the forward-backward check; elsewhere they must survive it.
TEST(KltCpuTracker, ForwardBackwardRejectsChangedRegion) {
  auto pair = MakeKltPair(kWidth, kHeight, 2.4, 1.3, 0, 12);
  const int x0 = 200, y0 = 150, x1 = 420, y1 = 330;
  testing::PaintForeignRegion(&pair.second, x0, y0, x1, y1, 99);
  KltOptions options;
  options.max_residual = 0;  // isolate the forward-backward check
  auto tracker = CreateKltCpuTracker(options);
  const auto start = CornerPoints(tracker->SelectCorners(pair.first, 800, {}));
  const KltTrackResult result = tracker->TrackPoints(pair.first, pair.second, start);
  const float margin = options.half_window() + 4;
  int inside = 0, inside_rejected = 0, outside = 0, outside_tracked = 0;
  for (size_t i = 0; i < start.size(); ++i) {
    const KltPoint& p = start[i];
    if (p.x > x0 + margin && p.x < x1 - margin && p.y > y0 + margin && p.y < y1 - margin) {
      ++inside;
      inside_rejected += result.status[i] == KltStatus::kForwardBackward ||
                         result.status[i] == KltStatus::kLost;
    } else if (p.x < x0 - margin || p.x > x1 + margin || p.y < y0 - margin || p.y > y1 + margin) {
      ++outside;
      outside_tracked += result.status[i] == KltStatus::kTracked;
    }
  }
  ASSERT_GE(inside, 20);
  ASSERT_GE(outside, 200);
  EXPECT_GE(inside_rejected, 0.8 * inside) << inside_rejected << " of " << inside;
  EXPECT_GE(outside_tracked, 0.9 * outside) << outside_tracked << " of " << outside;

  // Without the check, Lucas-Kanade alone converges somewhere for most of them.
  options.max_forward_backward_px = 0;
  const KltTrackResult unchecked = CreateKltCpuTracker(options)->TrackPoints(pair.first, pair.second, start);
  int inside_unchecked_tracked = 0;
  for (size_t i = 0; i < start.size(); ++i) {
    const KltPoint& p = start[i];
    if (p.x > x0 + margin && p.x < x1 - margin && p.y > y0 + margin && p.y < y1 - margin) {
      inside_unchecked_tracked += unchecked.status[i] == KltStatus::kTracked;
    }
  }
  EXPECT_GE(inside_unchecked_tracked, 0.5 * inside) << inside_unchecked_tracked << " of " << inside;
}

TEST(KltCpuTracker, SelectionRespectsMinDistanceBorderAndMask) {
  const auto pair = MakeKltPair(kWidth, kHeight, 0, 0, 0, 13);
  KltOptions options;
  options.min_distance_px = 12;
  auto tracker = CreateKltCpuTracker(options);
  const std::vector<KltPoint> existing = {{100.5f, 100.5f}, {320.2f, 240.7f}, {500.0f, 300.0f}};
  const auto corners = tracker->SelectCorners(pair.first, 300, existing);
  ASSERT_EQ(corners.size(), 300u);
  for (size_t i = 0; i < corners.size(); ++i) {
    const KltPoint p{corners[i].x, corners[i].y};
    EXPECT_GE(p.x, options.half_window());
    EXPECT_LE(p.x, kWidth - options.half_window());
    for (const KltPoint& e : existing) EXPECT_GE(Distance(p, e), 12.0 - 1e-3);
    for (size_t j = 0; j < i; ++j) EXPECT_GE(Distance(p, KltPoint{corners[j].x, corners[j].y}), 12.0 - 1e-3);
    if (i > 0) {
      EXPECT_LE(corners[i].score, corners[i - 1].score);
    }
  }
}

TEST(KltCpuTracker, SequenceReselectsOnScheduleAndKeepsIdsSorted) {
  KltOptions options;
  options.max_features = 300;
  auto tracker = CreateKltCpuTracker(options);
  const auto texture = MakeSyntheticTexture(kWidth + 2 * testing::kKltTextureMargin,
                                            kHeight + 2 * testing::kKltTextureMargin, 14);
  std::vector<KltFeature> previous;
  SimilarityMotion previous_motion;
  std::set<int> frames_with_new_tracks;
  std::vector<double> errors;
  for (int f = 0; f < 12; ++f) {
    const SimilarityMotion motion = testing::KltSequenceMotion(kWidth, kHeight, f);
    const std::vector<KltFeature> features = tracker->ProcessFrame(RenderFrame(texture, motion, kWidth, kHeight));
    ASSERT_LE(features.size(), 300u);
    ASSERT_GE(features.size(), 150u);
    ASSERT_NO_FATAL_FAILURE(testing::CheckSequenceStep(previous, previous_motion, features, motion, f,
                                                       &frames_with_new_tracks, &errors));
    previous = features;
    previous_motion = motion;
  }
  EXPECT_EQ(frames_with_new_tracks, (std::set<int>{0, 5, 10}));
  EXPECT_LT(Median(errors), 0.1);
}

// The affine alignment of a template (cuda/klt/klt_affine.h) finds a point under scale and
// rotation that a translation-only window cannot follow exactly, from a start a pixel off.
TEST(KltAffineRefiner, AlignsTemplateUnderScaleAndRotation) {
  const auto texture = MakeSyntheticTexture(kWidth + 2 * testing::kKltTextureMargin,
                                            kHeight + 2 * testing::kKltTextureMargin, 31);
  const SimilarityMotion first = testing::KltFrameMotion(kWidth, kHeight, 0, 0, 0);
  SimilarityMotion second = testing::KltFrameMotion(kWidth, kHeight, 3.1, -2.2, 8 * M_PI / 180);
  second.scale = 1.25;
  const GrayImage a = RenderFrame(texture, first, kWidth, kHeight);
  const GrayImage b = RenderFrame(texture, second, kWidth, kHeight);
  auto tracker = CreateKltCpuTracker(KltOptions{});
  const auto corners = tracker->SelectCorners(a, 300, {});
  ASSERT_GE(corners.size(), 200u);
  KltOptions options;
  std::vector<double> errors, start_errors;
  int refined = 0;
  for (const KltCorner& corner : corners) {
    const KltPoint start{corner.x, corner.y};
    const KltPoint truth = MapBetweenFrames(first, second, start);
    if (truth.x < 40 || truth.y < 40 || truth.x > kWidth - 40 || truth.y > kHeight - 40) continue;
    KltAffineTrack track = CaptureKltTemplate(a, start, options.window_size);
    const KltPoint guess{truth.x + 0.8f, truth.y - 0.6f};
    const KltAffineOutcome outcome = RefineKltTrack(b, guess, options, &track);
    start_errors.push_back(Distance(truth, guess));
    if (outcome.status != KltStatus::kTracked) continue;
    ++refined;
    errors.push_back(Distance(truth, outcome.point));
    // The warp's linear part is the motion's: 1.25 R(8 deg).
    EXPECT_NEAR(track.warp.a11, 1.25 * std::cos(8 * M_PI / 180), 0.03);
    EXPECT_NEAR(track.warp.a21, 1.25 * std::sin(8 * M_PI / 180), 0.03);
  }
  EXPECT_GE(refined, 0.9 * start_errors.size());
  EXPECT_LT(Median(errors), 0.03);
}

// Under forward motion (zoom) translation-only tracking drifts off its points as tracks age;
// the affine refinement keeps them on their points.
TEST(KltCpuTracker, AffineRefinementKeepsZoomingTracksOnTheirPoints) {
  const auto texture = MakeSyntheticTexture(kWidth + 2 * testing::kKltTextureMargin,
                                            kHeight + 2 * testing::kKltTextureMargin, 32);
  const auto motion_of = [](int f) { return testing::KltZoomMotion(kWidth, kHeight, f, 0.05); };
  std::vector<GrayImage> frames;
  for (int f = 0; f < 14; ++f) frames.push_back(RenderFrame(texture, motion_of(f), kWidth, kHeight));
  const auto old_track_errors = [&](bool affine) {
    KltOptions options;
    options.max_features = 400;
    options.affine_refinement = affine;
    auto tracker = CreateKltCpuTracker(options);
    std::map<int, testing::TrackStart> first_seen;
    std::map<int, std::vector<double>> by_age;
    for (int f = 0; f < static_cast<int>(frames.size()); ++f) {
      testing::AddErrorsByAge(tracker->ProcessFrame(frames[f]), f, motion_of, &first_seen, &by_age);
    }
    std::vector<double> old;
    for (const auto& [age, errors] : by_age) {
      if (age >= 6) old.insert(old.end(), errors.begin(), errors.end());
    }
    return old;
  };
  const std::vector<double> translation = old_track_errors(false);
  const std::vector<double> affine = old_track_errors(true);
  ASSERT_GE(affine.size(), 200u);
  std::printf("[ klt zoom ] tracks 6+ frames old: median error %.4f px translation-only (%zu), "
              "%.4f px affine (%zu)\n",
              Median(translation), translation.size(), Median(affine), affine.size());
  EXPECT_LT(Median(affine), 0.03);
  EXPECT_GT(Median(translation), 3 * Median(affine));
}

TEST(KltCpuTracker, RejectsBadOptionsAndImages) {
  KltOptions options;
  options.window_size = 20;
  EXPECT_THROW(CreateKltCpuTracker(options), InputError);
  options = KltOptions{};
  options.affine_max_scale = 1;
  EXPECT_THROW(CreateKltCpuTracker(options), InputError);
  options = KltOptions{};
  options.num_levels = 0;
  EXPECT_THROW(CreateKltTracker(options, ComputeDevice::kCpu), InputError);
  auto tracker = CreateKltTracker(KltOptions{}, ComputeDevice::kCpu);
  EXPECT_NE(tracker->Description().find("cpu"), std::string::npos);
  GrayImage tiny;
  tiny.width = tiny.height = 16;
  tiny.pixels.assign(256, 0.5f);
  EXPECT_THROW(tracker->ProcessFrame(tiny), InputError);
  GrayImage broken;
  broken.width = broken.height = 100;
  EXPECT_THROW(tracker->ProcessFrame(broken), InputError);
}

}  // namespace
}  // namespace proj
