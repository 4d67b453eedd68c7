// Host emulation of the optimised detail kernel (cuda/trilateral/trilateral_detail.cuh): the
// same per-pixel code the kernel runs, driven as the kernel drives it (a warp of 32 lanes
// with a butterfly sum for large windows, one thread for small ones), against the CPU
// reference's detail step (spec §3.5) on the reference's own intermediates. Needs no GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "cuda/trilateral/trilateral_detail.cuh"
#include "cuda/trilateral/trilateral_gpu.h"
#include "cuda/trilateral/trilateral_kernels.cuh"
#include "features/trilateral/trilateral_filter.h"

namespace proj {
namespace {

namespace tk = cuda::trilateral;

const float kDefaultCutSigmas = static_cast<float>(cuda::TrilateralGpuOptions().domain_cut_sigmas);

// Output of the optimised detail step for every pixel, emulated on the host.
template <bool kFast>
std::vector<float> EmulateDetail(const std::vector<float>& image, int width, int height,
                                 const TrilateralIntermediates<float>& state, double sigma_c,
                                 int trunc_radius, float cut_sigmas) {
  tk::DetailArgs a;
  a.image = image.data();
  a.smoothed_gx = state.smoothed_gx.data();
  a.smoothed_gy = state.smoothed_gy.data();
  a.level = state.level.data();
  a.width = width;
  a.height = height;
  a.trunc_radius = trunc_radius;
  a.domain_coeff = static_cast<float>(1.0 / (2.0 * sigma_c * sigma_c));
  a.fast_math = kFast;
  // As the kernels' prologue computes them.
  a.cut_sigmas = cut_sigmas;
  const long long disk_cut = tk::DiskCut(a.domain_coeff, kFast, cut_sigmas);
  const int disk_rows = tk::IntegerSqrt(disk_cut);
  const float sigma_r = state.sigma_r;
  const float kr = tk::kLog2e / (2.f * sigma_r * sigma_r);
  const float kd = tk::kLog2e * a.domain_coeff;
  std::vector<float> out(image.size());
  for (int p = 0; p < width * height; ++p) {
    const tk::DetailPixel px = tk::LoadDetailPixel(a, p);
    if (state.level[p] >= tk::kWarpLevel) {
      float w[32], wd[32];
      for (int lane = 0; lane < 32; ++lane) {
        tk::DetailPartialSums<kFast, 32>(a, px, disk_cut, disk_rows, lane, kd, kr, &w[lane],
                                         &wd[lane]);
      }
      for (int offset = 16; offset > 0; offset >>= 1) {  // __shfl_xor_sync butterfly
        float w_next[32], wd_next[32];
        for (int lane = 0; lane < 32; ++lane) {
          w_next[lane] = w[lane] + w[lane ^ offset];
          wd_next[lane] = wd[lane] + wd[lane ^ offset];
        }
        std::copy_n(w_next, 32, w);
        std::copy_n(wd_next, 32, wd);
      }
      out[p] = px.c + wd[0] / w[0];
    } else {
      float w = 0, wd = 0;
      tk::DetailPartialSums<kFast, 1>(a, px, disk_cut, disk_rows, 0, kd, kr, &w, &wd);
      out[p] = px.c + wd / w;
    }
  }
  return out;
}

// Runs the CPU reference and the emulation; returns max |difference| / range of the input.
double EmulationError(const std::vector<float>& image, int width, int height, double sigma_c,
                      int trunc_radius, bool fast, int* max_level = nullptr,
                      float cut_sigmas = kDefaultCutSigmas) {
  TrilateralOptions options;
  options.sigma_c = sigma_c;
  options.trunc_radius = trunc_radius;
  TrilateralIntermediates<float> state;
  const std::vector<float> cpu = TrilateralFilter(image.data(), width, height, options, &state);
  const std::vector<float> emulated =
      fast ? EmulateDetail<true>(image, width, height, state, sigma_c, trunc_radius, cut_sigmas)
           : EmulateDetail<false>(image, width, height, state, sigma_c, trunc_radius, cut_sigmas);
  if (max_level != nullptr) *max_level = *std::max_element(state.level.begin(), state.level.end());
  const auto [lo, hi] = std::minmax_element(image.begin(), image.end());
  double worst = 0;
  for (size_t p = 0; p < cpu.size(); ++p) {
    if (!std::isfinite(emulated[p])) return INFINITY;
    worst = std::max(worst, std::abs(static_cast<double>(emulated[p]) - cpu[p]));
  }
  return worst / (static_cast<double>(*hi) - *lo);
}

std::vector<float> Scene(int width, int height, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> noise(0.f, 0.004f);
  std::vector<float> image(static_cast<size_t>(width) * height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      float v = 0.3f + 0.2f * std::sin(0.03f * x) * std::cos(0.02f * y);
      if (x > width / 5 && x < width / 2 && y > height / 4 && y < 3 * height / 4) v += 0.35f;
      image[static_cast<size_t>(y) * width + x] = v + noise(rng);
    }
  }
  return image;
}

// Smooth shading and one hot pixel: sigma_r is high, so most pixels reach the top level.
std::vector<float> SmoothWithHotPixel(int width, int height) {
  std::vector<float> image(static_cast<size_t>(width) * height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      image[static_cast<size_t>(y) * width + x] = 100.f + 20.f * std::sin(0.02f * x + 0.01f * y);
    }
  }
  image[static_cast<size_t>(height / 2) * width + width / 2] += 30.f;
  return image;
}

