#include "cuda/trilateral/trilateral_kernels.cuh"

#include <algorithm>
#include <cmath>

#include "cuda/cuda_check.cuh"
#include "cuda/trilateral/trilateral_detail.cuh"

namespace proj::cuda::trilateral {
namespace {

constexpr int kTileX = 32;
constexpr int kTileY = 8;
constexpr int kDetailThreads = 256;

dim3 ImageGrid(int width, int height) {
  return dim3((width + kTileX - 1) / kTileX, (height + kTileY - 1) / kTileY);
}

__global__ void GradientsKernel(const float* __restrict__ image, int width, int height,
                                float* __restrict__ gx, float* __restrict__ gy,
                                float* __restrict__ g) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= width || j >= height) return;
  const size_t p = static_cast<size_t>(j) * width + i;
  const float c = image[p];
  const float dx = __fsub_rn(image[static_cast<size_t>(j) * width + min(i + 1, width - 1)], c);
  const float dy = __fsub_rn(image[static_cast<size_t>(min(j + 1, height - 1)) * width + i], c);
  gx[p] = dx;
  gy[p] = dy;
  g[p] = __fsqrt_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)));
}

__global__ void RangeInitKernel(RangeParams* range) {
  range->min_bits = 0x7f800000u;  // +inf
  range->max_bits = 0u;
  range->sigma_r = 0.f;
}

__global__ void RangeReduceKernel(const float* __restrict__ g, int count, RangeParams* range) {
  unsigned int lo = 0x7f800000u, hi = 0u;
  for (int p = blockIdx.x * blockDim.x + threadIdx.x; p < count; p += gridDim.x * blockDim.x) {
    const unsigned int bits = __float_as_uint(g[p]);
    lo = min(lo, bits);
    hi = max(hi, bits);
  }
  for (int offset = 16; offset > 0; offset >>= 1) {
    lo = min(lo, __shfl_xor_sync(0xffffffffu, lo, offset));
    hi = max(hi, __shfl_xor_sync(0xffffffffu, hi, offset));
  }
  if ((threadIdx.x & 31) == 0) {
    atomicMin(&range->min_bits, lo);
    atomicMax(&range->max_bits, hi);
  }
}

__global__ void RangeFinishKernel(float beta, float sigma_r_override, RangeParams* range) {
  if (sigma_r_override > 0.f) {
    range->sigma_r = sigma_r_override;
  } else {
    const float spread = __fsub_rn(__uint_as_float(range->max_bits), __uint_as_float(range->min_bits));
    range->sigma_r = __fmul_rn(beta, spread);
  }
}

__global__ void GradientFilterKernel(const float* __restrict__ gx, const float* __restrict__ gy,
                                     const float* __restrict__ g, int width, int height,
                                     int half_window, float domain_coeff,
                                     const RangeParams* __restrict__ range, bool constant_guard,
                                     float* __restrict__ smoothed_gx,
                                     float* __restrict__ smoothed_gy) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= width || j >= height) return;
  const size_t p = static_cast<size_t>(j) * width + i;
  const float sigma_r = range->sigma_r;
  if (sigma_r == 0.f && constant_guard) {
    smoothed_gx[p] = gx[p];
    smoothed_gy[p] = gy[p];
    return;
  }
  const float range_denominator = 2.f * sigma_r * sigma_r;
  const float centre = g[p];
  float sum_w = 0.f, sum_x = 0.f, sum_y = 0.f;
  for (int n = max(-half_window, -j); n <= min(half_window, height - 1 - j); ++n) {
    for (int m = max(-half_window, -i); m <= min(half_window, width - 1 - i); ++m) {
      const size_t q = static_cast<size_t>(j + n) * width + (i + m);
      const float diff = g[q] - centre;
      const float w = expf(-static_cast<float>(m * m + n * n) * domain_coeff) *
                      expf(-(diff * diff) / range_denominator);
      sum_w += w;
      sum_x += w * gx[q];
      sum_y += w * gy[q];
    }
  }
  smoothed_gx[p] = sum_x / sum_w;
  smoothed_gy[p] = sum_y / sum_w;
}

