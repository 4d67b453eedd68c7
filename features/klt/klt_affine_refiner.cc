#include "features/klt/klt_affine_refiner.h"

#include <algorithm>
#include <cmath>

namespace proj {

float SampleBilinear(const GrayImage& image, float x, float y) {
  const float fx = std::floor(x), fy = std::floor(y);
  const float ax = x - fx, ay = y - fy;
  const int x0 = static_cast<int>(fx), y0 = static_cast<int>(fy);
  const int xa = std::clamp(x0, 0, image.width - 1), xb = std::clamp(x0 + 1, 0, image.width - 1);
  const int ya = std::clamp(y0, 0, image.height - 1), yb = std::clamp(y0 + 1, 0, image.height - 1);
  return (1 - ay) * ((1 - ax) * image.at(xa, ya) + ax * image.at(xb, ya)) +
         ay * ((1 - ax) * image.at(xa, yb) + ax * image.at(xb, yb));
}

KltAffineTrack CaptureKltTemplate(const GrayImage& frame, const KltPoint& point, int window_size) {
  const int half = window_size / 2;
  const int stride = window_size + 2;
  KltAffineTrack track;
  track.warp.tx = point.x - 0.5f;
  track.warp.ty = point.y - 0.5f;
  track.patch.resize(static_cast<size_t>(stride) * stride);
  for (int r = 0; r < stride; ++r) {
    for (int c = 0; c < stride; ++c) {
      track.patch[r * stride + c] =
          SampleBilinear(frame, track.warp.tx + (c - 1 - half), track.warp.ty + (r - 1 - half));
    }
  }
  return track;
}

KltAffineOutcome RefineKltTrack(const GrayImage& frame, const KltPoint& tracked,
                                const KltOptions& options, KltAffineTrack* track) {
  const int window = options.window_size;
  const int half = window / 2;
  const int stride = window + 2;
  const int area = window * window;
  const float* patch = track->patch.data();

  std::vector<float> sd(static_cast<size_t>(area) * 6);
  float normal[kKltAffineNormalEntries] = {};
  for (int k = 0; k < area; ++k) {
    const int wy = k / window, wx = k - wy * window;
    float gx, gy;
    KltScharrGradient(patch, (wy + 1) * stride + wx + 1, stride, &gx, &gy);
    float* row = &sd[static_cast<size_t>(k) * 6];
    KltAffineSteepestDescent(static_cast<float>(wx - half), static_cast<float>(wy - half), gx, gy, row);
    int e = 0;
    for (int r = 0; r < 6; ++r) {
      for (int c = r; c < 6; ++c) normal[e++] += row[r] * row[c];
    }
  }

  KltAffineOutcome outcome;
  KltAffineWarp warp = track->warp;
  warp.tx = tracked.x - 0.5f;
  warp.ty = tracked.y - 0.5f;
  const float start_x = warp.tx, start_y = warp.ty;
  const auto template_at = [&](int k) {
    const int wy = k / window, wx = k - wy * window;
    return patch[(wy + 1) * stride + wx + 1];
  };
  const auto frame_at = [&](const KltAffineWarp& w, int k) {
    const float i = static_cast<float>(k % window - half), j = static_cast<float>(k / window - half);
    return SampleBilinear(frame, w.a11 * i + w.a12 * j + w.tx, w.a21 * i + w.a22 * j + w.ty);
  };
  const float epsilon = static_cast<float>(options.epsilon_px);
  for (int iteration = 0; iteration < options.affine_max_iterations; ++iteration) {
    if (!KltWarpInside(warp, static_cast<float>(half), frame.width, frame.height)) {
      outcome.status = KltStatus::kLost;
      return outcome;
    }
    float b[6] = {};
    for (int k = 0; k < area; ++k) {
      const float difference = frame_at(warp, k) - template_at(k);
      const float* row = &sd[static_cast<size_t>(k) * 6];
      for (int r = 0; r < 6; ++r) b[r] += row[r] * difference;
    }
    const KltAffineStep step = KltTakeAffineStep(normal, b, static_cast<float>(half), epsilon, &warp);
    if (step == KltAffineStep::kFailed) {
      outcome.status = KltStatus::kTemplateMismatch;
      return outcome;
    }
    if (step == KltAffineStep::kConverged) break;
  }
  const float correction = std::hypot(warp.tx - start_x, warp.ty - start_y);
  if (!KltWarpScaleWithin(warp, static_cast<float>(options.affine_max_scale)) ||
      !(correction <= options.affine_max_correction_px)) {
    outcome.status = KltStatus::kTemplateMismatch;
    return outcome;
  }
  if (!(warp.tx - half >= 0 && warp.ty - half >= 0 && warp.tx + half <= frame.width - 1 &&
        warp.ty + half <= frame.height - 1) ||
      !KltWarpInside(warp, static_cast<float>(half), frame.width, frame.height)) {
    outcome.status = KltStatus::kOutOfImage;
    return outcome;
  }
  float sum = 0;
  for (int k = 0; k < area; ++k) sum += std::abs(frame_at(warp, k) - template_at(k));
  outcome.residual = sum / area;
  if (options.max_residual > 0 && outcome.residual > options.max_residual) {
    outcome.status = KltStatus::kLargeResidual;
    return outcome;
  }
  outcome.point = KltPoint{warp.tx + 0.5f, warp.ty + 0.5f};
  track->warp = warp;
  return outcome;
}

}  // namespace proj
