#include "cuda/sift/scale_space_gpu.cuh"

#include <cmath>
#include <vector>

#include "cuda/cuda_check.cuh"

namespace proj::cuda {
namespace {

// Fused separable blur: a block of 256 threads computes a kTileX x kTileY output tile. It
// loads the input tile with a radius-R halo (replicated borders) into shared memory, runs
// the horizontal pass over all tile rows (halo rows included; 4 outputs per thread from
// registers) into a second shared tile, then the vertical pass (8 consecutive rows per
// thread from registers). Taps are summed from -R to +R as on the CPU, and the horizontal
// pass of a clamped row equals the CPU's horizontal pass of that row, so the result is
// bit-identical to the two-pass version (this file is compiled without FMA contraction).
constexpr int kTileX = 64;
constexpr int kTileY = 32;
constexpr int kBlurThreads = 256;
constexpr int kRowsPerThread = 8;  // vertical pass: kTileX * kTileY / kBlurThreads

template <int R>
struct BlurGeometry {
  static constexpr int kRows = kTileY + 2 * R;
  static constexpr int kPitch = (kTileX + 2 * R + 6) / 4 * 4;  // float4 reads stay inside
  static constexpr int kRowValues = (4 + 2 * R + 3) / 4 * 4;   // values a horizontal thread reads
  static constexpr size_t kSharedBytes = sizeof(float) * (kRows * kPitch + kRows * kTileX);
};

template <int R>
__global__ void __launch_bounds__(kBlurThreads)
    BlurKernel(const float* __restrict__ in, int width, int height, BlurTaps taps,
               float* __restrict__ out, const float* previous, float* dog) {
  using G = BlurGeometry<R>;
  extern __shared__ float4 shared4[];
  float* tile = reinterpret_cast<float*>(shared4);
  float* rowsum = tile + G::kRows * G::kPitch;
  const int tid = threadIdx.x;
  const int x0 = blockIdx.x * kTileX, y0 = blockIdx.y * kTileY;
  for (int i = tid; i < G::kRows * G::kPitch; i += kBlurThreads) {
    const int ty = i / G::kPitch, tx = i - ty * G::kPitch;
    const int gy = min(max(y0 + ty - R, 0), height - 1);
    const int gx = min(max(x0 + tx - R, 0), width - 1);
    tile[i] = in[static_cast<size_t>(gy) * width + gx];
  }
  __syncthreads();
  {
    constexpr int kThreadsPerRow = kTileX / 4;
    const int hx = tid % kThreadsPerRow;
    for (int ty = tid / kThreadsPerRow; ty < G::kRows; ty += kBlurThreads / kThreadsPerRow) {
      const float4* t = reinterpret_cast<const float4*>(tile + ty * G::kPitch + 4 * hx);
      float v[G::kRowValues];
#pragma unroll
      for (int q = 0; q < G::kRowValues / 4; ++q) {
        const float4 f = t[q];
        v[4 * q] = f.x;
        v[4 * q + 1] = f.y;
        v[4 * q + 2] = f.z;
        v[4 * q + 3] = f.w;
      }
      float sum[4] = {0, 0, 0, 0};
#pragma unroll
      for (int k = 0; k <= 2 * R; ++k) {
#pragma unroll
        for (int m = 0; m < 4; ++m) sum[m] += taps.weights[k] * v[m + k];
      }
      reinterpret_cast<float4*>(rowsum + ty * kTileX)[hx] = make_float4(sum[0], sum[1], sum[2], sum[3]);
    }
  }
  __syncthreads();
  const int vx = tid % kTileX, vy0 = (tid / kTileX) * kRowsPerThread;
  const int x = x0 + vx;
  if (x >= width) return;
  float v[kRowsPerThread + 2 * R];
#pragma unroll
  for (int m = 0; m < kRowsPerThread + 2 * R; ++m) v[m] = rowsum[(vy0 + m) * kTileX + vx];
#pragma unroll
  for (int j = 0; j < kRowsPerThread; ++j) {
    const int y = y0 + vy0 + j;
    if (y >= height) return;
    float sum = 0;
#pragma unroll
    for (int k = 0; k <= 2 * R; ++k) sum += taps.weights[k] * v[j + k];
    const size_t i = static_cast<size_t>(y) * width + x;
    out[i] = sum;
    if (dog != nullptr) {
      const float below = previous == in ? tile[(vy0 + j + R) * G::kPitch + vx + R] : previous[i];
      dog[i] = sum - below;
    }
  }
}

template <int R>
void LaunchBlur(const float* in, int width, int height, const BlurTaps& taps, float* out,
                const float* previous, float* dog, cudaStream_t stream) {
  const dim3 grid((width + kTileX - 1) / kTileX, (height + kTileY - 1) / kTileY);
  BlurKernel<R><<<grid, kBlurThreads, BlurGeometry<R>::kSharedBytes, stream>>>(
      in, width, height, taps, out, previous, dog);
}

__global__ void PrepareInputKernel(const void* input, bool input_is_bytes, int width, int height,
                                   bool upsample, float* out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  auto load = [&](int px, int py) {
    const size_t i = static_cast<size_t>(py) * width + px;
    return input_is_bytes ? static_cast<const uint8_t*>(input)[i] / 255.0f
                          : static_cast<const float*>(input)[i];
  };
  if (!upsample) {
    out[static_cast<size_t>(y) * width + x] = load(x, y);
    return;
  }
  const int x1 = min(x + 1, width - 1), y1 = min(y + 1, height - 1);
  const float p00 = load(x, y), p10 = load(x1, y), p01 = load(x, y1), p11 = load(x1, y1);
  const size_t out_width = 2 * static_cast<size_t>(width);
  float* row0 = out + (2 * static_cast<size_t>(y)) * out_width;
  float* row1 = row0 + out_width;
  row0[2 * x] = p00;
  row0[2 * x + 1] = 0.5f * (p00 + p10);
  row1[2 * x] = 0.5f * (p00 + p01);
  row1[2 * x + 1] = 0.25f * (p00 + p10 + p01 + p11);
}

__global__ void DecimateKernel(const float* in, int width, int out_width, int out_height,
                               float* out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= out_width || y >= out_height) return;
  out[static_cast<size_t>(y) * out_width + x] = in[(2 * static_cast<size_t>(y)) * width + 2 * x];
}

__global__ void DifferenceKernel(const float* a, const float* b, int count, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = a[i] - b[i];
}

unsigned Blocks(int n, int per_block) { return static_cast<unsigned>((n + per_block - 1) / per_block); }

}  // namespace

