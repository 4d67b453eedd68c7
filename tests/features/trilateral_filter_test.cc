// Property and conformance tests of the CPU trilateral filter
// (../shared/docs/trilateral-filter.md §6).
#include "features/trilateral/trilateral_filter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/check.h"

namespace proj {
namespace {

template <typename T>
std::vector<T> MakeImage(int width, int height, T (*value)(int x, int y)) {
  std::vector<T> image(static_cast<size_t>(width) * height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) image[static_cast<size_t>(y) * width + x] = value(x, y);
  }
  return image;
}

template <typename T>
double MaxAbsDifference(const std::vector<T>& a, const std::vector<T>& b) {
  EXPECT_EQ(a.size(), b.size());
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    worst = std::max(worst, std::abs(static_cast<double>(a[i]) - static_cast<double>(b[i])));
  }
  return worst;
}

// 8x8 worked example of §6.2: 10 for x <= 3, 50 for x >= 4, outlier I(2,2) = 14.
std::vector<double> WorkedExampleImage() {
  std::vector<double> image = MakeImage<double>(8, 8, [](int x, int) { return x <= 3 ? 10.0 : 50.0; });
  image[2 * 8 + 2] = 14.0;
  return image;
}

std::vector<double> NoisyStep(int width, int height, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, 2.0);
  std::vector<double> image(static_cast<size_t>(width) * height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      image[static_cast<size_t>(y) * width + x] = (x < width / 2 ? 20.0 : 80.0) + 0.5 * y + noise(rng);
    }
  }
  return image;
}

TEST(TrilateralFilter, LevelMaxUsesIntegerLog2) {  // P9
  for (int k = 1; k <= 13; ++k) {
    const int size = 1 << k;
    EXPECT_EQ(trilateral::LevelMax(size, size), k + 1) << size;
    EXPECT_EQ(trilateral::LevelMax(size + 1, size + 1), k + 1) << size + 1;
    EXPECT_EQ(trilateral::LevelMax(size - 1, size - 1), k) << size - 1;
  }
  EXPECT_EQ(trilateral::LevelMax(640, 640), 10);
  EXPECT_EQ(trilateral::LevelMax(640, 480), 9);
  EXPECT_EQ(trilateral::LevelMax(1024, 4000), 11);
  EXPECT_EQ(trilateral::GradientHalfWindow(2.9), 0);
  EXPECT_EQ(trilateral::GradientHalfWindow(3.0), 1);
  EXPECT_EQ(trilateral::GradientHalfWindow(5.0), 2);
  EXPECT_EQ(trilateral::GradientHalfWindow(6.99), 2);
}

TEST(TrilateralFilter, OptionsCheckRejectsBadFields) {
  TrilateralOptions options;
  options.sigma_c = 0;
  EXPECT_THROW(options.Check(), InputError);
  options = TrilateralOptions();
  options.beta = 1.5;
  EXPECT_THROW(options.Check(), InputError);
  options = TrilateralOptions();
  options.trunc_radius = -1;
  EXPECT_THROW(options.Check(), InputError);
  options = TrilateralOptions();
  options.domain_cut_sigmas = 2;  // too short a cut: rejected, not silently inexact
  EXPECT_THROW(options.Check(), InputError);
  std::vector<float> empty;
  EXPECT_THROW(TrilateralFilter(empty.data(), 0, 0, TrilateralOptions()), InputError);
}

TEST(TrilateralFilter, ConstantImageIsUnchanged) {  // P1
  const std::vector<double> image(20 * 13, 42.5);
  TrilateralIntermediates<double> state;
  const std::vector<double> out = TrilateralFilter(image.data(), 20, 13, TrilateralOptions(), &state);
  EXPECT_EQ(state.sigma_r, 0.0);
  EXPECT_EQ(out, image);
  // Without the guard the reference divides 0 by 0: NaN everywhere (§3.6).
  TrilateralOptions unguarded;
  unguarded.constant_guard = false;
  const std::vector<double> nan_out = TrilateralFilter(image.data(), 20, 13, unguarded);
  for (double v : nan_out) ASSERT_TRUE(std::isnan(v));
}

