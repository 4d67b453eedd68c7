#include "features/sift/scale_space.h"

#include <algorithm>
#include <cmath>

#include "core/check.h"
#include "core/parallel_for.h"

#ifdef PROJ_HAVE_TRILATERAL
#include "features/trilateral/trilateral_level_smoother.h"
#endif

namespace proj {
namespace {

// Rows per ParallelFor work item: large enough to amortise scheduling.
constexpr int kRowsPerItem = 32;

void ForRowBlocks(int height, int num_threads, const std::function<void(int, int)>& rows) {
  const int blocks = (height + kRowsPerItem - 1) / kRowsPerItem;
  ParallelFor(0, blocks, num_threads, [&](int block, int) {
    rows(block * kRowsPerItem, std::min(height, (block + 1) * kRowsPerItem));
  });
}

// 2x upsampling with bilinear interpolation at the half-sample positions: output sample
// (2i + a, 2j + b) lies at input position (i + a/2, j + b/2), edges replicated.
Plane Upsample2x(const GrayImage& image) {
  const int w = image.width, h = image.height;
  Plane out(2 * w, 2 * h);
  for (int y = 0; y < h; ++y) {
    const int y1 = std::min(y + 1, h - 1);
    for (int x = 0; x < w; ++x) {
      const int x1 = std::min(x + 1, w - 1);
      const float p00 = image.at(x, y), p10 = image.at(x1, y);
      const float p01 = image.at(x, y1), p11 = image.at(x1, y1);
      out.at(2 * x, 2 * y) = p00;
      out.at(2 * x + 1, 2 * y) = 0.5f * (p00 + p10);
      out.at(2 * x, 2 * y + 1) = 0.5f * (p00 + p01);
      out.at(2 * x + 1, 2 * y + 1) = 0.25f * (p00 + p10 + p01 + p11);
    }
  }
  return out;
}

Plane Decimate2x(const Plane& in) {
  Plane out(in.width / 2, in.height / 2);
  for (int y = 0; y < out.height; ++y) {
    const float* src = in.row(2 * y);
    float* dst = out.row(y);
    for (int x = 0; x < out.width; ++x) dst[x] = src[2 * x];
  }
  return out;
}

// Blur from `from_sigma` to `to_sigma` (no-op copy when already blurred enough).
void BlurTo(const Plane& in, float from_sigma, float to_sigma, int num_threads, Plane* out) {
  if (to_sigma <= from_sigma + 1e-6f) {
    *out = in;
    return;
  }
  GaussianBlur(in, std::sqrt(to_sigma * to_sigma - from_sigma * from_sigma), num_threads, out);
}

}  // namespace

std::vector<float> GaussianTaps(float sigma) {
  const int radius = std::max(1, static_cast<int>(std::ceil(4.0f * sigma)));
  std::vector<double> taps(2 * radius + 1);
  double sum = 0;
  for (int i = -radius; i <= radius; ++i) {
    taps[i + radius] = std::exp(-0.5 * i * i / (static_cast<double>(sigma) * sigma));
    sum += taps[i + radius];
  }
  std::vector<float> result(taps.size());
  for (size_t i = 0; i < taps.size(); ++i) result[i] = static_cast<float>(taps[i] / sum);
  return result;
}

void GaussianBlur(const Plane& in, float sigma, int num_threads, Plane* out) {
  PROJ_CHECK(sigma > 0, "GaussianBlur needs sigma > 0");
  const std::vector<float> taps = GaussianTaps(sigma);
  const int radius = static_cast<int>(taps.size()) / 2;
  const int w = in.width, h = in.height;
  Plane tmp(w, h);
  // Horizontal pass; taps summed from -radius to +radius in this order (the GPU sums in the
  // same order, so both round alike). Tap by tap over the whole row, so that the inner loop
  // runs along x in SIMD registers, each pixel's sum still taking the taps in that order.
  ForRowBlocks(h, num_threads, [&](int y0, int y1) {
    std::vector<float> padded(w + 2 * radius);
    for (int y = y0; y < y1; ++y) {
      const float* src = in.row(y);
      for (int x = 0; x < w + 2 * radius; ++x) padded[x] = src[std::clamp(x - radius, 0, w - 1)];
      float* dst = tmp.row(y);
      // The first tap's products are the sums so far (0 + p rounds to p).
      for (int x = 0; x < w; ++x) dst[x] = taps[0] * padded[x];
      for (int k = 1; k <= 2 * radius; ++k) {
        const float t = taps[k];
        const float* shifted = padded.data() + k;
        for (int x = 0; x < w; ++x) dst[x] += t * shifted[x];
      }
    }
  });
  // Vertical pass, accumulated row by row so the inner loop runs along x.
  Plane result(w, h);
  ForRowBlocks(h, num_threads, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y) {
      float* dst = result.row(y);
      const float* top = tmp.row(std::clamp(y - radius, 0, h - 1));
      for (int x = 0; x < w; ++x) dst[x] = taps[0] * top[x];
      for (int k = 1; k <= 2 * radius; ++k) {
        const float* src = tmp.row(std::clamp(y + k - radius, 0, h - 1));
        const float t = taps[k];
        for (int x = 0; x < w; ++x) dst[x] += t * src[x];
      }
    }
  });
  *out = std::move(result);
}

