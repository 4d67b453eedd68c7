// Integer quantities of the trilateral filter (../shared/docs/trilateral-filter.md) that the CPU
// reference (features/trilateral) and the GPU kernels (cuda/trilateral) must compute alike.
// Plain C++ with no CUDA includes, so the CPU-only build can use it; nvcc also compiles the
// marked functions for the device.
#pragma once

#include <algorithm>
#include <cmath>

#ifdef __CUDACC__
#define PROJ_TRILATERAL_HOST_DEVICE __host__ __device__
#else
#define PROJ_TRILATERAL_HOST_DEVICE
#endif

namespace proj::trilateral {

constexpr float kLog2e = 1.4426950408889634f;

// §2.3 levelMax = floor(log2(min(W, H))) + 1, by bit count (no floating-point log);
// width, height > 0.
inline int LevelMax(int width, int height) {
  unsigned value = static_cast<unsigned>(std::min(width, height));
  int highest_bit = -1;
  while (value != 0) {
    value >>= 1;
    ++highest_bit;
  }
  return highest_bit + 1;
}

// §3.3 half-window of the gradient filter: (int(sigma_c) - 1) / 2 with C truncation and
// integer division (0 for sigma_c < 3).
inline int GradientHalfWindow(double sigma_c) {
  const int filter_size = static_cast<int>(sigma_c);
  return (filter_size - 1) / 2;
}

// §3.5 detail half-window of adaptive level L: 0 for L = 0, else 2^(L-1).
PROJ_TRILATERAL_HOST_DEVICE inline int DetailRadius(int level) {
  return level == 0 ? 0 : 1 << (level - 1);
}

// Largest squared tap distance m^2 + n^2 kept by a domain cut of `cut_sigmas` sigma_c, for
// domain_coeff = 1 / (2 sigma_c^2) as the float the kernels receive:
// floor(cut_sigmas^2 / (2 domain_coeff)).
PROJ_TRILATERAL_HOST_DEVICE inline double SigmaDiskCut(float domain_coeff, float cut_sigmas) {
  return floor(static_cast<double>(cut_sigmas) * cut_sigmas / (2.0 * domain_coeff));
}

// Taps with s = m^2 + n^2 > DiskCut are skipped. Without a sigma cut (cut_sigmas = 0) these
// are exactly the taps whose float domain weight 2^-(s kd) is 0 (kd = log2(e) * domain_coeff;
// 2^-150 rounds to 0, and 2^-126 flushes to zero in fast math), so the sums are those of the
// full window. With cut_sigmas = k > 0 the disk is also limited to radius k sigma_c; the
// skipped domain weights then sum to at most 2 pi sigma_c^2 e^(-k^2 / 2), which bounds the
// output change (TrilateralGpuOptions::domain_cut_sigmas). Computed where it is used (kernel
// prologue, host plan, emulation) from the values that define it. Capped at 2^46 (far beyond
// any window; keeps IntegerSqrt exact).
PROJ_TRILATERAL_HOST_DEVICE inline long long DiskCut(float domain_coeff, bool fast_math,
                                                     float cut_sigmas) {
  double cut = floor((fast_math ? 126.0 : 150.0) / (static_cast<double>(kLog2e) * domain_coeff));
  if (cut_sigmas > 0) {
    const double sigma_cut = SigmaDiskCut(domain_coeff, cut_sigmas);
    cut = sigma_cut < cut ? sigma_cut : cut;
  }
  const double cap = 70368744177664.0;  // 2^46
  return static_cast<long long>(cut < cap ? cut : cap);
}

}  // namespace proj::trilateral