TEST(TrilateralFilter, AffineRampIsUnchanged) {  // P2
  const std::vector<double> ramp =
      MakeImage<double>(32, 32, [](int x, int y) { return 2.0 * x + 3.0 * y + 10.0; });
  for (double sigma_c : {2.0, 3.0, 5.0}) {
    TrilateralOptions options;
    options.sigma_c = sigma_c;
    TrilateralIntermediates<double> state;
    const std::vector<double> out = TrilateralFilter(ramp.data(), 32, 32, options, &state);
    EXPECT_EQ(state.level_max, 6);
    EXPECT_NEAR(state.sigma_r, 0.15 * std::sqrt(13.0), 1e-12);
    EXPECT_LE(MaxAbsDifference(out, ramp), 1e-9 * (2.0 * 31 + 3.0 * 31)) << "sigma_c " << sigma_c;
  }
  // The float build too, within float rounding of the range.
  const std::vector<float> ramp_f =
      MakeImage<float>(32, 32, [](int x, int y) { return 2.0f * x + 3.0f * y + 10.0f; });
  const std::vector<float> out_f = TrilateralFilter(ramp_f.data(), 32, 32, TrilateralOptions());
  EXPECT_LE(MaxAbsDifference(out_f, ramp_f), 1e-5 * 155);
}

TEST(TrilateralFilter, StepEdgeIsPreserved) {  // P3
  const std::vector<double> step =
      MakeImage<double>(32, 32, [](int x, int) { return x < 16 ? 0.0 : 100.0; });
  TrilateralIntermediates<double> state;
  const std::vector<double> out = TrilateralFilter(step.data(), 32, 32, TrilateralOptions(), &state);
  EXPECT_EQ(state.sigma_r, 15.0);
  EXPECT_EQ(state.level_max, 6);
  const int expected[] = {4, 3, 2, 1, 0, 0, 0, 1, 2, 3, 4, 5};
  for (int y : {0, 7, 31}) {
    for (int x = 10; x <= 21; ++x) EXPECT_EQ(state.level[y * 32 + x], expected[x - 10]) << x << "," << y;
  }
  EXPECT_LE(MaxAbsDifference(out, step), 1e-7);
}

TEST(TrilateralFilter, AdaptiveLevelGrowsInFlatRegions) {
  // A bright square on a dark background, 128x128: L grows with the distance from the edges
  // and reaches level_max - 1 far from them.
  const std::vector<double> image = MakeImage<double>(128, 128, [](int x, int y) {
    return (x >= 40 && x < 56 && y >= 40 && y < 56) ? 200.0 : 30.0;
  });
  TrilateralIntermediates<double> state;
  TrilateralFilter(image.data(), 128, 128, TrilateralOptions(), &state);
  ASSERT_EQ(state.level_max, 8);
  const int row = 48;
  for (int x = 57; x + 1 < 128; ++x) {
    EXPECT_LE(state.level[row * 128 + x], state.level[row * 128 + x + 1]) << x;
  }
  EXPECT_EQ(state.level[row * 128 + 56], 0);
  EXPECT_EQ(state.level[120 * 128 + 120], state.level_max - 1);
  EXPECT_EQ(state.level[5 * 128 + 5], state.level_max - 1);
}

TEST(TrilateralFilter, WorkedExampleOfTheSpecification) {  // §6.2, P7
  const std::vector<double> image = WorkedExampleImage();
  TrilateralIntermediates<double> state;
  const std::vector<double> out = TrilateralFilter(image.data(), 8, 8, TrilateralOptions(), &state);
  EXPECT_EQ(state.level_max, 4);
  EXPECT_EQ(state.gradient_half_window, 1);
  EXPECT_EQ(state.sigma_r, 6.0);
  EXPECT_EQ(state.gx[0 * 8 + 3], 40.0);
  EXPECT_EQ(state.gx[2 * 8 + 1], 4.0);
  EXPECT_EQ(state.gx[2 * 8 + 2], -4.0);
  EXPECT_EQ(state.gy[1 * 8 + 2], 4.0);
  EXPECT_EQ(state.gy[2 * 8 + 2], -4.0);
  EXPECT_NEAR(state.g[2 * 8 + 2], std::sqrt(32.0), 1e-15);
  const int levels[] = {2, 1, 0, 0, 0, 1, 2, 3};
  for (int y = 0; y < 8; ++y) {
    for (int x = 0; x < 8; ++x) EXPECT_EQ(state.level[y * 8 + x], levels[x]) << x << "," << y;
  }
  // P7: out(0,0) - I = d w / (S + w) with one non-zero detail d = 4 at offset (2, 2).
  const double w = std::exp(-8.0 / 18.0) * std::exp(-16.0 / 72.0);
  double s = 0;
  for (int n = 0; n <= 2; ++n) {
    for (int m = 0; m <= 2; ++m) {
      if (m != 2 || n != 2) s += std::exp(-(m * m + n * n) / 18.0);
    }
  }
  EXPECT_NEAR(out[0], 10.0 + 4.0 * w / (s + w), 1e-12);
  EXPECT_NEAR(out[0], 10.2769023, 5e-8);
  EXPECT_NEAR(out[1], 9.7448245, 5e-8);
  EXPECT_NEAR(state.smoothed_gy[1], 0.525967, 5e-7);
  EXPECT_NEAR(out[1 * 8 + 1], 10.3607220, 5e-8);
  EXPECT_NEAR(out[4 * 8 + 0], 10.1681374, 5e-8);
  EXPECT_EQ(out[2 * 8 + 2], 14.0);
  EXPECT_NEAR(out[7], 50.0 - 1.1e-9, 0.5e-9);
  EXPECT_LT(out[7], 50.0);
  for (int y = 0; y < 8; ++y) {
    EXPECT_EQ(out[y * 8 + 3], 10.0);
    EXPECT_EQ(out[y * 8 + 4], 50.0);
  }
  TrilateralOptions small;
  small.sigma_c = 2.0;
  const std::vector<double> out_small = TrilateralFilter(image.data(), 8, 8, small);
  EXPECT_NEAR(out_small[0], 10.1924711, 5e-8);
}