LevelSmoother GaussianLevelSmoother() {
  return [](const LevelSmoothRequest& request, Plane* out) {
    BlurTo(*request.previous, request.previous_sigma, request.target_sigma, request.num_threads,
           out);
  };
}

LevelSmoother MakeLevelSmoother(const FeatureOptions& options) {
  switch (options.scale_space) {
    case ScaleSpaceType::kGaussian:
      return GaussianLevelSmoother();
    case ScaleSpaceType::kTrilateral:
#ifdef PROJ_HAVE_TRILATERAL
      return CreateTrilateralLevelSmoother(options);
#else
      PROJ_REQUIRE(false, "trilateral scale space not available");
#endif
  }
  PROJ_CHECK(false, "unhandled scale space type");
  return nullptr;
}

float LevelSigma(const SiftParams& params, int s) {
  return params.sigma0 * std::pow(2.0f, static_cast<float>(s) / params.levels_per_octave);
}

ScaleSpace BuildScaleSpace(const GrayImage& image, const SiftParams& params,
                           const LevelSmoother& smoother, int num_threads) {
  PROJ_REQUIRE(image.width > 0 && image.height > 0 &&
                   image.pixels.size() == static_cast<size_t>(image.width) * image.height,
               "SIFT input image is empty or inconsistent (" << image.width << "x"
                                                             << image.height << ")");
  params.Check();
  const int S = params.levels_per_octave;
  const int num_octaves = NumOctaves(params, image.width, image.height);
  ScaleSpace space;
  space.octaves.resize(num_octaves);
  const float base_sigma = LevelSigma(params, -1);
  for (int i = 0; i < num_octaves; ++i) {
    Octave& octave = space.octaves[i];
    octave.index = params.first_octave() + i;
    OctaveSize(image.width, image.height, octave.index, &octave.width, &octave.height);
    octave.gaussians.resize(S + 3);
    octave.dogs.resize(S + 2);
    if (i == 0) {
      Plane input;
      if (params.upsample) {
        input = Upsample2x(image);
      } else {
        input = Plane(image.width, image.height);
        input.pixels = image.pixels;
      }
      const float input_sigma = params.assumed_blur * std::pow(2.0f, -params.first_octave());
      BlurTo(input, input_sigma, base_sigma, num_threads, &octave.gaussians[0]);
    } else {
      octave.gaussians[0] = Decimate2x(space.octaves[i - 1].gaussians[S]);
    }
    PROJ_CHECK(octave.gaussians[0].width == octave.width &&
                   octave.gaussians[0].height == octave.height,
               "octave size mismatch");
    for (int s = 0; s <= S + 1; ++s) {
      LevelSmoothRequest request;
      request.base = &octave.gaussians[0];
      request.base_sigma = base_sigma;
      request.previous = &octave.gaussians[s];
      request.previous_sigma = LevelSigma(params, s - 1);
      request.target_sigma = LevelSigma(params, s);
      request.num_threads = num_threads;
      smoother(request, &octave.gaussians[s + 1]);
      PROJ_CHECK(octave.gaussians[s + 1].width == octave.width &&
                     octave.gaussians[s + 1].height == octave.height,
                 "level smoother returned a plane of the wrong size");
    }
    for (int s = 0; s <= S + 1; ++s) {
      Plane& dog = octave.dogs[s];
      dog = Plane(octave.width, octave.height);
      const std::vector<float>& a = octave.gaussians[s + 1].pixels;
      const std::vector<float>& b = octave.gaussians[s].pixels;
      for (size_t k = 0; k < dog.pixels.size(); ++k) dog.pixels[k] = a[k] - b[k];
    }
  }
  return space;
}

}  // namespace proj
