// Synthetic frames with exactly known motion, for testing and benchmarking the KLT trackers:
// a smooth random texture on the plane, rendered through a 2D similarity with bilinear
// interpolation. Coordinates follow the project convention (pixel centres at +0.5).
#pragma once

#include <cstdint>

#include "cuda/klt/klt_types.h"
#include "features/feature_types.h"

namespace proj {

// Texture values on a unit grid (texel j centred at j + 0.5), bilinear in between, values in
// about [0.05, 0.95]: white noise blurred at two scales (fine corners, coarse structure for
// the upper pyramid levels).
struct SyntheticTexture {
  int width = 0;
  int height = 0;
  std::vector<float> values;
  float Sample(double x, double y) const;  // bilinear, clamped at the border
};

SyntheticTexture MakeSyntheticTexture(int width, int height, uint64_t seed);

// Frame point = scale * R(angle_rad) * (texture point - pivot) + pivot + shift, pixels.
struct SimilarityMotion {
  double shift_x = 0;
  double shift_y = 0;
  double angle_rad = 0;
  double scale = 1;
  double pivot_x = 0;
  double pivot_y = 0;

  KltPoint ToFrame(double texture_x, double texture_y) const;
  KltPoint ToTexture(double frame_x, double frame_y) const;
};

// Frame pixel (x, y) = texture sampled at motion.ToTexture(x + 0.5, y + 0.5). Parallel over
// rows on `num_threads` threads (0 = all).
GrayImage RenderFrame(const SyntheticTexture& texture, const SimilarityMotion& motion, int width,
                      int height, int num_threads = 0);

// Where a point of frame `a` is in frame `b` (both rendered from the same texture).
KltPoint MapBetweenFrames(const SimilarityMotion& a, const SimilarityMotion& b, KltPoint point);

}  // namespace proj