TEST(TrilateralDetailEmulation, IntegerSqrtIsExact) {
  for (long long v = -3; v < 200000; ++v) {
    const int m = tk::IntegerSqrt(v);
    if (v < 0) {
      EXPECT_EQ(m, -1);
      continue;
    }
    ASSERT_LE(static_cast<long long>(m) * m, v);
    ASSERT_GT(static_cast<long long>(m + 1) * (m + 1), v);
  }
  for (long long v : {(1LL << 40) - 1, 1LL << 40, (1LL << 45) + 12345, 4294967295LL}) {
    const long long m = tk::IntegerSqrt(v);
    EXPECT_LE(m * m, v);
    EXPECT_GT((m + 1) * (m + 1), v);
  }
}

TEST(TrilateralDetailEmulation, DiskCutMatchesThePlan) {
  // sigma_c = 3: 150 / (log2(e) / 18) = 1871.5; fast math 126 / ... = 1572.1.
  const float coeff = static_cast<float>(1.0 / 18.0);
  EXPECT_EQ(tk::DiskCut(coeff, false, 0), 1871);
  EXPECT_EQ(tk::DiskCut(coeff, true, 0), 1572);
  EXPECT_EQ(tk::DiskCut(coeff, false, 7), 440);  // (7 sigma_c)^2 = 441 with float 1/18: 440.99..
  EXPECT_EQ(tk::DiskCut(coeff, false, 20), 1871);  // the float disk is the smaller one
  EXPECT_EQ(tk::IntegerSqrt(tk::DiskCut(coeff, false, 0)), 43);
  EXPECT_EQ(tk::DiskCutSquared(coeff, false, 0, 4), 32);  // the 8x8 worked example's plan
  EXPECT_EQ(tk::DiskRows(32, 4), 4);
  EXPECT_EQ(tk::DiskCutSquared(coeff, false, 0, 64), 1871);
  EXPECT_EQ(tk::DiskRows(1871, 64), 43);
  EXPECT_EQ(tk::DiskCut(1e-20f, false, 0), 1LL << 46);  // capped
}

TEST(TrilateralDetailEmulation, WorkedExample) {
  std::vector<float> image(64);
  for (int y = 0; y < 8; ++y) {
    for (int x = 0; x < 8; ++x) image[y * 8 + x] = x <= 3 ? 10.f : 50.f;
  }
  image[2 * 8 + 2] = 14.f;
  EXPECT_LE(EmulationError(image, 8, 8, 3.0, 0, false), 1e-5);
}

TEST(TrilateralDetailEmulation, SceneImages) {
  struct Case { int width, height; double sigma_c; };
  for (const Case& c : {Case{96, 80, 3.0}, Case{77, 131, 1.6}, Case{33, 150, 5.0}, Case{120, 90, 1.0}}) {
    SCOPED_TRACE(::testing::Message() << c.width << "x" << c.height << " sigma_c " << c.sigma_c);
    EXPECT_LE(EmulationError(Scene(c.width, c.height, 3), c.width, c.height, c.sigma_c, 0, false), 1e-5);
  }
}

TEST(TrilateralDetailEmulation, DiskCutTruncationAndFastMath) {
  // 160x120: levels up to 6 (r = 32) > the disk radius 14.4 sigma_c at sigma_c = 1.
  const std::vector<float> image = SmoothWithHotPixel(160, 120);
  int max_level = 0;
  EXPECT_LE(EmulationError(image, 160, 120, 1.0, 0, false, &max_level), 1e-5);
  EXPECT_GE(max_level, 6);
  EXPECT_LE(EmulationError(image, 160, 120, 1.6, 0, false), 1e-5);
  EXPECT_LE(EmulationError(image, 160, 120, 1.0, 5, false), 1e-5);
  EXPECT_LE(EmulationError(image, 160, 120, 1.0, 0, true), 1e-4);
  // Without the 7 sigma_c cut: the float-exact disk.
  EXPECT_LE(EmulationError(image, 160, 120, 1.0, 0, false, nullptr, 0.f), 1e-5);
  EXPECT_LE(EmulationError(image, 160, 120, 3.0, 0, false, nullptr, 0.f), 1e-5);
}

// The sigma cut must matter (fewer taps) yet stay within the conformance bound: at sigma_c = 5
// on a smooth 200x160 image the 7 sigma_c disk (radius 35) is far inside the windows (r = 64).
TEST(TrilateralDetailEmulation, SigmaCutStaysWithinTolerance) {
  const std::vector<float> image = SmoothWithHotPixel(200, 160);
  int max_level = 0;
  EXPECT_LE(EmulationError(image, 200, 160, 5.0, 0, false, &max_level, 7.f), 1e-6);
  EXPECT_GE(max_level, 7);
  EXPECT_LE(EmulationError(Scene(200, 160, 9), 200, 160, 5.0, 0, false, nullptr, 7.f), 1e-6);
  // A deliberately short cut (1 sigma_c, rejected by the options) shows the test can fail.
  EXPECT_GT(EmulationError(image, 200, 160, 5.0, 0, false, nullptr, 1.f), 1e-5);
}

}  // namespace
}  // namespace proj