TEST(TrilateralFilter, AffineCovariance) {  // P4
  const std::vector<double> image = NoisyStep(40, 33, 7);
  const std::vector<double> base = TrilateralFilter(image.data(), 40, 33, TrilateralOptions());
  std::vector<double> scaled(image.size()), shrunk(image.size());
  for (size_t i = 0; i < image.size(); ++i) {
    scaled[i] = 2.5 * image[i] + 7.0;
    shrunk[i] = image[i] / 255.0;
  }
  const std::vector<double> out_scaled = TrilateralFilter(scaled.data(), 40, 33, TrilateralOptions());
  const std::vector<double> out_shrunk = TrilateralFilter(shrunk.data(), 40, 33, TrilateralOptions());
  double worst_scaled = 0, worst_shrunk = 0;
  for (size_t i = 0; i < image.size(); ++i) {
    worst_scaled = std::max(worst_scaled, std::abs(out_scaled[i] - (2.5 * base[i] + 7.0)));
    worst_shrunk = std::max(worst_shrunk, std::abs(out_shrunk[i] * 255.0 - base[i]));
  }
  EXPECT_LE(worst_scaled, 1e-9 * 2.5 * 100);
  EXPECT_LE(worst_shrunk, 1e-9 * 100);
}

TEST(TrilateralFilter, TransposeSymmetry) {  // P5
  const int width = 37, height = 29;
  const std::vector<double> image = NoisyStep(width, height, 11);
  std::vector<double> transposed(image.size());
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) transposed[x * height + y] = image[y * width + x];
  }
  TrilateralIntermediates<double> state, state_t;
  const std::vector<double> out = TrilateralFilter(image.data(), width, height, TrilateralOptions(), &state);
  const std::vector<double> out_t =
      TrilateralFilter(transposed.data(), height, width, TrilateralOptions(), &state_t);
  double worst = 0;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      worst = std::max(worst, std::abs(out[y * width + x] - out_t[x * height + y]));
      ASSERT_EQ(state.level[y * width + x], state_t.level[x * height + y]);
    }
  }
  EXPECT_LE(worst, 1e-9 * 100);
}

TEST(TrilateralFilter, SmallSigmaUsesRawGradients) {  // P6
  const std::vector<double> image = NoisyStep(24, 20, 3);
  TrilateralOptions options;
  options.sigma_c = 2.5;
  TrilateralIntermediates<double> state;
  TrilateralFilter(image.data(), 24, 20, options, &state);
  EXPECT_EQ(state.gradient_half_window, 0);
  EXPECT_EQ(state.smoothed_gx, state.gx);
  EXPECT_EQ(state.smoothed_gy, state.gy);
}

