#include "features/sift/sift_descriptor.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "features/sift/fast_atan2.h"

namespace proj {
namespace {

constexpr float kTwoPi = 6.283185307179586f;

// An angle in (-2 pi, 2 pi) brought into [0, 2 pi) (for those, what fmod and a wrap of
// negatives give), without a library call.
inline float WrapTwoPi(float angle) {
  angle += angle < 0.0f ? kTwoPi : 0.0f;
  return angle >= kTwoPi ? 0.0f : angle;
}

// Gradient magnitudes and angles in [0, 2 pi) (central differences) of the samples
// (x_begin + i, y), i < count: one vectorized loop per row of a window.
void RowGradients(const Plane& level, int y, int x_begin, int count, float* magnitude,
                  float* angle) {
  const float* row = level.row(y) + x_begin;
  const float* above = level.row(y - 1) + x_begin;
  const float* below = level.row(y + 1) + x_begin;
  for (int i = 0; i < count; ++i) {
    const float gx = 0.5f * (row[i + 1] - row[i - 1]);
    const float gy = 0.5f * (below[i] - above[i]);
    magnitude[i] = std::sqrt(gx * gx + gy * gy);
    angle[i] = WrapTwoPi(FastAtan2(gy, gx));
  }
}

// Scratch rows of one window.
struct WindowRows {
  std::vector<float> magnitude, angle, cell_x, cell_y;
  explicit WindowRows(int count)
      : magnitude(std::max(count, 0)), angle(std::max(count, 0)), cell_x(std::max(count, 0)),
        cell_y(std::max(count, 0)) {}
};

}  // namespace

int ComputeSiftOrientations(const Plane& level, float x, float y, float sigma,
                            const SiftParams& params, float* angles) {
  const int w = level.width, h = level.height;
  const float window_sigma = params.orientation_window_factor * sigma;
  const int radius = std::max(1, static_cast<int>(std::floor(3.0f * window_sigma)));
  const int xi = static_cast<int>(std::floor(x + 0.5f));
  const int yi = static_cast<int>(std::floor(y + 0.5f));
  float hist[kSiftOrientationBins] = {};
  const int x_begin = std::max(xi - radius, 1), x_end = std::min(xi + radius, w - 2);
  const int count = x_end - x_begin + 1;
  WindowRows rows(count);
  for (int py = std::max(yi - radius, 1); py <= std::min(yi + radius, h - 2) && count > 0; ++py) {
    RowGradients(level, py, x_begin, count, rows.magnitude.data(), rows.angle.data());
    for (int i = 0; i < count; ++i) {
      const float dx = x_begin + i - x, dy = py - y;
      const float r2 = dx * dx + dy * dy;
      if (r2 >= radius * radius + 0.6f) continue;
      const float weight = std::exp(-r2 / (2 * window_sigma * window_sigma)) * rows.magnitude[i];
      const float fbin = kSiftOrientationBins * rows.angle[i] / kTwoPi;
      const int bin = static_cast<int>(std::floor(fbin - 0.5f));
      const float frac = fbin - bin - 0.5f;
      hist[(bin + kSiftOrientationBins) % kSiftOrientationBins] += (1 - frac) * weight;
      hist[(bin + 1) % kSiftOrientationBins] += frac * weight;
    }
  }
  for (int iteration = 0; iteration < 6; ++iteration) {
    const float first = hist[0];
    float previous = hist[kSiftOrientationBins - 1];
    for (int i = 0; i < kSiftOrientationBins; ++i) {
      const float next = i + 1 < kSiftOrientationBins ? hist[i + 1] : first;
      const float current = hist[i];
      hist[i] = (previous + current + next) / 3.0f;
      previous = current;
    }
  }
  float max_value = 0;
  for (float v : hist) max_value = std::max(max_value, v);
  if (!(max_value > 0)) return 0;
  // Collect peaks, then keep the strongest max_orientations.
  float peak_angle[kSiftOrientationBins], peak_value[kSiftOrientationBins];
  int num_peaks = 0;
  for (int i = 0; i < kSiftOrientationBins; ++i) {
    const float h0 = hist[i];
    const float hm = hist[(i + kSiftOrientationBins - 1) % kSiftOrientationBins];
    const float hp = hist[(i + 1) % kSiftOrientationBins];
    if (h0 > params.orientation_peak_ratio * max_value && h0 > hm && h0 > hp) {
      const float offset = -0.5f * (hp - hm) / (hp + hm - 2 * h0);
      peak_angle[num_peaks] = WrapTwoPi(kTwoPi * (i + offset + 0.5f) / kSiftOrientationBins);
      peak_value[num_peaks] = h0;
      ++num_peaks;
    }
  }
  int kept = 0;
  while (kept < params.max_orientations && kept < num_peaks) {
    int best = kept;
    for (int i = kept + 1; i < num_peaks; ++i) {
      if (peak_value[i] > peak_value[best]) best = i;
    }
    std::swap(peak_value[kept], peak_value[best]);
    std::swap(peak_angle[kept], peak_angle[best]);
    angles[kept] = peak_angle[kept];
    ++kept;
  }
  return kept;
}

void NormalizeSiftDescriptor(float* histogram, uint8_t* descriptor) {
  auto normalize = [histogram]() {
    float norm = 0;
    for (int i = 0; i < 128; ++i) norm += histogram[i] * histogram[i];
    norm = std::sqrt(norm);
    if (norm > 0) {
      for (int i = 0; i < 128; ++i) histogram[i] /= norm;
    }
  };
  normalize();
  for (int i = 0; i < 128; ++i) histogram[i] = std::min(histogram[i], 0.2f);
  normalize();
  for (int i = 0; i < 128; ++i) {
    descriptor[i] = static_cast<uint8_t>(std::min(255.0f, std::round(512.0f * histogram[i])));
  }
}

void ComputeSiftDescriptor(const Plane& level, float x, float y, float sigma, float angle,
                           const SiftParams& params, uint8_t* descriptor) {
  constexpr int kCells = 4, kBins = 8;
  const int w = level.width, h = level.height;
  const float cell = params.descriptor_magnification * sigma;
  const int radius =
      static_cast<int>(std::floor(std::sqrt(2.0f) * cell * (kCells + 1) * 0.5f + 0.5f));
  const float c = std::cos(angle), s = std::sin(angle);
  const float weight_sigma = kCells / 2.0f;
  const int xi = static_cast<int>(std::floor(x + 0.5f));
  const int yi = static_cast<int>(std::floor(y + 0.5f));
  float hist[kCells * kCells * kBins] = {};
  const int x_begin = std::max(xi - radius, 1), x_end = std::min(xi + radius, w - 2);
  const int count = x_end - x_begin + 1;
  WindowRows rows(count);
  for (int py = std::max(yi - radius, 1); py <= std::min(yi + radius, h - 2) && count > 0; ++py) {
    RowGradients(level, py, x_begin, count, rows.magnitude.data(), rows.angle.data());
    const float dy = py - y;
    for (int i = 0; i < count; ++i) {
      // Offset in cell units, in the keypoint's rotated frame.
      const float dx = x_begin + i - x;
      rows.cell_x[i] = (c * dx + s * dy) / cell;
      rows.cell_y[i] = (-s * dx + c * dy) / cell;
    }
    for (int i = 0; i < count; ++i) {
      const float nx = rows.cell_x[i], ny = rows.cell_y[i];
      if (std::fabs(nx) >= kCells / 2.0f + 0.5f || std::fabs(ny) >= kCells / 2.0f + 0.5f) continue;
      const float nt = kBins * WrapTwoPi(rows.angle[i] - angle) / kTwoPi;
      const float weight =
          std::exp(-(nx * nx + ny * ny) / (2 * weight_sigma * weight_sigma)) * rows.magnitude[i];
      const int bx = static_cast<int>(std::floor(nx - 0.5f));
      const int by = static_cast<int>(std::floor(ny - 0.5f));
      const int bt = static_cast<int>(std::floor(nt));
      const float rx = nx - (bx + 0.5f), ry = ny - (by + 0.5f), rt = nt - bt;
      for (int dby = 0; dby < 2; ++dby) {
        const int cy = by + dby + kCells / 2;
        if (cy < 0 || cy >= kCells) continue;
        const float wy = dby ? ry : 1 - ry;
        for (int dbx = 0; dbx < 2; ++dbx) {
          const int cx = bx + dbx + kCells / 2;
          if (cx < 0 || cx >= kCells) continue;
          const float wxy = wy * (dbx ? rx : 1 - rx) * weight;
          for (int dbt = 0; dbt < 2; ++dbt) {
            const int ct = (bt + dbt) % kBins;
            hist[(cy * kCells + cx) * kBins + ct] += wxy * (dbt ? rt : 1 - rt);
          }
        }
      }
    }
  }
  NormalizeSiftDescriptor(hist, descriptor);
}

}  // namespace proj
