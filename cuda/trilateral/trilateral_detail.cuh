// The per-pixel work of the optimised detail bilateral filter (spec §3.5), as __host__
// __device__ functions so the same code runs in the CUDA kernel (trilateral_kernels.cu) and
// in the host emulation test (tests/cuda/trilateral_detail_emulation_test.cu).
//
// The taps of pixel p = (i, j) are those of its clipped square of half-width r that also lie
// in the disk m^2 + n^2 <= disk_cut, outside of which the float weight 2^-(s kd + d^2 kr) is
// exactly 0. They are numbered row by row (n ascending, m ascending within a row); a worker
// visits taps first, first + stride, first + 2 stride, ... (a warp: first = lane, stride = 32;
// a thread: first = 0, stride = 1) and accumulates its partial sums of w and w * d.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

#include "cuda/trilateral/trilateral_kernels.cuh"
#include "cuda/trilateral/trilateral_shared.h"

namespace proj::cuda::trilateral {

using proj::trilateral::DiskCut;
using proj::trilateral::kLog2e;

__host__ __device__ inline int IMin(int a, int b) { return a < b ? a : b; }
__host__ __device__ inline int IMax(int a, int b) { return a > b ? a : b; }

// Largest m >= 0 with m^2 <= rest, or -1 for rest < 0; exact (the loops correct the float
// estimate, which is off by at most one for the disk sizes that occur, rest < 2^46).
__host__ __device__ inline int IntegerSqrt(long long rest) {
  if (rest < 0) return -1;
  long long m = static_cast<long long>(sqrtf(static_cast<float>(rest)));
  while (m > 0 && m * m > rest) --m;
  while ((m + 1) * (m + 1) <= rest) ++m;
  return static_cast<int>(m);
}

// Row n's taps: m in [lo, lo + count). For |n| <= disk_rows, count >= 1 (n^2 <= disk_cut and
// 0 <= i < width, so m = 0 is always a tap).
__host__ __device__ inline void RowExtent(long long disk_cut, int width, int n, int r, int i,
                                          int* lo, int* count) {
  const int limit = IMin(r, IntegerSqrt(disk_cut - static_cast<long long>(n) * n));
  *lo = IMax(-limit, -i);
  *count = IMin(limit, width - 1 - i) - *lo + 1;
}

__host__ __device__ inline float Exp2Ftz(float x) {
#ifdef __CUDA_ARCH__
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
#else
  const float y = exp2f(x);
  return y < 1.17549435e-38f ? 0.f : y;  // flush denormal results, as ex2.approx.ftz does
#endif
}

__host__ __device__ inline int DetailRadius(int level, int trunc_radius) {
  const int r = proj::trilateral::DetailRadius(level);
  return trunc_radius > 0 ? IMin(r, trunc_radius) : r;
}

// Pixel p's constants for the detail filter.
struct DetailPixel {
  int i = 0, j = 0, r = 0;
  float c = 0, gx = 0, gy = 0;
};

__host__ __device__ inline DetailPixel LoadDetailPixel(const DetailArgs& a, int p) {
  DetailPixel px;
  px.i = p % a.width;
  px.j = p / a.width;
  px.c = a.image[p];
  px.gx = a.smoothed_gx[p];
  px.gy = a.smoothed_gy[p];
  px.r = DetailRadius(a.level[p], a.trunc_radius);
  return px;
}

// Partial sums over taps first, first + kStride, ... of pixel px (see the file comment).
// kd = log2(e) / (2 sigma_c^2), kr = log2(e) / (2 sigma_r^2).
// disk_cut = DiskCut(...), disk_rows = IntegerSqrt(disk_cut) (>= 0).
template <bool kFast, int kStride>
__host__ __device__ inline void DetailPartialSums(const DetailArgs& a, const DetailPixel& px,
                                                  long long disk_cut, int disk_rows, int first,
                                                  float kd, float kr, float* sum_w_out,
                                                  float* sum_wd_out) {
  // The window clipped to the disk's rows first (r' = min(r, disk_rows) gives the same taps:
  // IntegerSqrt(disk_cut - n^2) <= disk_rows), then to the image, as the published kernel does.
  const int r = IMin(px.r, disk_rows);
  const int n_last = IMin(r, a.height - 1 - px.j);
  float sum_w = 0.f, sum_wd = 0.f;
  int k = first;  // this worker's next tap, counted from the start of row n
  for (int n = IMax(-r, -px.j); n <= n_last; ++n) {
    int lo = 0, count = 0;
    RowExtent(disk_cut, a.width, n, r, px.i, &lo, &count);
    const float* row = a.image + static_cast<long long>(px.j + n) * a.width + px.i + lo;
    const float fn = static_cast<float>(n);
    const float base = px.c + px.gy * fn;  // plane value at (0, n)
    const float row_exponent = fn * fn * kd;
    for (; k < count; k += kStride) {
      const float fm = static_cast<float>(lo + k);
      const float d = row[k] - (base + px.gx * fm);
      const float e = fm * fm * kd + row_exponent + d * d * kr;
      const float w = kFast ? Exp2Ftz(-e) : exp2f(-e);
      sum_w += w;
      sum_wd += w * d;
    }
    k -= count;
  }
  *sum_w_out = sum_w;
  *sum_wd_out = sum_wd;
}

}  // namespace proj::cuda::trilateral
