// The SIFT scale space on the CPU: per octave, S + 3 smoothed levels (s = -1 .. S + 1) and
// their S + 2 differences of Gaussians (DoG level s = G(s + 1) - G(s), s = -1 .. S).
//
// Octave bases (level -1): the input (or its 2x bilinear upsampling for octave -1) smoothed
// from assumed_blur to sigma0 * 2^(-1/S); octave o + 1's base is every second sample of
// level S - 1 of octave o (whose blur is exactly the base blur at half resolution).
// Borders replicate the edge pixel. Conventions: features/sift/sift_params.h.
//
// Hook for other smoothing operators (the trilateral scale space, issue 4): every level
// s = 0 .. S + 1 of an octave is produced by ONE call of a LevelSmoother, given the octave's
// base image (level -1, blur base_sigma), the previous level (blur previous_sigma) and the
// blur target_sigma wanted (all in octave pixels). The Gaussian smoother blurs the previous
// level by sqrt(target^2 - previous^2) (cheapest, exact for Gaussians); an edge-aware
// smoother filters the base image at the level's sigma. To plug one in:
//   1. implement `LevelSmoother CreateTrilateralLevelSmoother(const FeatureOptions&)` in
//      features/trilateral/trilateral_level_smoother.{h,cc};
//   2. in features/trilateral/sources.cmake add the .cc to proj_features and
//      `target_compile_definitions(proj_features PRIVATE PROJ_HAVE_TRILATERAL=1)`.
// MakeLevelSmoother() then returns it for ScaleSpaceType::kTrilateral; until then it throws
// InputError("trilateral scale space not available"). The CUDA equivalent is documented in
// cuda/sift/scale_space_gpu.cuh.
#pragma once

#include <functional>
#include <vector>

#include "features/feature_extractor.h"
#include "features/sift/sift_params.h"

namespace proj {

// A single-channel float image, row-major.
struct Plane {
  int width = 0;
  int height = 0;
  std::vector<float> pixels;

  Plane() = default;
  Plane(int w, int h) : width(w), height(h), pixels(static_cast<size_t>(w) * h) {}
  float at(int x, int y) const { return pixels[static_cast<size_t>(y) * width + x]; }
  float& at(int x, int y) { return pixels[static_cast<size_t>(y) * width + x]; }
  const float* row(int y) const { return &pixels[static_cast<size_t>(y) * width]; }
  float* row(int y) { return &pixels[static_cast<size_t>(y) * width]; }
};

// Inputs of one level-smoothing step; sigmas in octave pixels.
struct LevelSmoothRequest {
  const Plane* base = nullptr;      // level -1 of the octave
  float base_sigma = 0;
  const Plane* previous = nullptr;  // level s - 1
  float previous_sigma = 0;
  float target_sigma = 0;           // blur of the level to produce
  int num_threads = 1;
};
// Writes the level (same size as the base) to *out. Must be thread-safe.
using LevelSmoother = std::function<void(const LevelSmoothRequest& request, Plane* out)>;

// Gaussian blur of `previous` by sqrt(target_sigma^2 - previous_sigma^2).
LevelSmoother GaussianLevelSmoother();
// The smoother for options.scale_space (throws InputError when it is not built in).
LevelSmoother MakeLevelSmoother(const FeatureOptions& options);

struct Octave {
  int index = 0;                 // o: sample spacing 2^o input pixels
  int width = 0;
  int height = 0;
  std::vector<Plane> gaussians;  // [s + 1] = level s, s = -1 .. S + 1
  std::vector<Plane> dogs;       // [s + 1] = G(s + 1) - G(s), s = -1 .. S
};

struct ScaleSpace {
  std::vector<Octave> octaves;
};

// Normalised 1-D Gaussian taps exp(-x^2 / (2 sigma^2)), x = -radius .. radius, radius =
// ceil(4 sigma) (at least 1). The GPU builds the same taps (cuda/sift/).
std::vector<float> GaussianTaps(float sigma);

// Separable Gaussian blur with replicated borders (rows on `num_threads` threads).
void GaussianBlur(const Plane& in, float sigma, int num_threads, Plane* out);

// Blur of level s (s = -1 .. S + 1) in octave pixels.
float LevelSigma(const SiftParams& params, int s);

// Builds the whole scale space of `image` (values in [0, 1]).
ScaleSpace BuildScaleSpace(const GrayImage& image, const SiftParams& params,
                           const LevelSmoother& smoother, int num_threads);

}  // namespace proj