TEST(TrilateralFilter, LevelMapMatchesBruteForce) {  // P8
  const int width = 45, height = 31;
  const std::vector<double> image = NoisyStep(width, height, 5);
  TrilateralIntermediates<double> state;
  TrilateralFilter(image.data(), width, height, TrilateralOptions(), &state);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const double c = state.g[y * width + x];
      int brute = 0;
      for (int k = 1; k < state.level_max; ++k) {
        bool inside = true;
        for (int yy = std::max(0, y - k); yy <= std::min(height - 1, y + k); ++yy) {
          for (int xx = std::max(0, x - k); xx <= std::min(width - 1, x + k); ++xx) {
            const double v = state.g[yy * width + xx];
            if (v > c + state.sigma_r || v < c - state.sigma_r) inside = false;
          }
        }
        if (!inside) break;
        brute = k;
      }
      ASSERT_EQ(state.level[y * width + x], brute) << x << "," << y;
      ASSERT_LE(brute, state.level_max - 1);
    }
  }
}

TEST(TrilateralFilter, FloatMatchesDoubleAndThreadsDoNotChangeResult) {
  const int width = 64, height = 48;
  const std::vector<double> image = NoisyStep(width, height, 9);
  const std::vector<float> image_f(image.begin(), image.end());
  TrilateralOptions one_thread;
  one_thread.num_threads = 1;
  TrilateralOptions many_threads;
  many_threads.num_threads = 4;
  TrilateralIntermediates<float> state_f;
  const std::vector<float> out_1 = TrilateralFilter(image_f.data(), width, height, one_thread, &state_f);
  const std::vector<float> out_4 = TrilateralFilter(image_f.data(), width, height, many_threads);
  EXPECT_EQ(out_1, out_4);
  const std::vector<double> out_d = TrilateralFilter(image.data(), width, height, one_thread);
  const auto [lo, hi] = std::minmax_element(image.begin(), image.end());
  EXPECT_LE(MaxAbsDifference(std::vector<double>(out_1.begin(), out_1.end()), out_d), 1e-5 * (*hi - *lo));
}

TEST(TrilateralFilter, TruncationBoundsTheWindowWithSmallError) {
  const int width = 96, height = 96;
  const std::vector<double> image =
      MakeImage<double>(width, height, [](int x, int y) { return std::sin(0.05 * x) * std::cos(0.07 * y); });
  const std::vector<double> exact = TrilateralFilter(image.data(), width, height, TrilateralOptions());
  TrilateralOptions truncated;
  truncated.trunc_radius = 15;  // 5 sigma_c
  const std::vector<double> out = TrilateralFilter(image.data(), width, height, truncated);
  EXPECT_LE(MaxAbsDifference(out, exact), 1e-6);
}

// The 7 sigma_c domain cut (the GPU's default, used by both devices' SIFT hooks) skips taps,
// so results are not bit-identical to the exact reference, yet stay far inside 1e-4.
TEST(TrilateralFilter, DomainCutChangesLittle) {
  const int width = 120, height = 100;
  const std::vector<double> image = MakeImage<double>(
      width, height, [](int x, int y) { return 0.5 + 0.3 * std::sin(0.03 * x + 0.02 * y) + (x > 70 ? 0.2 : 0.0); });
  TrilateralOptions exact_options;
  exact_options.sigma_c = 2.0;  // windows up to r = 32 > 7 sigma_c = 14
  TrilateralOptions cut_options = exact_options;
  cut_options.domain_cut_sigmas = 7;
  TrilateralIntermediates<double> state;
  const std::vector<double> exact = TrilateralFilter(image.data(), width, height, exact_options, &state);
  const std::vector<double> cut = TrilateralFilter(image.data(), width, height, cut_options);
  EXPECT_GE(*std::max_element(state.level.begin(), state.level.end()), 5);
  EXPECT_NE(cut, exact);
  EXPECT_LE(MaxAbsDifference(cut, exact), 1e-8);
}

TEST(TrilateralFilter, GrayImageOverload) {
  GrayImage image;
  image.width = 16;
  image.height = 12;
  image.pixels.assign(16 * 12, 0.25f);
  for (int y = 0; y < 12; ++y) {
    for (int x = 8; x < 16; ++x) image.pixels[y * 16 + x] = 0.75f;
  }
  const GrayImage out = TrilateralFilter(image, TrilateralOptions());
  ASSERT_EQ(out.width, 16);
  ASSERT_EQ(out.height, 12);
  EXPECT_LE(MaxAbsDifference(out.pixels, image.pixels), 1e-6);
  GrayImage broken = image;
  broken.pixels.pop_back();
  EXPECT_THROW(TrilateralFilter(broken, TrilateralOptions()), InputError);
}

}  // namespace
}  // namespace proj