__global__ void StackLevelKernel(const float* __restrict__ prev_min,
                                 const float* __restrict__ prev_max, int width, int height,
                                 float* __restrict__ next_min, float* __restrict__ next_max) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= width || j >= height) return;
  float lo = INFINITY, hi = -INFINITY;
  for (int n = max(-1, -j); n <= min(1, height - 1 - j); ++n) {
    for (int m = max(-1, -i); m <= min(1, width - 1 - i); ++m) {
      const size_t q = static_cast<size_t>(j + n) * width + (i + m);
      lo = fminf(lo, prev_min[q]);
      hi = fmaxf(hi, prev_max[q]);
    }
  }
  const size_t p = static_cast<size_t>(j) * width + i;
  next_min[p] = lo;
  next_max[p] = hi;
}

__global__ void RegionFromStackKernel(const float* __restrict__ stack_min,
                                      const float* __restrict__ stack_max,
                                      const float* __restrict__ g, int width, int height,
                                      int level_max, const RangeParams* __restrict__ range,
                                      bool constant_guard, uint8_t* __restrict__ level) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= width || j >= height) return;
  const size_t count = static_cast<size_t>(width) * height;
  const size_t p = static_cast<size_t>(j) * width + i;
  const float r = range->sigma_r;
  if (r == 0.f && constant_guard) {
    level[p] = 0;
    return;
  }
  const float c = g[p];
  const float upper = __fadd_rn(c, r);
  const float lower = __fsub_rn(c, r);
  int k = 0;
  while (k < level_max && !(stack_max[k * count + p] > upper || stack_min[k * count + p] < lower)) ++k;
  level[p] = static_cast<uint8_t>(k > 0 ? k - 1 : 0);
}

// Block of kTileX x kTileY pixels; the tile holds g with an apron of level_max - 1 (NaN
// outside the image: NaN fails neither comparison, which is the clipping of the squares).
__global__ void RegionRingKernel(const float* __restrict__ g, int width, int height,
                                 int level_max, const RangeParams* __restrict__ range,
                                 bool constant_guard, uint8_t* __restrict__ level) {
  extern __shared__ float tile[];
  const int apron = level_max - 1;
  const int tile_w = kTileX + 2 * apron;
  const int tile_h = kTileY + 2 * apron;
  const int x0 = blockIdx.x * kTileX - apron;
  const int y0 = blockIdx.y * kTileY - apron;
  const int thread = threadIdx.y * kTileX + threadIdx.x;
  for (int t = thread; t < tile_w * tile_h; t += kTileX * kTileY) {
    const int x = x0 + t % tile_w;
    const int y = y0 + t / tile_w;
    tile[t] = (x >= 0 && x < width && y >= 0 && y < height) ? g[static_cast<size_t>(y) * width + x]
                                                            : NAN;
  }
  __syncthreads();
  const int i = blockIdx.x * kTileX + threadIdx.x;
  const int j = blockIdx.y * kTileY + threadIdx.y;
  if (i >= width || j >= height) return;
  const float r = range->sigma_r;
  const size_t p = static_cast<size_t>(j) * width + i;
  if (r == 0.f && constant_guard) {
    level[p] = 0;
    return;
  }
  const int cx = threadIdx.x + apron;
  const int cy = threadIdx.y + apron;
  const float c = tile[cy * tile_w + cx];
  const float upper = __fadd_rn(c, r);
  const float lower = __fsub_rn(c, r);
  int result = apron;
  for (int k = 1; k <= apron; ++k) {
    bool fail = false;
    const float* top = tile + (cy - k) * tile_w + cx;
    const float* bottom = tile + (cy + k) * tile_w + cx;
    for (int m = -k; m <= k; ++m) {
      const float a = top[m], b = bottom[m];
      fail |= a > upper || a < lower || b > upper || b < lower;
    }
    for (int n = -k + 1; n <= k - 1; ++n) {
      const float* row = tile + (cy + n) * tile_w + cx;
      const float a = row[-k], b = row[k];
      fail |= a > upper || a < lower || b > upper || b < lower;
    }
    if (fail) {
      result = k - 1;
      break;
    }
  }
  level[p] = static_cast<uint8_t>(result);
}

__global__ void ZeroCountsKernel(unsigned int* counts) {
  if (threadIdx.x < kMaxLevels) counts[threadIdx.x] = 0;
}

