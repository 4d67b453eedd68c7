// CPU reference of the trilateral filter. Compiled with -ffp-contract=off (sources.cmake) so
// that the float instantiation rounds every product and sum exactly as the CUDA port does
// (gx, gy, g, sigma_r and L must match bit for bit, spec §5.4).
#include "features/trilateral/trilateral_filter.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/check.h"
#include "core/parallel_for.h"

namespace proj {

void TrilateralOptions::Check() const {
  PROJ_REQUIRE(std::isfinite(sigma_c) && sigma_c > 0,
               "TrilateralOptions.sigma_c must be a positive number of pixels (got " << sigma_c
                                                                                    << ")");
  PROJ_REQUIRE(std::isfinite(beta) && beta > 0 && beta <= 1,
               "TrilateralOptions.beta must be in (0, 1] (got " << beta << ")");
  PROJ_REQUIRE(std::isfinite(sigma_r_override) && sigma_r_override >= 0,
               "TrilateralOptions.sigma_r_override must be >= 0 (got " << sigma_r_override << ")");
  PROJ_REQUIRE(level_max_override >= 0 && level_max_override <= 24,
               "TrilateralOptions.level_max_override must be in [0, 24] (got "
                   << level_max_override << ")");
  PROJ_REQUIRE(trunc_radius >= 0,
               "TrilateralOptions.trunc_radius must be >= 0 (got " << trunc_radius << ")");
  PROJ_REQUIRE(std::isfinite(domain_cut_sigmas) && (domain_cut_sigmas == 0 || domain_cut_sigmas >= 5),
               "TrilateralOptions.domain_cut_sigmas must be 0 (off) or >= 5 (got "
                   << domain_cut_sigmas << ")");
  PROJ_REQUIRE(num_threads >= 0,
               "TrilateralOptions.num_threads must be >= 0 (got " << num_threads << ")");
}

namespace trilateral {

template <typename T>
void ComputeGradients(const T* image, int width, int height, int num_threads, std::vector<T>* gx,
                      std::vector<T>* gy, std::vector<T>* g) {
  const size_t count = static_cast<size_t>(width) * height;
  gx->assign(count, T(0));
  gy->assign(count, T(0));
  g->assign(count, T(0));
  ParallelFor(0, height, num_threads, [&](int j, int) {
    const int j_next = std::min(j + 1, height - 1);
    for (int i = 0; i < width; ++i) {
      const size_t p = static_cast<size_t>(j) * width + i;
      const int i_next = std::min(i + 1, width - 1);
      const T dx = image[static_cast<size_t>(j) * width + i_next] - image[p];
      const T dy = image[static_cast<size_t>(j_next) * width + i] - image[p];
      const T dx2 = dx * dx;
      const T dy2 = dy * dy;
      (*gx)[p] = dx;
      (*gy)[p] = dy;
      (*g)[p] = std::sqrt(dx2 + dy2);
    }
  });
}

template <typename T>
T RangeSigma(const std::vector<T>& g, double beta) {
  PROJ_CHECK(!g.empty(), "RangeSigma of an empty gradient field");
  const auto [min_it, max_it] = std::minmax_element(g.begin(), g.end());
  const T range = *max_it - *min_it;
  return static_cast<T>(beta) * range;
}

template <typename T>
MinMaxStack<T> BuildMinMaxStack(const std::vector<T>& g, int width, int height, int level_max,
                                int num_threads) {
  PROJ_CHECK(level_max >= 1, "level_max must be >= 1");
  MinMaxStack<T> stack;
  stack.min.resize(level_max);
  stack.max.resize(level_max);
  stack.min[0] = g;
  stack.max[0] = g;
  std::vector<T> row_min(g.size()), row_max(g.size());
  for (int k = 1; k < level_max; ++k) {
    const std::vector<T>& prev_min = stack.min[k - 1];
    const std::vector<T>& prev_max = stack.max[k - 1];
    // 3x3 clipped min/max = 3-tap horizontal then 3-tap vertical (a clipped square is a
    // product of clipped intervals), exact.
    ParallelFor(0, height, num_threads, [&](int j, int) {
      const size_t row = static_cast<size_t>(j) * width;
      for (int i = 0; i < width; ++i) {
        T lo = prev_min[row + i], hi = prev_max[row + i];
        if (i > 0) {
          lo = std::min(lo, prev_min[row + i - 1]);
          hi = std::max(hi, prev_max[row + i - 1]);
        }
        if (i + 1 < width) {
          lo = std::min(lo, prev_min[row + i + 1]);
          hi = std::max(hi, prev_max[row + i + 1]);
        }
        row_min[row + i] = lo;
        row_max[row + i] = hi;
      }
    });
    std::vector<T>& next_min = stack.min[k];
    std::vector<T>& next_max = stack.max[k];
    next_min.resize(g.size());
    next_max.resize(g.size());
    ParallelFor(0, height, num_threads, [&](int j, int) {
      const size_t row = static_cast<size_t>(j) * width;
      for (int i = 0; i < width; ++i) {
        T lo = row_min[row + i], hi = row_max[row + i];
        if (j > 0) {
          lo = std::min(lo, row_min[row - width + i]);
          hi = std::max(hi, row_max[row - width + i]);
        }
        if (j + 1 < height) {
          lo = std::min(lo, row_min[row + width + i]);
          hi = std::max(hi, row_max[row + width + i]);
        }
        next_min[row + i] = lo;
        next_max[row + i] = hi;
      }
    });
  }
  return stack;
}

template <typename T>
void BilateralGradientFilter(const std::vector<T>& gx, const std::vector<T>& gy,
                             const std::vector<T>& g, int width, int height, double sigma_c,
                             T sigma_r, int half_window, int num_threads,
                             std::vector<T>* smoothed_gx, std::vector<T>* smoothed_gy) {
  const int h = std::max(half_window, 0);
  const int side = 2 * h + 1;
  std::vector<double> domain(static_cast<size_t>(side) * side);
  for (int n = -h; n <= h; ++n) {
    for (int m = -h; m <= h; ++m) {
      domain[(n + h) * side + (m + h)] =
          std::exp(-static_cast<double>(m * m + n * n) / (2.0 * sigma_c * sigma_c));
    }
  }
  const double range_denominator = 2.0 * static_cast<double>(sigma_r) * sigma_r;
  smoothed_gx->assign(gx.size(), T(0));
  smoothed_gy->assign(gy.size(), T(0));
  ParallelFor(0, height, num_threads, [&](int j, int) {
    for (int i = 0; i < width; ++i) {
      const size_t p = static_cast<size_t>(j) * width + i;
      const double centre = g[p];
      double sum_w = 0, sum_x = 0, sum_y = 0;
      for (int n = std::max(-h, -j); n <= std::min(h, height - 1 - j); ++n) {
        for (int m = std::max(-h, -i); m <= std::min(h, width - 1 - i); ++m) {
          const size_t q = static_cast<size_t>(j + n) * width + (i + m);
          const double diff = static_cast<double>(g[q]) - centre;
          const double w =
              domain[(n + h) * side + (m + h)] * std::exp(-(diff * diff) / range_denominator);
          sum_w += w;
          sum_x += w * gx[q];
          sum_y += w * gy[q];
        }
      }
      (*smoothed_gx)[p] = static_cast<T>(sum_x / sum_w);
      (*smoothed_gy)[p] = static_cast<T>(sum_y / sum_w);
    }
  });
}

template <typename T>
std::vector<uint8_t> FindAdaptiveRegion(const MinMaxStack<T>& stack, const std::vector<T>& g,
                                        int width, int height, T range_threshold,
                                        int num_threads) {
  const int level_max = static_cast<int>(stack.max.size());
  std::vector<uint8_t> level(g.size(), 0);
  ParallelFor(0, height, num_threads, [&](int j, int) {
    for (int i = 0; i < width; ++i) {
      const size_t p = static_cast<size_t>(j) * width + i;
      const T c = g[p];
      const T upper = c + range_threshold;
      const T lower = c - range_threshold;
      int k = 0;
      while (k < level_max && !(stack.max[k][p] > upper || stack.min[k][p] < lower)) ++k;
      level[p] = static_cast<uint8_t>(k - 1 < 0 ? 0 : k - 1);  // k == 0 only with NaN input
    }
  });
  return level;
}

template <typename T>
std::vector<T> DetailBilateralFilter(const T* image, const std::vector<T>& smoothed_gx,
                                     const std::vector<T>& smoothed_gy,
                                     const std::vector<uint8_t>& level, int width, int height,
                                     double sigma_c, T sigma_r, int trunc_radius,
                                     int num_threads, int row_step, double domain_cut_sigmas) {
  PROJ_CHECK(row_step >= 1, "row_step must be >= 1");
  const size_t count = static_cast<size_t>(width) * height;
  std::vector<T> output(image, image + count);
  int radius_max = 0;
  for (uint8_t l : level) radius_max = std::max(radius_max, DetailRadius(l));
  if (trunc_radius > 0) radius_max = std::min(radius_max, trunc_radius);
  // Domain weights by squared offset s = m^2 + n^2, up to the first s where the double
  // exponential underflows to 0 (about (38.6 sigma_c)^2); beyond it taps add exactly 0.
  const double domain_denominator = 2.0 * sigma_c * sigma_c;
  double s_underflow = std::ceil(746.0 * domain_denominator);
  if (domain_cut_sigmas > 0) {  // the GPU's cut: taps with s <= cut are kept
    const double cut = SigmaDiskCut(static_cast<float>(1.0 / domain_denominator),
                                    static_cast<float>(domain_cut_sigmas));
    s_underflow = std::min(s_underflow, cut);
  }
  const size_t s_needed = 2 * static_cast<size_t>(radius_max) * radius_max;
  const size_t s_size = static_cast<size_t>(std::min<double>(s_needed, s_underflow)) + 1;
  std::vector<double> domain(s_size);
  for (size_t s = 0; s < s_size; ++s) {
    domain[s] = std::exp(-static_cast<double>(s) / domain_denominator);
  }
  // row_limit[|n|]: largest |m| <= radius_max whose tap (m, n) has a non-zero domain weight,
  // or -1 when the whole row underflows.
  std::vector<int> row_limit(radius_max + 1, -1);
  for (int n = 0; n <= radius_max; ++n) {
    int m = radius_max;
    while (m >= 0) {
      const size_t s = static_cast<size_t>(m) * m + static_cast<size_t>(n) * n;
      if (s < s_size && domain[s] > 0) break;
      --m;
    }
    row_limit[n] = m;
  }
  const double range_denominator = 2.0 * static_cast<double>(sigma_r) * sigma_r;
  const int num_rows = (height + row_step - 1) / row_step;
  ParallelFor(0, num_rows, num_threads, [&](int row_index, int) {
    const int j = row_index * row_step;
    for (int i = 0; i < width; ++i) {
      const size_t p = static_cast<size_t>(j) * width + i;
      int r = DetailRadius(level[p]);
      if (trunc_radius > 0) r = std::min(r, trunc_radius);
      const double c = image[p];
      const double a = smoothed_gx[p];
      const double b = smoothed_gy[p];
      double sum_w = 0, sum_wd = 0;
      for (int n = std::max(-r, -j); n <= std::min(r, height - 1 - j); ++n) {
        const int limit = std::min(r, row_limit[std::abs(n)]);
        const size_t row = static_cast<size_t>(j + n) * width;
        for (int m = std::max(-limit, -i); m <= std::min(limit, width - 1 - i); ++m) {
          const double d = static_cast<double>(image[row + i + m]) - (c + a * m + b * n);
          const double w = domain[m * m + n * n] * std::exp(-(d * d) / range_denominator);
          sum_w += w;
          sum_wd += w * d;
        }
      }
      output[p] = static_cast<T>(c + sum_wd / sum_w);
    }
  });
  return output;
}

}  // namespace trilateral

template <typename T>
std::vector<T> TrilateralFilter(const T* image, int width, int height,
                                const TrilateralOptions& options,
                                TrilateralIntermediates<T>* intermediates) {
  options.Check();
  PROJ_REQUIRE(image != nullptr && width > 0 && height > 0,
               "trilateral filter: empty input image (" << width << "x" << height << ")");
  TrilateralIntermediates<T> local;
  TrilateralIntermediates<T>& state = intermediates ? *intermediates : local;
  state = TrilateralIntermediates<T>();
  state.width = width;
  state.height = height;
  state.level_max = options.level_max_override > 0 ? options.level_max_override
                                                   : trilateral::LevelMax(width, height);
  state.gradient_half_window = trilateral::GradientHalfWindow(options.sigma_c);
  const int threads = options.num_threads;

  trilateral::ComputeGradients(image, width, height, threads, &state.gx, &state.gy, &state.g);
  state.sigma_r = options.sigma_r_override > 0 ? static_cast<T>(options.sigma_r_override)
                                               : trilateral::RangeSigma(state.g, options.beta);
  if (state.sigma_r == T(0) && options.constant_guard) {
    // §3.6: constant image; the reference would output NaN everywhere.
    state.smoothed_gx = state.gx;
    state.smoothed_gy = state.gy;
    state.level.assign(state.g.size(), 0);
    return std::vector<T>(image, image + static_cast<size_t>(width) * height);
  }
  trilateral::BilateralGradientFilter(state.gx, state.gy, state.g, width, height,
                                      options.sigma_c, state.sigma_r,
                                      state.gradient_half_window, threads, &state.smoothed_gx,
                                      &state.smoothed_gy);
  {
    const trilateral::MinMaxStack<T> stack =
        trilateral::BuildMinMaxStack(state.g, width, height, state.level_max, threads);
    state.level =
        trilateral::FindAdaptiveRegion(stack, state.g, width, height, state.sigma_r, threads);
  }
  return trilateral::DetailBilateralFilter(image, state.smoothed_gx, state.smoothed_gy,
                                           state.level, width, height, options.sigma_c,
                                           state.sigma_r, options.trunc_radius, threads, 1,
                                           options.domain_cut_sigmas);
}

GrayImage TrilateralFilter(const GrayImage& image, const TrilateralOptions& options) {
  PROJ_REQUIRE(image.width > 0 && image.height > 0 &&
                   image.pixels.size() == static_cast<size_t>(image.width) * image.height,
               "trilateral filter: GrayImage is empty or its pixel count does not match "
                   << image.width << "x" << image.height);
  GrayImage output;
  output.width = image.width;
  output.height = image.height;
  output.pixels = TrilateralFilter(image.pixels.data(), image.width, image.height, options);
  return output;
}

#define PROJ_INSTANTIATE_TRILATERAL(T)                                                       \
  template std::vector<T> TrilateralFilter<T>(const T*, int, int, const TrilateralOptions&,  \
                                              TrilateralIntermediates<T>*);                  \
  template void trilateral::ComputeGradients<T>(const T*, int, int, int, std::vector<T>*,    \
                                                std::vector<T>*, std::vector<T>*);           \
  template T trilateral::RangeSigma<T>(const std::vector<T>&, double);                       \
  template trilateral::MinMaxStack<T> trilateral::BuildMinMaxStack<T>(const std::vector<T>&, \
                                                                      int, int, int, int);   \
  template void trilateral::BilateralGradientFilter<T>(                                      \
      const std::vector<T>&, const std::vector<T>&, const std::vector<T>&, int, int, double, \
      T, int, int, std::vector<T>*, std::vector<T>*);                                        \
  template std::vector<uint8_t> trilateral::FindAdaptiveRegion<T>(                           \
      const trilateral::MinMaxStack<T>&, const std::vector<T>&, int, int, T, int);           \
  template std::vector<T> trilateral::DetailBilateralFilter<T>(                              \
      const T*, const std::vector<T>&, const std::vector<T>&, const std::vector<uint8_t>&,   \
      int, int, double, T, int, int, int, double);

PROJ_INSTANTIATE_TRILATERAL(float)
PROJ_INSTANTIATE_TRILATERAL(double)
#undef PROJ_INSTANTIATE_TRILATERAL

}  // namespace proj
