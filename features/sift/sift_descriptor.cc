#include "features/sift/sift_descriptor.h"

#include <algorithm>
#include <cmath>

namespace proj {
namespace {

constexpr float kTwoPi = 6.283185307179586f;

float Mod2Pi(float angle) {
  angle = std::fmod(angle, kTwoPi);
  if (angle < 0) angle += kTwoPi;
  return angle >= kTwoPi ? 0.0f : angle;
}

void Gradient(const Plane& level, int x, int y, float* magnitude, float* angle) {
  const float gx = 0.5f * (level.at(x + 1, y) - level.at(x - 1, y));
  const float gy = 0.5f * (level.at(x, y + 1) - level.at(x, y - 1));
  *magnitude = std::sqrt(gx * gx + gy * gy);
  *angle = Mod2Pi(std::atan2(gy, gx));
}

}  // namespace

int ComputeSiftOrientations(const Plane& level, float x, float y, float sigma,
                            const SiftParams& params, float* angles) {
  const int w = level.width, h = level.height;
  const float window_sigma = params.orientation_window_factor * sigma;
  const int radius = std::max(1, static_cast<int>(std::floor(3.0f * window_sigma)));
  const int xi = static_cast<int>(std::floor(x + 0.5f));
  const int yi = static_cast<int>(std::floor(y + 0.5f));
  float hist[kSiftOrientationBins] = {};
  for (int py = std::max(yi - radius, 1); py <= std::min(yi + radius, h - 2); ++py) {
    for (int px = std::max(xi - radius, 1); px <= std::min(xi + radius, w - 2); ++px) {
      const float dx = px - x, dy = py - y;
      const float r2 = dx * dx + dy * dy;
      if (r2 >= radius * radius + 0.6f) continue;
      float magnitude = 0, angle = 0;
      Gradient(level, px, py, &magnitude, &angle);
      const float weight = std::exp(-r2 / (2 * window_sigma * window_sigma)) * magnitude;
      const float fbin = kSiftOrientationBins * angle / kTwoPi;
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
  int count = 0;
  for (int i = 0; i < kSiftOrientationBins; ++i) {
    const float h0 = hist[i];
    const float hm = hist[(i + kSiftOrientationBins - 1) % kSiftOrientationBins];
    const float hp = hist[(i + 1) % kSiftOrientationBins];
    if (h0 > params.orientation_peak_ratio * max_value && h0 > hm && h0 > hp) {
      const float offset = -0.5f * (hp - hm) / (hp + hm - 2 * h0);
      peak_angle[count] = Mod2Pi(kTwoPi * (i + offset + 0.5f) / kSiftOrientationBins);
      peak_value[count] = h0;
      ++count;
    }
  }
  int kept = 0;
  while (kept < params.max_orientations && kept < count) {
    int best = kept;
    for (int i = kept + 1; i < count; ++i) {
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
  for (int py = std::max(yi - radius, 1); py <= std::min(yi + radius, h - 2); ++py) {
    for (int px = std::max(xi - radius, 1); px <= std::min(xi + radius, w - 2); ++px) {
      const float dx = px - x, dy = py - y;
      // Offset in cell units, in the keypoint's rotated frame.
      const float nx = (c * dx + s * dy) / cell;
      const float ny = (-s * dx + c * dy) / cell;
      if (std::fabs(nx) >= kCells / 2.0f + 0.5f || std::fabs(ny) >= kCells / 2.0f + 0.5f) continue;
      float magnitude = 0, gradient_angle = 0;
      Gradient(level, px, py, &magnitude, &gradient_angle);
      const float nt = kBins * Mod2Pi(gradient_angle - angle) / kTwoPi;
      const float weight =
          std::exp(-(nx * nx + ny * ny) / (2 * weight_sigma * weight_sigma)) * magnitude;
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
