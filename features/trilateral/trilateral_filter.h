// Trilateral filter, CPU reference (Choudhury & Tumblin, "The Trilateral Filter for High
// Contrast Images and Meshes", EGSR 2003), exactly as ../shared/docs/trilateral-filter.md
// specifies it (the widely copied reference code; section numbers below refer to that text).
//
// Input: one scalar channel, row-major, any real range (no normalisation; the filter is
// affine-covariant). Output: same size, not clamped. The only user parameter is sigma_c
// (pixels); sigma_r, R and sigma_r_theta come from the image's own gradients (beta * max g).
//
// Templated on the storage type T (float or double); every sum accumulates in double.
// The float instantiation is the conformance target of the CUDA port (cuda/trilateral/):
// gx, gy, g, sigma_r and the level map L are bit-identical there.
// Thread safety: pure functions; each call runs on options.num_threads threads.
#pragma once

#include <cstdint>
#include <vector>

#include "cuda/trilateral/trilateral_shared.h"
#include "features/feature_types.h"

namespace proj {

struct TrilateralOptions {
  double sigma_c = 3.0;           // spatial sigma of both bilateral stages, pixels (> 0)
  double beta = 0.15;             // sigma_r = beta * (max g - min g), spec eq. 11; in (0, 1]
  double sigma_r_override = 0;    // > 0 replaces sigma_r, R and sigma_r_theta (§2.3); 0 = off
  int level_max_override = 0;     // > 0 replaces levelMax (§2.3); 0 = floor(log2 min(W,H)) + 1
  int trunc_radius = 0;           // > 0 caps the detail half-window (§5.3, inexact); 0 = off
  // > 0 (>= 5): detail taps further than this many sigma_c are skipped, as the GPU's default
  // does (cuda::TrilateralGpuOptions::domain_cut_sigmas, 7; bounded error below 1e-8 of the
  // weight); 0 = the exact reference.
  double domain_cut_sigmas = 0;
  bool constant_guard = true;     // sigma_r == 0 (constant image): return the input (§3.6);
                                  // false reproduces the reference's all-NaN output
  int num_threads = 0;            // CPU threads; 0 = all hardware threads
  void Check() const;             // throws InputError naming the bad field
};

// The intermediates of the five steps, for tests and diagnostics (§5.4).
template <typename T>
struct TrilateralIntermediates {
  int width = 0;
  int height = 0;
  int level_max = 0;             // stack levels; L is in [0, level_max - 1]
  int gradient_half_window = 0;  // (floor(sigma_c) - 1) / 2
  T sigma_r = 0;                 // = R = sigma_r_theta
  std::vector<T> gx, gy, g;      // §3.1 forward differences and magnitude
  std::vector<T> smoothed_gx, smoothed_gy;  // §3.3 G
  std::vector<uint8_t> level;    // §3.4 L(p); detail half-window r = floor(2^L / 2)
};

// The whole filter (§3.1-3.5). `intermediates` may be null.
template <typename T>
std::vector<T> TrilateralFilter(const T* image, int width, int height,
                                const TrilateralOptions& options,
                                TrilateralIntermediates<T>* intermediates = nullptr);

// Convenience for grey images in [0, 1]. The output may leave [0, 1] (not clamped).
GrayImage TrilateralFilter(const GrayImage& image, const TrilateralOptions& options);

// The five steps, separately (the benchmark times them one by one).
namespace trilateral {

// LevelMax, GradientHalfWindow and DetailRadius: cuda/trilateral/trilateral_shared.h (shared
// with the GPU kernels).

// §3.1. Resizes the outputs to width * height.
template <typename T>
void ComputeGradients(const T* image, int width, int height, int num_threads, std::vector<T>* gx,
                      std::vector<T>* gy, std::vector<T>* g);

// §2.1 eq. 11: T(beta) * (max g - min g), computed in T.
template <typename T>
T RangeSigma(const std::vector<T>& g, double beta);

// §3.2: min[k] and max[k] for k = 0 .. level_max - 1 (level 0 = g), each width * height.
template <typename T>
struct MinMaxStack {
  std::vector<std::vector<T>> min;
  std::vector<std::vector<T>> max;
};
template <typename T>
MinMaxStack<T> BuildMinMaxStack(const std::vector<T>& g, int width, int height, int level_max,
                                int num_threads);

// §3.3: bilateral filter of (gx, gy) with weights on |g(q) - g(p)|; square half-window.
template <typename T>
void BilateralGradientFilter(const std::vector<T>& gx, const std::vector<T>& gy,
                             const std::vector<T>& g, int width, int height, double sigma_c,
                             T sigma_r, int half_window, int num_threads,
                             std::vector<T>* smoothed_gx, std::vector<T>* smoothed_gy);

// §3.4: L(p) = (first failing level) - 1, from the stack and the raw magnitude g.
template <typename T>
std::vector<uint8_t> FindAdaptiveRegion(const MinMaxStack<T>& stack, const std::vector<T>& g,
                                        int width, int height, T range_threshold,
                                        int num_threads);

// §3.5: tilted-plane bilateral filter over the square half-window DetailRadius(L(p)), capped at
// trunc_radius when > 0. Taps whose double domain weight underflows to exactly 0 (beyond about
// 38.6 sigma_c) are skipped: they add exactly 0 to both sums, so this is bit-identical.
// row_step > 1 filters only rows j with j % row_step == 0 and copies the input elsewhere (the
// benchmark samples the CPU cost of very large images this way). domain_cut_sigmas > 0 also
// skips the taps further than that many sigma_c (TrilateralOptions::domain_cut_sigmas).
template <typename T>
std::vector<T> DetailBilateralFilter(const T* image, const std::vector<T>& smoothed_gx,
                                     const std::vector<T>& smoothed_gy,
                                     const std::vector<uint8_t>& level, int width, int height,
                                     double sigma_c, T sigma_r, int trunc_radius,
                                     int num_threads, int row_step = 1,
                                     double domain_cut_sigmas = 0);

}  // namespace trilateral
}  // namespace proj