__global__ void LevelKeysKernel(const uint8_t* __restrict__ level, int count, int level_max,
                                bool descending, unsigned int* __restrict__ counts,
                                uint8_t* __restrict__ keys, int* __restrict__ pixels) {
  __shared__ unsigned int local[kMaxLevels];
  if (threadIdx.x < kMaxLevels) local[threadIdx.x] = 0;
  __syncthreads();
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < count) {
    const int l = level[p];
    atomicAdd(&local[l], 1u);
    keys[p] = static_cast<uint8_t>(descending ? level_max - 1 - l : l);
    pixels[p] = p;
  }
  __syncthreads();
  if (threadIdx.x < kMaxLevels && local[threadIdx.x] != 0) atomicAdd(&counts[threadIdx.x], local[threadIdx.x]);
}

// The published method: the full clipped square, two expf per tap, float sums.
__global__ void DetailPublishedKernel(DetailArgs a, int count) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= count) return;
  const int p = a.order[t];
  const int i = p % a.width, j = p / a.width;
  const float c = a.image[p];
  const float sigma_r = a.range->sigma_r;
  if (sigma_r == 0.f && a.constant_guard) {
    a.output[p] = c;
    return;
  }
  const float range_denominator = 2.f * sigma_r * sigma_r;
  const float gx = a.smoothed_gx[p], gy = a.smoothed_gy[p];
  const int r = DetailRadius(a.level[p], a.trunc_radius);
  float sum_w = 0.f, sum_wd = 0.f;
  for (int n = max(-r, -j); n <= min(r, a.height - 1 - j); ++n) {
    const float* row = a.image + static_cast<size_t>(j + n) * a.width + i;
    for (int m = max(-r, -i); m <= min(r, a.width - 1 - i); ++m) {
      const float d = row[m] - (c + gx * m + gy * n);
      const float w = expf(-static_cast<float>(m * m + n * n) * a.domain_coeff) *
                      expf(-(d * d) / range_denominator);
      sum_w += w;
      sum_wd += w * d;
    }
  }
  a.output[p] = c + sum_wd / sum_w;
}

// Persistent grid. Items [0, n_large) are the pixels with level >= kWarpLevel (largest first),
// one warp each: lane l visits taps l, l + 32, ... (DetailPartialSums), then the warp sums
// the partial sums with a butterfly in which all 32 lanes take part (the item loop is
// warp-uniform). The remaining pixels go 32 to an item, one thread each. Warps take items
// grid-stride: the items are sorted by cost, so interleaving balances them.
template <bool kFast>
__global__ void __launch_bounds__(kDetailThreads) DetailOptimizedKernel(DetailArgs a) {
  const int lane = threadIdx.x & 31;
  const int warp = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) >> 5);
  const int num_warps = static_cast<int>((gridDim.x * blockDim.x) >> 5);
  const int count = a.width * a.height;
  int n_large = 0;
  for (int l = kWarpLevel; l < kMaxLevels; ++l) n_large += static_cast<int>(a.counts[l]);
  const int items = n_large + (count - n_large + 31) / 32;
  const float sigma_r = a.range->sigma_r;
  const bool copy = sigma_r == 0.f && a.constant_guard;
  const float kr = kLog2e / (2.f * sigma_r * sigma_r);
  const float kd = kLog2e * a.domain_coeff;
  const long long disk_cut = DiskCut(a.domain_coeff, kFast, a.cut_sigmas);
  const int disk_rows = IntegerSqrt(disk_cut);
  if (a.echo != nullptr && blockIdx.x == 0 && threadIdx.x == 0) {
    a.echo[0] = a.host_disk_cut;
    a.echo[1] = a.host_disk_rows;
    a.echo[2] = disk_cut;
    a.echo[3] = disk_rows;
  }
  for (int item = warp; item < items; item += num_warps) {
    if (item < n_large) {
      const int p = a.order[item];
      if (copy) {
        if (lane == 0) a.output[p] = a.image[p];
        continue;
      }
      const DetailPixel px = LoadDetailPixel(a, p);
      float sum_w = 0.f, sum_wd = 0.f;
      DetailPartialSums<kFast, 32>(a, px, disk_cut, disk_rows, lane, kd, kr, &sum_w, &sum_wd);
      for (int offset = 16; offset > 0; offset >>= 1) {
        sum_w += __shfl_xor_sync(0xffffffffu, sum_w, offset);
        sum_wd += __shfl_xor_sync(0xffffffffu, sum_wd, offset);
      }
      if (lane == 0) a.output[p] = px.c + sum_wd / sum_w;
    } else {
      const int index = n_large + (item - n_large) * 32 + lane;
      if (index >= count) continue;
      const int p = a.order[index];
      if (copy) {
        a.output[p] = a.image[p];
        continue;
      }
      const DetailPixel px = LoadDetailPixel(a, p);
      float sum_w = 0.f, sum_wd = 0.f;
      DetailPartialSums<kFast, 1>(a, px, disk_cut, disk_rows, 0, kd, kr, &sum_w, &sum_wd);
      a.output[p] = px.c + sum_wd / sum_w;
    }
  }
}

