#include "features/klt/klt_synthetic.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "core/check.h"
#include "core/parallel_for.h"

namespace proj {
namespace {

// Separable Gaussian blur with clamped borders.
std::vector<float> Blur(const std::vector<float>& in, int width, int height, double sigma) {
  const int radius = static_cast<int>(std::ceil(3 * sigma));
  std::vector<float> kernel(2 * radius + 1);
  double sum = 0;
  for (int i = -radius; i <= radius; ++i) sum += kernel[i + radius] = static_cast<float>(std::exp(-0.5 * i * i / (sigma * sigma)));
  for (float& k : kernel) k = static_cast<float>(k / sum);
  std::vector<float> rows(in.size());
  std::vector<float> out(in.size());
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      float acc = 0;
      for (int i = -radius; i <= radius; ++i) acc += kernel[i + radius] * in[static_cast<size_t>(y) * width + std::clamp(x + i, 0, width - 1)];
      rows[static_cast<size_t>(y) * width + x] = acc;
    }
  }
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      float acc = 0;
      for (int i = -radius; i <= radius; ++i) acc += kernel[i + radius] * rows[static_cast<size_t>(std::clamp(y + i, 0, height - 1)) * width + x];
      out[static_cast<size_t>(y) * width + x] = acc;
    }
  }
  return out;
}

// Scales to zero mean, unit standard deviation.
void Standardise(std::vector<float>* values) {
  double mean = 0, square = 0;
  for (float v : *values) mean += v;
  mean /= values->size();
  for (float v : *values) square += (v - mean) * (v - mean);
  const double deviation = std::sqrt(square / values->size()) + 1e-12;
  for (float& v : *values) v = static_cast<float>((v - mean) / deviation);
}

}  // namespace

float SyntheticTexture::Sample(double x, double y) const {
  const double fx = x - 0.5;
  const double fy = y - 0.5;
  const int x0 = static_cast<int>(std::floor(fx));
  const int y0 = static_cast<int>(std::floor(fy));
  const double ax = fx - x0;
  const double ay = fy - y0;
  auto at = [&](int xi, int yi) {
    return values[static_cast<size_t>(std::clamp(yi, 0, height - 1)) * width + std::clamp(xi, 0, width - 1)];
  };
  const double top = (1 - ax) * at(x0, y0) + ax * at(x0 + 1, y0);
  const double bottom = (1 - ax) * at(x0, y0 + 1) + ax * at(x0 + 1, y0 + 1);
  return static_cast<float>((1 - ay) * top + ay * bottom);
}

SyntheticTexture MakeSyntheticTexture(int width, int height, uint64_t seed) {
  PROJ_REQUIRE(width > 0 && height > 0, "synthetic texture size must be positive");
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  const size_t count = static_cast<size_t>(width) * height;
  std::vector<float> fine(count), coarse(count);
  for (float& v : fine) v = normal(rng);
  for (float& v : coarse) v = normal(rng);
  fine = Blur(fine, width, height, 1.5);
  coarse = Blur(coarse, width, height, 6.0);
  Standardise(&fine);
  Standardise(&coarse);
  SyntheticTexture texture;
  texture.width = width;
  texture.height = height;
  texture.values.resize(count);
  for (size_t i = 0; i < count; ++i) {
    const float v = 0.5f + 0.12f * (0.7f * fine[i] + 0.7f * coarse[i]);
    texture.values[i] = std::clamp(v, 0.05f, 0.95f);
  }
  return texture;
}

KltPoint SimilarityMotion::ToFrame(double texture_x, double texture_y) const {
  const double c = std::cos(angle_rad) * scale;
  const double s = std::sin(angle_rad) * scale;
  const double dx = texture_x - pivot_x;
  const double dy = texture_y - pivot_y;
  return KltPoint{static_cast<float>(c * dx - s * dy + pivot_x + shift_x),
                  static_cast<float>(s * dx + c * dy + pivot_y + shift_y)};
}

KltPoint SimilarityMotion::ToTexture(double frame_x, double frame_y) const {
  const double c = std::cos(angle_rad) / scale;
  const double s = std::sin(angle_rad) / scale;
  const double dx = frame_x - pivot_x - shift_x;
  const double dy = frame_y - pivot_y - shift_y;
  return KltPoint{static_cast<float>(c * dx + s * dy + pivot_x),
                  static_cast<float>(-s * dx + c * dy + pivot_y)};
}

GrayImage RenderFrame(const SyntheticTexture& texture, const SimilarityMotion& motion, int width,
                      int height, int num_threads) {
  GrayImage image;
  image.width = width;
  image.height = height;
  image.pixels.resize(static_cast<size_t>(width) * height);
  const double c = std::cos(motion.angle_rad) / motion.scale;
  const double s = std::sin(motion.angle_rad) / motion.scale;
  ParallelFor(0, height, num_threads, [&](int y, int) {
    for (int x = 0; x < width; ++x) {
      // Inline ToTexture in double precision.
      const double dx = x + 0.5 - motion.pivot_x - motion.shift_x;
      const double dy = y + 0.5 - motion.pivot_y - motion.shift_y;
      image.pixels[static_cast<size_t>(y) * width + x] =
          texture.Sample(c * dx + s * dy + motion.pivot_x, -s * dx + c * dy + motion.pivot_y);
    }
  });
  return image;
}

KltPoint MapBetweenFrames(const SimilarityMotion& a, const SimilarityMotion& b, KltPoint point) {
  const double c = std::cos(a.angle_rad) / a.scale;
  const double s = std::sin(a.angle_rad) / a.scale;
  const double dx = point.x - a.pivot_x - a.shift_x;
  const double dy = point.y - a.pivot_y - a.shift_y;
  const double tx = c * dx + s * dy + a.pivot_x;
  const double ty = -s * dx + c * dy + a.pivot_y;
  return b.ToFrame(tx, ty);
}

}  // namespace proj