BlurTaps MakeBlurTaps(float sigma) {
  BlurTaps taps;
  taps.radius = std::max(1, static_cast<int>(std::ceil(4.0f * sigma)));
  PROJ_CHECK(taps.radius <= kMaxBlurRadius, "Gaussian sigma " << sigma << " too large for the GPU blur");
  std::vector<double> w(2 * taps.radius + 1);
  double sum = 0;
  for (int i = -taps.radius; i <= taps.radius; ++i) {
    w[i + taps.radius] = std::exp(-0.5 * i * i / (static_cast<double>(sigma) * sigma));
    sum += w[i + taps.radius];
  }
  for (size_t i = 0; i < w.size(); ++i) taps.weights[i] = static_cast<float>(w[i] / sum);
  return taps;
}

void LaunchPrepareInput(const void* input, bool input_is_bytes, int width, int height,
                        bool upsample, float* out, cudaStream_t stream) {
  const dim3 block(32, 8);
  const dim3 grid(Blocks(width, 32), Blocks(height, 8));
  PrepareInputKernel<<<grid, block, 0, stream>>>(input, input_is_bytes, width, height, upsample, out);
  PROJ_CUDA_CHECK(cudaGetLastError());
}

void LaunchDecimate(const float* in, int width, int height, float* out, cudaStream_t stream) {
  const int w = width / 2, h = height / 2;
  const dim3 block(32, 8);
  const dim3 grid(Blocks(w, 32), Blocks(h, 8));
  DecimateKernel<<<grid, block, 0, stream>>>(in, width, w, h, out);
  PROJ_CUDA_CHECK(cudaGetLastError());
}

void LaunchGaussianBlur(const float* in, int width, int height, const BlurTaps& taps,
                        float* /*scratch*/, float* out, const float* previous, float* dog,
                        cudaStream_t stream) {
  switch (taps.radius) {
#define PROJ_SIFT_BLUR_CASE(R) \
  case R:                      \
    LaunchBlur<R>(in, width, height, taps, out, previous, dog, stream); \
    break;
    PROJ_SIFT_BLUR_CASE(1) PROJ_SIFT_BLUR_CASE(2) PROJ_SIFT_BLUR_CASE(3) PROJ_SIFT_BLUR_CASE(4)
    PROJ_SIFT_BLUR_CASE(5) PROJ_SIFT_BLUR_CASE(6) PROJ_SIFT_BLUR_CASE(7) PROJ_SIFT_BLUR_CASE(8)
    PROJ_SIFT_BLUR_CASE(9) PROJ_SIFT_BLUR_CASE(10) PROJ_SIFT_BLUR_CASE(11) PROJ_SIFT_BLUR_CASE(12)
    PROJ_SIFT_BLUR_CASE(13) PROJ_SIFT_BLUR_CASE(14) PROJ_SIFT_BLUR_CASE(15) PROJ_SIFT_BLUR_CASE(16)
#undef PROJ_SIFT_BLUR_CASE
    default:
      PROJ_CHECK(false, "GPU blur radius " << taps.radius << " out of range");
  }
  PROJ_CUDA_CHECK(cudaGetLastError());
}

void LaunchDifference(const float* a, const float* b, int count, float* out, cudaStream_t stream) {
  DifferenceKernel<<<Blocks(count, 256), 256, 0, stream>>>(a, b, count, out);
  PROJ_CUDA_CHECK(cudaGetLastError());
}

}  // namespace proj::cuda