// Thread t filters pixel order[t] over its disk-limited window (no persistent grid).
template <bool kFast>
__global__ void DetailDiskThreadKernel(DetailArgs a, int count) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const long long disk_cut = DiskCut(a.domain_coeff, kFast, a.cut_sigmas);
  const int disk_rows = IntegerSqrt(disk_cut);
  if (a.echo != nullptr && t == 0) {
    a.echo[0] = a.host_disk_cut;
    a.echo[1] = a.host_disk_rows;
    a.echo[2] = disk_cut;
    a.echo[3] = disk_rows;
  }
  if (t >= count) return;
  const int p = a.order[t];
  const float sigma_r = a.range->sigma_r;
  if (sigma_r == 0.f && a.constant_guard) {
    a.output[p] = a.image[p];
    return;
  }
  const float kr = kLog2e / (2.f * sigma_r * sigma_r);
  const float kd = kLog2e * a.domain_coeff;
  // The shared per-pixel code (also the warp kernel's small-window path). A hand-written
  // double loop here (m from max(-limit, -i) to min(limit, width - 1 - i)) was miscompiled by
  // ptxas 13.0 for sm_90: the unrolled loop's trip count used max(m_last, i, -limit) instead of
  // max(m_last, -i, -limit) and read past the row (compute-sanitizer memcheck).
  const DetailPixel px = LoadDetailPixel(a, p);
  float sum_w = 0.f, sum_wd = 0.f;
  DetailPartialSums<kFast, 1>(a, px, disk_cut, disk_rows, 0, kd, kr, &sum_w, &sum_wd);
  a.output[p] = px.c + sum_wd / sum_w;
}

}  // namespace

void LaunchGradients(const float* image, int width, int height, float* gx, float* gy, float* g,
                     cudaStream_t stream) {
  GradientsKernel<<<ImageGrid(width, height), dim3(kTileX, kTileY), 0, stream>>>(image, width,
                                                                                  height, gx, gy, g);
  PROJ_CUDA_CHECK(cudaGetLastError());
}

void LaunchRangeSigma(const float* g, int count, float beta, float sigma_r_override,
                      RangeParams* range, cudaStream_t stream) {
  RangeInitKernel<<<1, 1, 0, stream>>>(range);
  PROJ_CUDA_CHECK(cudaGetLastError());
  const int blocks = std::min((count + 255) / 256, 1024);
  RangeReduceKernel<<<blocks, 256, 0, stream>>>(g, count, range);
  PROJ_CUDA_CHECK(cudaGetLastError());
  RangeFinishKernel<<<1, 1, 0, stream>>>(beta, sigma_r_override, range);
  PROJ_CUDA_CHECK(cudaGetLastError());
}

void LaunchGradientFilter(const float* gx, const float* gy, const float* g, int width,
                          int height, int half_window, float domain_coeff,
                          const RangeParams* range, bool constant_guard, float* smoothed_gx,
                          float* smoothed_gy, cudaStream_t stream) {
  GradientFilterKernel<<<ImageGrid(width, height), dim3(kTileX, kTileY), 0, stream>>>(
      gx, gy, g, width, height, half_window, domain_coeff, range, constant_guard, smoothed_gx,
      smoothed_gy);
  PROJ_CUDA_CHECK(cudaGetLastError());
}

