// Helpers shared by the KLT tests (CPU and GPU): synthetic frame pairs and sequences with known
// motion, and end-point error statistics.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include "cuda/klt/klt_types.h"
#include "features/feature_types.h"
#include "features/klt/klt_synthetic.h"

namespace proj::testing {

constexpr int kKltTextureMargin = 96;

// Motion of a frame of size width x height that shows the texture (frame + 2 margins) offset
// by the margin, then moved by (shift, angle) about the frame centre.
inline SimilarityMotion KltFrameMotion(int width, int height, double shift_x, double shift_y,
                                       double angle_rad = 0) {
  SimilarityMotion motion;
  motion.pivot_x = width / 2.0 + kKltTextureMargin;
  motion.pivot_y = height / 2.0 + kKltTextureMargin;
  motion.shift_x = shift_x - kKltTextureMargin;
  motion.shift_y = shift_y - kKltTextureMargin;
  motion.angle_rad = angle_rad;
  return motion;
}

struct KltSyntheticPair {
  GrayImage first;
  GrayImage second;
  SimilarityMotion first_motion;
  SimilarityMotion second_motion;
  SyntheticTexture texture;
};

inline KltSyntheticPair MakeKltPair(int width, int height, double shift_x, double shift_y,
                                    double angle_rad, uint64_t seed) {
  KltSyntheticPair pair;
  pair.texture = MakeSyntheticTexture(width + 2 * kKltTextureMargin, height + 2 * kKltTextureMargin, seed);
  pair.first_motion = KltFrameMotion(width, height, 0, 0, 0);
  pair.second_motion = KltFrameMotion(width, height, shift_x, shift_y, angle_rad);
  pair.first = RenderFrame(pair.texture, pair.first_motion, width, height);
  pair.second = RenderFrame(pair.texture, pair.second_motion, width, height);
  return pair;
}

inline double Median(std::vector<double> values) {
  if (values.empty()) return -1;
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

inline double Distance(const KltPoint& a, const KltPoint& b) {
  return std::hypot(static_cast<double>(a.x) - b.x, static_cast<double>(a.y) - b.y);
}

inline std::vector<KltPoint> CornerPoints(const std::vector<KltCorner>& corners) {
  std::vector<KltPoint> points;
  for (const KltCorner& c : corners) points.push_back(KltPoint{c.x, c.y});
  return points;
}

// End-point errors against the true motion of the tracked points.
inline std::vector<double> TruthErrors(const KltSyntheticPair& pair, const std::vector<KltPoint>& start,
                                       const KltTrackResult& result) {
  std::vector<double> errors;
  for (size_t i = 0; i < start.size(); ++i) {
    if (result.status[i] != KltStatus::kTracked) continue;
    const KltPoint truth = MapBetweenFrames(pair.first_motion, pair.second_motion, start[i]);
    errors.push_back(Distance(truth, result.points[i]));
  }
  return errors;
}

inline double TrackedFraction(const KltTrackResult& result) {
  if (result.status.empty()) return 0;
  const auto tracked = std::count(result.status.begin(), result.status.end(), KltStatus::kTracked);
  return static_cast<double>(tracked) / result.status.size();
}

// Replaces the rectangle [x0, x1) x [y0, y1) of `image` with another texture: an occluding,
// unrelated surface.
inline void PaintForeignRegion(GrayImage* image, int x0, int y0, int x1, int y1, uint64_t seed) {
  const SyntheticTexture other = MakeSyntheticTexture(x1 - x0, y1 - y0, seed);
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) {
      image->pixels[static_cast<size_t>(y) * image->width + x] =
          other.values[static_cast<size_t>(y - y0) * other.width + (x - x0)];
    }
  }
}

// Motion of frame f of the test sequence: a smooth drift with a slow rotation.
inline SimilarityMotion KltSequenceMotion(int width, int height, int frame) {
  return KltFrameMotion(width, height, 1.3 * frame, 0.5 * frame + 2.0 * std::sin(frame / 6.0),
                        0.0015 * frame);
}

// Motion of frame f of a forward-motion test sequence: the view zooms in by `zoom_per_frame`
// per frame about a point left of and above the centre (as the focus of expansion of a car
// camera), drifting slightly, so windows stretch and move outwards.
inline SimilarityMotion KltZoomMotion(int width, int height, int frame, double zoom_per_frame) {
  SimilarityMotion motion = KltFrameMotion(width, height, 0.4 * frame, -0.3 * frame, 0.001 * frame);
  motion.scale = std::pow(1 + zoom_per_frame, frame);
  motion.pivot_x = 0.4 * width + kKltTextureMargin;
  motion.pivot_y = 0.45 * height + kKltTextureMargin;
  return motion;
}

// Errors of a tracked sequence's features against the truth, by the track's age: every
// feature alive in a later frame is compared with where its first position moved. Tracks are
// keyed by id; `first_seen` keeps each track's first frame and position.
struct TrackStart {
  int frame = 0;
  KltPoint point;
};
inline void AddErrorsByAge(const std::vector<KltFeature>& features, int frame,
                           const std::function<SimilarityMotion(int)>& motion_of,
                           std::map<int, TrackStart>* first_seen,
                           std::map<int, std::vector<double>>* errors_by_age) {
  for (const KltFeature& feature : features) {
    auto [it, inserted] = first_seen->insert({feature.track_id, TrackStart{frame, {feature.x, feature.y}}});
    if (inserted) continue;
    const KltPoint truth = MapBetweenFrames(motion_of(it->second.frame), motion_of(frame), it->second.point);
    (*errors_by_age)[frame - it->second.frame].push_back(Distance(truth, KltPoint{feature.x, feature.y}));
  }
}

// Checks one ProcessFrame result of a tracked sequence against the previous frame's: track ids
// increase, continuing tracks existed before, and their motion matches the truth (errors are
// appended). Frames that start new tracks are recorded. Call through ASSERT_NO_FATAL_FAILURE.
inline void CheckSequenceStep(const std::vector<KltFeature>& previous,
                              const SimilarityMotion& previous_motion,
                              const std::vector<KltFeature>& features,
                              const SimilarityMotion& motion, int frame,
                              std::set<int>* frames_with_new_tracks, std::vector<double>* errors) {
  const int max_previous_id = previous.empty() ? -1 : previous.back().track_id;
  size_t p = 0;
  for (size_t k = 0; k < features.size(); ++k) {
    if (k > 0) {
      ASSERT_GT(features[k].track_id, features[k - 1].track_id);
    }
    if (features[k].track_id > max_previous_id) {
      frames_with_new_tracks->insert(frame);
      continue;
    }
    while (p < previous.size() && previous[p].track_id < features[k].track_id) ++p;
    ASSERT_LT(p, previous.size());
    ASSERT_EQ(previous[p].track_id, features[k].track_id);
    const KltPoint truth =
        MapBetweenFrames(previous_motion, motion, KltPoint{previous[p].x, previous[p].y});
    errors->push_back(Distance(truth, KltPoint{features[k].x, features[k].y}));
  }
}

}  // namespace proj::testing
