// GPU KLT tracker against the known synthetic motion and against the OpenCV CPU tracker
// (STYLE P15: every kernel checked against a CPU reference). Skips without a usable GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "core/check.h"
#include "cuda/device.h"
#include "features/klt/klt_cpu_tracker.h"
#include "features/klt/klt_tracker.h"
#include "matching/klt_sequence_matcher.h"
#include "tests/features/klt_sequence_checks.h"
#include "tests/features/klt_test_support.h"

namespace proj {
namespace {

using testing::CornerPoints;
using testing::Distance;
using testing::MakeKltPair;
using testing::Median;

#define PROJ_SKIP_WITHOUT_GPU()                                                        \
  if (!cuda::DeviceAvailable()) {                                                      \
    GTEST_SKIP() << "GPU KLT not tested: no usable CUDA device ("                      \
                 << cuda::DeviceDescription() << ")";                                  \
  }

constexpr int kWidth = 640;
constexpr int kHeight = 480;

struct MotionCase {
  const char* name;
  double shift_x, shift_y, angle_deg;
};

class KltGpuMotionTest : public ::testing::TestWithParam<MotionCase> {};

TEST_P(KltGpuMotionTest, MatchesTruthAndOpenCv) {
  PROJ_SKIP_WITHOUT_GPU();
  const MotionCase& c = GetParam();
  const auto pair = MakeKltPair(kWidth, kHeight, c.shift_x, c.shift_y, c.angle_deg * M_PI / 180, 11);
  auto cpu = CreateKltCpuTracker(KltOptions{});
  auto gpu = CreateKltTracker(KltOptions{}, ComputeDevice::kGpu);
  EXPECT_NE(gpu->Description().find("gpu"), std::string::npos);
  const auto start = CornerPoints(cpu->SelectCorners(pair.first, 500, {}));
  ASSERT_GE(start.size(), 400u);
  const KltTrackResult g = gpu->TrackPoints(pair.first, pair.second, start);
  const KltTrackResult r = cpu->TrackPoints(pair.first, pair.second, start);
  ASSERT_EQ(g.points.size(), start.size());
  std::vector<double> versus_cpu;
  int same_status = 0;
  for (size_t i = 0; i < start.size(); ++i) {
    same_status += (g.status[i] == KltStatus::kTracked) == (r.status[i] == KltStatus::kTracked);
    if (g.status[i] == KltStatus::kTracked && r.status[i] == KltStatus::kTracked) {
      versus_cpu.push_back(Distance(g.points[i], r.points[i]));
    }
  }
  const double truth_median = Median(testing::TruthErrors(pair, start, g));
  const double cpu_median = Median(versus_cpu);
  std::printf("[ klt %s ] gpu tracked %.3f, median end-point error vs truth %.4f px (cpu %.4f px), "
              "gpu vs cpu %.4f px, same status %.3f\n",
              c.name, testing::TrackedFraction(g), truth_median,
              Median(testing::TruthErrors(pair, start, r)), cpu_median,
              static_cast<double>(same_status) / start.size());
  EXPECT_GE(testing::TrackedFraction(g), 0.9);
  EXPECT_LT(truth_median, 0.1);
  EXPECT_LT(cpu_median, 0.1);
  EXPECT_GE(same_status, 0.9 * start.size());
  for (size_t i = 0; i < start.size(); ++i) {
    if (g.status[i] != KltStatus::kTracked) continue;
    EXPECT_GE(g.forward_backward_px[i], 0.0f);
    EXPECT_LE(g.forward_backward_px[i], 0.5f);
    EXPECT_LE(g.residual[i], 0.08f);
  }
}

INSTANTIATE_TEST_SUITE_P(Motions, KltGpuMotionTest,
                         ::testing::Values(MotionCase{"subpixel", 0.37, -0.61, 0},
                                           MotionCase{"shift", 2.3, -1.7, 0},
                                           MotionCase{"pyramid", 14.6, -9.3, 0},
                                           MotionCase{"rotation", 3.2, 1.1, 1.0}),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(KltGpuTracker, FullHdTwoThousandFeatures) {
  PROJ_SKIP_WITHOUT_GPU();
  const auto pair = MakeKltPair(1920, 1080, 3.3, -2.2, 0.3 * M_PI / 180, 15);
  auto gpu = CreateKltTracker(KltOptions{}, ComputeDevice::kGpu);
  const auto corners = gpu->SelectCorners(pair.first, 2000, {});
  ASSERT_EQ(corners.size(), 2000u);
  const auto start = CornerPoints(corners);
  const KltTrackResult g = gpu->TrackPoints(pair.first, pair.second, start);
  const double median = Median(testing::TruthErrors(pair, start, g));
  std::printf("[ klt 1080p ] 2000 features, tracked %.3f, median error vs truth %.4f px\n",
              testing::TrackedFraction(g), median);
  EXPECT_GE(testing::TrackedFraction(g), 0.9);
  EXPECT_LT(median, 0.1);
  // Same input, same output.
  const KltTrackResult again = gpu->TrackPoints(pair.first, pair.second, start);
  for (size_t i = 0; i < start.size(); ++i) {
    ASSERT_EQ(again.status[i], g.status[i]);
    ASSERT_EQ(again.points[i].x, g.points[i].x);
    ASSERT_EQ(again.points[i].y, g.points[i].y);
  }
}

TEST(KltGpuTracker, ForwardBackwardRejectsChangedRegion) {
  PROJ_SKIP_WITHOUT_GPU();
  auto pair = MakeKltPair(kWidth, kHeight, 2.4, 1.3, 0, 12);
  const int x0 = 200, y0 = 150, x1 = 420, y1 = 330;
  testing::PaintForeignRegion(&pair.second, x0, y0, x1, y1, 99);
  KltOptions options;
  options.max_residual = 0;  // isolate the forward-backward check
  auto gpu = CreateKltTracker(options, ComputeDevice::kGpu);
  const auto start = CornerPoints(gpu->SelectCorners(pair.first, 800, {}));
  const KltTrackResult result = gpu->TrackPoints(pair.first, pair.second, start);
  options.max_forward_backward_px = 0;
  const KltTrackResult unchecked =
      CreateKltTracker(options, ComputeDevice::kGpu)->TrackPoints(pair.first, pair.second, start);
  const float margin = options.half_window() + 4;
  int inside = 0, inside_rejected = 0, inside_unchecked = 0, outside = 0, outside_tracked = 0;
  for (size_t i = 0; i < start.size(); ++i) {
    const KltPoint& p = start[i];
    if (p.x > x0 + margin && p.x < x1 - margin && p.y > y0 + margin && p.y < y1 - margin) {
      ++inside;
      inside_rejected += result.status[i] == KltStatus::kForwardBackward ||
                         result.status[i] == KltStatus::kLost;
      inside_unchecked += unchecked.status[i] == KltStatus::kTracked;
    } else if (p.x < x0 - margin || p.x > x1 + margin || p.y < y0 - margin || p.y > y1 + margin) {
      ++outside;
      outside_tracked += result.status[i] == KltStatus::kTracked;
    }
  }
  std::printf("[ klt fb ] changed region: %d of %d rejected (%d pass without the check); "
              "elsewhere %d of %d tracked\n",
              inside_rejected, inside, inside_unchecked, outside_tracked, outside);
  ASSERT_GE(inside, 20);
  ASSERT_GE(outside, 200);
  EXPECT_GE(inside_rejected, 0.8 * inside);
  EXPECT_GE(inside_unchecked, 0.5 * inside);
  EXPECT_GE(outside_tracked, 0.9 * outside);
}

TEST(KltGpuTracker, SelectionMatchesOpenCvAndRespectsConstraints) {
  PROJ_SKIP_WITHOUT_GPU();
  const auto pair = MakeKltPair(kWidth, kHeight, 0, 0, 0, 13);
  KltOptions options;
  options.min_distance_px = 12;
  const std::vector<KltPoint> existing = {{100.5f, 100.5f}, {320.2f, 240.7f}, {500.0f, 300.0f}};
  auto gpu = CreateKltTracker(options, ComputeDevice::kGpu);
  const auto corners = gpu->SelectCorners(pair.first, 300, existing);
  const auto reference = CreateKltCpuTracker(options)->SelectCorners(pair.first, 300, existing);
  ASSERT_EQ(corners.size(), 300u);
  int near_reference = 0;
  for (size_t i = 0; i < corners.size(); ++i) {
    const KltPoint p{corners[i].x, corners[i].y};
    EXPECT_GE(p.x, options.half_window());
    EXPECT_LE(p.x, kWidth - options.half_window());
    EXPECT_GE(p.y, options.half_window());
    EXPECT_LE(p.y, kHeight - options.half_window());
    for (const KltPoint& e : existing) EXPECT_GE(Distance(p, e), 12.0 - 1e-3);
    for (size_t j = 0; j < i; ++j) {
      EXPECT_GE(Distance(p, KltPoint{corners[j].x, corners[j].y}), 12.0 - 1e-3);
    }
    if (i > 0) {
      EXPECT_LE(corners[i].score, corners[i - 1].score);
    }
    for (const KltCorner& r : reference) {
      if (Distance(p, KltPoint{r.x, r.y}) <= 1.0) {
        ++near_reference;
        break;
      }
    }
  }
  std::printf("[ klt select ] %d of %zu gpu corners within 1 px of an OpenCV corner\n",
              near_reference, corners.size());
  EXPECT_GE(near_reference, 0.9 * corners.size());
  const auto again = gpu->SelectCorners(pair.first, 300, existing);
  ASSERT_EQ(again.size(), corners.size());
  for (size_t i = 0; i < corners.size(); ++i) {
    EXPECT_EQ(again[i].x, corners[i].x);
    EXPECT_EQ(again[i].y, corners[i].y);
  }
}

// With a large minimum distance fewer than max_count corners exist, so the suppression must
// resolve every candidate (the growing-prefix path); the result must still be OpenCV's.
TEST(KltGpuTracker, SelectionWithLargeMinDistanceMatchesOpenCv) {
  PROJ_SKIP_WITHOUT_GPU();
  const auto pair = MakeKltPair(kWidth, kHeight, 0, 0, 0, 17);
  KltOptions options;
  options.min_distance_px = 40;
  const auto corners = CreateKltTracker(options, ComputeDevice::kGpu)->SelectCorners(pair.first, 5000, {});
  const auto reference = CreateKltCpuTracker(options)->SelectCorners(pair.first, 5000, {});
  std::printf("[ klt select md40 ] gpu %zu corners, opencv %zu\n", corners.size(), reference.size());
  ASSERT_GT(corners.size(), 50u);
  ASSERT_LT(corners.size(), 5000u);
  EXPECT_NEAR(static_cast<double>(corners.size()), static_cast<double>(reference.size()), 0.05 * reference.size());
  int near_reference = 0;
  for (size_t i = 0; i < corners.size(); ++i) {
    const KltPoint p{corners[i].x, corners[i].y};
    for (size_t j = 0; j < i; ++j) {
      ASSERT_GE(Distance(p, KltPoint{corners[j].x, corners[j].y}), 40.0 - 1e-3);
    }
    for (const KltCorner& r : reference) {
      if (Distance(p, KltPoint{r.x, r.y}) <= 1.0) {
        ++near_reference;
        break;
      }
    }
  }
  EXPECT_GE(near_reference, 0.9 * corners.size());
}

TEST(KltGpuTracker, SequenceReselectsOnScheduleAndFollowsTruth) {
  PROJ_SKIP_WITHOUT_GPU();
  KltOptions options;
  options.max_features = 300;
  auto gpu = CreateKltTracker(options, ComputeDevice::kGpu);
  auto cpu = CreateKltCpuTracker(options);
  const auto texture = MakeSyntheticTexture(kWidth + 2 * testing::kKltTextureMargin,
                                            kHeight + 2 * testing::kKltTextureMargin, 14);
  std::vector<KltFeature> previous;
  SimilarityMotion previous_motion;
  std::set<int> frames_with_new_tracks;
  std::vector<double> errors;
  for (int f = 0; f < 12; ++f) {
    const SimilarityMotion motion = testing::KltSequenceMotion(kWidth, kHeight, f);
    const GrayImage frame = RenderFrame(texture, motion, kWidth, kHeight);
    const std::vector<KltFeature> features = gpu->ProcessFrame(frame);
    const size_t cpu_count = cpu->ProcessFrame(frame).size();
    ASSERT_LE(features.size(), 300u);
    ASSERT_GE(features.size(), 150u);
    EXPECT_NEAR(static_cast<double>(features.size()), static_cast<double>(cpu_count), 0.1 * cpu_count);
    ASSERT_NO_FATAL_FAILURE(testing::CheckSequenceStep(previous, previous_motion, features, motion, f,
                                                       &frames_with_new_tracks, &errors));
    previous = features;
    previous_motion = motion;
  }
  std::printf("[ klt sequence ] median frame-to-frame error vs truth %.4f px\n", Median(errors));
  EXPECT_EQ(frames_with_new_tracks, (std::set<int>{0, 5, 10}));
  EXPECT_LT(Median(errors), 0.1);
}

TEST(KltGpuTracker, SequenceMatcherIsConsistent) {
  PROJ_SKIP_WITHOUT_GPU();
  constexpr int kFrames = 20;
  const auto texture = MakeSyntheticTexture(kWidth + 2 * testing::kKltTextureMargin,
                                            kHeight + 2 * testing::kKltTextureMargin, 21);
  const FrameProvider provider = [&](int f, GrayImage* frame) {
    *frame = RenderFrame(texture, testing::KltSequenceMotion(kWidth, kHeight, f), kWidth, kHeight);
  };
  KltOptions options;
  options.max_features = 400;
  KltSequenceOptions sequence;
  sequence.device = ComputeDevice::kGpu;
  const SequenceCorrespondences result = TrackSequence(kFrames, provider, options, sequence);
  testing::ExpectConsistentSequence(result, kFrames, sequence, kWidth, kHeight);
}

// 8-bit frames go through pinned staging and a device conversion: the features must equal
// those of the float frames of the same intensities, bit for bit.
TEST(KltGpuTracker, EightBitFramesGiveTheSameFeaturesAsFloatFrames) {
  PROJ_SKIP_WITHOUT_GPU();
  KltOptions options;
  options.max_features = 400;
  auto from_float = CreateKltTracker(options, ComputeDevice::kGpu);
  auto from_bytes = CreateKltTracker(options, ComputeDevice::kGpu);
  const auto texture = MakeSyntheticTexture(kWidth + 2 * testing::kKltTextureMargin,
                                            kHeight + 2 * testing::kKltTextureMargin, 23);
  size_t compared = 0;
  for (int f = 0; f < 12; ++f) {
    const GrayImage rendered = RenderFrame(texture, testing::KltSequenceMotion(kWidth, kHeight, f), kWidth, kHeight);
    std::vector<uint8_t> bytes(rendered.pixels.size());
    for (size_t p = 0; p < bytes.size(); ++p) {
      bytes[p] = static_cast<uint8_t>(std::lround(std::clamp(rendered.pixels[p], 0.0f, 1.0f) * 255));
    }
    const KltFrame8 frame8{bytes.data(), kWidth, kHeight};
    GrayImage frame;
    ToFloatFrame(frame8, &frame);
    const std::vector<KltFeature> expected = from_float->ProcessFrame(frame);
    const std::vector<KltFeature>& features = from_bytes->ProcessFrame(frame8);
    ASSERT_EQ(features.size(), expected.size()) << "frame " << f;
    for (size_t k = 0; k < features.size(); ++k) {
      ASSERT_EQ(features[k].track_id, expected[k].track_id) << "frame " << f;
      ASSERT_EQ(features[k].x, expected[k].x) << "frame " << f << " feature " << k;
      ASSERT_EQ(features[k].y, expected[k].y) << "frame " << f << " feature " << k;
    }
    compared += features.size();
  }
  EXPECT_GT(compared, 12 * 300u);
}

// The drift correction (cuda/klt/klt_affine.h) on the GPU computes what the CPU refiner
// computes: on a zooming sequence, tracks that start at the same corner on both stay within
// hundredths of a pixel of each other, and both stay on their points.
TEST(KltGpuTracker, AffineRefinementMatchesCpuUnderZoom) {
  PROJ_SKIP_WITHOUT_GPU();
  KltOptions options;
  options.max_features = 300;
  options.reselect_interval_frames = 1000;  // the corners of frame 0 only
  options.reselect_min_fraction = 0;
  auto gpu = CreateKltTracker(options, ComputeDevice::kGpu);
  auto cpu = CreateKltCpuTracker(options);
  const auto texture = MakeSyntheticTexture(kWidth + 2 * testing::kKltTextureMargin,
                                            kHeight + 2 * testing::kKltTextureMargin, 33);
  const auto motion_of = [](int f) { return testing::KltZoomMotion(kWidth, kHeight, f, 0.05); };
  std::map<int, int> cpu_id_of_gpu_id;
  std::map<int, testing::TrackStart> gpu_starts, cpu_starts;
  std::map<int, std::vector<double>> gpu_by_age, cpu_by_age;
  std::vector<double> differences;
  for (int f = 0; f < 12; ++f) {
    const GrayImage frame = RenderFrame(texture, motion_of(f), kWidth, kHeight);
    const std::vector<KltFeature> on_gpu = gpu->ProcessFrame(frame);
    const std::vector<KltFeature> on_cpu = cpu->ProcessFrame(frame);
    testing::AddErrorsByAge(on_gpu, f, motion_of, &gpu_starts, &gpu_by_age);
    testing::AddErrorsByAge(on_cpu, f, motion_of, &cpu_starts, &cpu_by_age);
    std::map<int, KltPoint> cpu_points;
    for (const KltFeature& c : on_cpu) cpu_points[c.track_id] = KltPoint{c.x, c.y};
    if (f == 0) {
      for (const KltFeature& g : on_gpu) {
        for (const KltFeature& c : on_cpu) {
          if (Distance(KltPoint{g.x, g.y}, KltPoint{c.x, c.y}) < 1e-3) cpu_id_of_gpu_id[g.track_id] = c.track_id;
        }
      }
      ASSERT_GE(cpu_id_of_gpu_id.size(), 200u);
      continue;
    }
    for (const KltFeature& g : on_gpu) {
      const auto paired = cpu_id_of_gpu_id.find(g.track_id);
      if (paired == cpu_id_of_gpu_id.end()) continue;
      const auto c = cpu_points.find(paired->second);
      if (c != cpu_points.end()) differences.push_back(Distance(KltPoint{g.x, g.y}, c->second));
    }
  }
  ASSERT_GE(differences.size(), 1000u);
  std::sort(differences.begin(), differences.end());
  std::vector<double> gpu_old, cpu_old;
  for (int age = 6; age < 12; ++age) {
    gpu_old.insert(gpu_old.end(), gpu_by_age[age].begin(), gpu_by_age[age].end());
    cpu_old.insert(cpu_old.end(), cpu_by_age[age].begin(), cpu_by_age[age].end());
  }
  std::printf("[ klt zoom ] GPU vs CPU position: median %.5f px, 95%% %.5f px; error of tracks 6+ "
              "frames old: GPU %.4f px, CPU %.4f px\n",
              differences[differences.size() / 2], differences[differences.size() * 95 / 100],
              Median(gpu_old), Median(cpu_old));
  EXPECT_LT(differences[differences.size() / 2], 0.01);
  EXPECT_LT(differences[differences.size() * 95 / 100], 0.05);
  EXPECT_LT(Median(gpu_old), 0.03);
  EXPECT_NEAR(static_cast<double>(gpu_old.size()), static_cast<double>(cpu_old.size()), 0.1 * cpu_old.size());
}

// Every KLT kernel on small frames, for compute-sanitizer (scripts/gpu_sanitize.sh): 8-bit
// and float uploads, the pyramid, selection (with the mask of surviving tracks at the
// reselection of frame 5), tracking with both window templates (<= 21 and 31) and the
// compaction. Bytes and floats must give the same features, close to the CPU tracker's, and
// the tracks must follow the true motion.
TEST(KltGpuTracker, SmallSequenceRunsEveryKernelAtBothWindowSizes) {
  PROJ_SKIP_WITHOUT_GPU();
  constexpr int kSmallWidth = 256, kSmallHeight = 192, kFrames = 7;
  const auto texture = MakeSyntheticTexture(kSmallWidth + 2 * testing::kKltTextureMargin,
                                            kSmallHeight + 2 * testing::kKltTextureMargin, 31);
  for (const int window : {21, 31}) {
    SCOPED_TRACE(::testing::Message() << "window " << window);
    KltOptions options;
    options.max_features = 80;
    options.window_size = window;
    options.num_levels = 3;
    auto from_float = CreateKltTracker(options, ComputeDevice::kGpu);
    auto from_bytes = CreateKltTracker(options, ComputeDevice::kGpu);
    auto cpu = CreateKltCpuTracker(options);
    std::vector<KltFeature> previous;
    SimilarityMotion previous_motion;
    std::set<int> frames_with_new_tracks;
    std::vector<double> errors;
    for (int f = 0; f < kFrames; ++f) {
      const SimilarityMotion motion = testing::KltSequenceMotion(kSmallWidth, kSmallHeight, f);
      const GrayImage rendered = RenderFrame(texture, motion, kSmallWidth, kSmallHeight);
      std::vector<uint8_t> bytes(rendered.pixels.size());
      for (size_t p = 0; p < bytes.size(); ++p) {
        bytes[p] = static_cast<uint8_t>(std::lround(std::clamp(rendered.pixels[p], 0.0f, 1.0f) * 255));
      }
      const KltFrame8 frame8{bytes.data(), kSmallWidth, kSmallHeight};
      GrayImage frame;
      ToFloatFrame(frame8, &frame);
      const std::vector<KltFeature> expected = from_float->ProcessFrame(frame);
      const std::vector<KltFeature> features = from_bytes->ProcessFrame(frame8);
      ASSERT_EQ(features.size(), expected.size()) << "frame " << f;
      for (size_t k = 0; k < features.size(); ++k) {
        ASSERT_EQ(features[k].track_id, expected[k].track_id) << "frame " << f;
        ASSERT_EQ(features[k].x, expected[k].x) << "frame " << f << " feature " << k;
        ASSERT_EQ(features[k].y, expected[k].y) << "frame " << f << " feature " << k;
      }
      const size_t cpu_count = cpu->ProcessFrame(frame).size();
      EXPECT_NEAR(static_cast<double>(features.size()), static_cast<double>(cpu_count), 0.1 * cpu_count + 2);
      ASSERT_NO_FATAL_FAILURE(testing::CheckSequenceStep(previous, previous_motion, features, motion, f,
                                                         &frames_with_new_tracks, &errors));
      previous = features;
      previous_motion = motion;
    }
    EXPECT_GE(previous.size(), 40u);
    EXPECT_TRUE(frames_with_new_tracks.count(5)) << "no reselection beside surviving tracks";
    EXPECT_LT(Median(errors), 0.1);
  }
}

TEST(KltGpuTracker, RejectsMismatchedFrames) {
  PROJ_SKIP_WITHOUT_GPU();
  auto gpu = CreateKltTracker(KltOptions{}, ComputeDevice::kGpu);
  const auto a = MakeKltPair(kWidth, kHeight, 0, 0, 0, 16);
  const auto b = MakeKltPair(320, 240, 0, 0, 0, 16);
  gpu->ProcessFrame(a.first);
  EXPECT_THROW(gpu->ProcessFrame(b.first), InputError);
  EXPECT_THROW(gpu->TrackPoints(a.first, b.first, {}), InputError);
  gpu->Reset();
  EXPECT_FALSE(gpu->ProcessFrame(b.first).empty());
}

}  // namespace
}  // namespace proj