void LaunchStackLevel(const float* prev_min, const float* prev_max, int width, int height,
                      float* next_min, float* next_max, cudaStream_t stream) {
  StackLevelKernel<<<ImageGrid(width, height), dim3(kTileX, kTileY), 0, stream>>>(
      prev_min, prev_max, width, height, next_min, next_max);
  PROJ_CUDA_CHECK(cudaGetLastError());
}

void LaunchRegionFromStack(const float* stack_min, const float* stack_max, const float* g,
                           int width, int height, int level_max, const RangeParams* range,
                           bool constant_guard, uint8_t* level, cudaStream_t stream) {
  RegionFromStackKernel<<<ImageGrid(width, height), dim3(kTileX, kTileY), 0, stream>>>(
      stack_min, stack_max, g, width, height, level_max, range, constant_guard, level);
  PROJ_CUDA_CHECK(cudaGetLastError());
}

void LaunchRegionRing(const float* g, int width, int height, int level_max,
                      const RangeParams* range, bool constant_guard, uint8_t* level,
                      cudaStream_t stream) {
  const int apron = level_max - 1;
  const size_t shared = sizeof(float) * (kTileX + 2 * apron) * (kTileY + 2 * apron);
  RegionRingKernel<<<ImageGrid(width, height), dim3(kTileX, kTileY), shared, stream>>>(
      g, width, height, level_max, range, constant_guard, level);
  PROJ_CUDA_CHECK(cudaGetLastError());
}

void LaunchLevelKeys(const uint8_t* level, int count, int level_max, bool descending,
                     unsigned int* counts, uint8_t* keys, int* pixels, cudaStream_t stream) {
  ZeroCountsKernel<<<1, kMaxLevels, 0, stream>>>(counts);
  PROJ_CUDA_CHECK(cudaGetLastError());
  LevelKeysKernel<<<(count + 255) / 256, 256, 0, stream>>>(level, count, level_max, descending,
                                                           counts, keys, pixels);
  PROJ_CUDA_CHECK(cudaGetLastError());
}

long long DiskCutSquared(float domain_coeff, bool fast_math, float cut_sigmas, int radius) {
  const long long cap = 2LL * radius * radius;  // no window reaches further
  return std::min(DiskCut(domain_coeff, fast_math, cut_sigmas), cap);
}

int DiskRows(long long disk_cut, int radius) {
  long long n = static_cast<long long>(std::sqrt(static_cast<double>(disk_cut)));
  while (n * n > disk_cut) --n;
  while ((n + 1) * (n + 1) <= disk_cut) ++n;
  return static_cast<int>(std::min<long long>(n, radius));
}

void LaunchDetailPublished(const DetailArgs& args, cudaStream_t stream) {
  const int count = args.width * args.height;
  DetailPublishedKernel<<<(count + 255) / 256, 256, 0, stream>>>(args, count);
  PROJ_CUDA_CHECK(cudaGetLastError());
}

void LaunchDetailOptimized(const DetailArgs& args, int blocks, cudaStream_t stream) {
  if (args.fast_math) {
    DetailOptimizedKernel<true><<<blocks, kDetailThreads, 0, stream>>>(args);
  } else {
    DetailOptimizedKernel<false><<<blocks, kDetailThreads, 0, stream>>>(args);
  }
  PROJ_CUDA_CHECK(cudaGetLastError());
}

void LaunchDetailDiskThread(const DetailArgs& args, cudaStream_t stream) {
  const int count = args.width * args.height;
  if (args.fast_math) {
    DetailDiskThreadKernel<true><<<(count + 255) / 256, 256, 0, stream>>>(args, count);
  } else {
    DetailDiskThreadKernel<false><<<(count + 255) / 256, 256, 0, stream>>>(args, count);
  }
  PROJ_CUDA_CHECK(cudaGetLastError());
}

int DetailOptimizedBlocksPerSm() {
  int exact = 0, fast = 0;
  PROJ_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &exact, DetailOptimizedKernel<false>, kDetailThreads, 0));
  PROJ_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &fast, DetailOptimizedKernel<true>, kDetailThreads, 0));
  return std::max(1, std::min(exact, fast));
}

}  // namespace proj::cuda::trilateral
