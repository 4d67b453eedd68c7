#include "cuda/sift/scale_space_gpu.cuh"

#include <cmath>
#include <vector>

#include "cuda/cuda_check.cuh"

namespace proj::cuda {
namespace {

constexpr int kRowTile = 128;  // outputs per block row in the horizontal pass
constexpr int kRowBlockRows = 4;
constexpr int kColumnTileX = 32;
constexpr int kColumnTileRows = 32;  // outputs per block column in the vertical pass
constexpr int kColumnThreadsY = 8;

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

// Horizontal pass: a block computes kRowBlockRows rows of kRowTile outputs from a shared
// tile with replicated borders. Taps are summed from -radius to +radius (CPU order).
__global__ void BlurRowsKernel(const float* in, int width, int height, BlurTaps taps, float* out) {
  __shared__ float tile[kRowBlockRows][kRowTile + 2 * kMaxBlurRadius];
  const int r = taps.radius;
  const int x0 = blockIdx.x * kRowTile;
  const int y = blockIdx.y * kRowBlockRows + threadIdx.y;
  if (y < height) {
    const float* row = in + static_cast<size_t>(y) * width;
    for (int i = threadIdx.x; i < kRowTile + 2 * r; i += blockDim.x) {
      const int x = min(max(x0 + i - r, 0), width - 1);
      tile[threadIdx.y][i] = row[x];
    }
  }
  __syncthreads();
  const int x = x0 + threadIdx.x;
  if (y >= height || x >= width) return;
  float sum = 0;
  for (int k = 0; k <= 2 * r; ++k) sum += taps.weights[k] * tile[threadIdx.y][threadIdx.x + k];
  out[static_cast<size_t>(y) * width + x] = sum;
}

// Vertical pass: a block computes kColumnTileRows x kColumnTileX outputs; each thread four
// rows. Optionally writes the difference with the level below (DoG).
__global__ void BlurColumnsKernel(const float* in, int width, int height, BlurTaps taps,
                                  float* out, const float* previous, float* dog) {
  __shared__ float tile[kColumnTileRows + 2 * kMaxBlurRadius][kColumnTileX + 1];
  const int r = taps.radius;
  const int x = blockIdx.x * kColumnTileX + threadIdx.x;
  const int y0 = blockIdx.y * kColumnTileRows;
  const int xc = min(x, width - 1);
  for (int i = threadIdx.y; i < kColumnTileRows + 2 * r; i += kColumnThreadsY) {
    const int y = min(max(y0 + i - r, 0), height - 1);
    tile[i][threadIdx.x] = in[static_cast<size_t>(y) * width + xc];
  }
  __syncthreads();
  if (x >= width) return;
  for (int j = threadIdx.y; j < kColumnTileRows; j += kColumnThreadsY) {
    const int y = y0 + j;
    if (y >= height) return;
    float sum = 0;
    for (int k = 0; k <= 2 * r; ++k) sum += taps.weights[k] * tile[j + k][threadIdx.x];
    const size_t i = static_cast<size_t>(y) * width + x;
    out[i] = sum;
    if (dog != nullptr) dog[i] = sum - previous[i];
  }
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
                        float* scratch, float* out, const float* previous, float* dog,
                        cudaStream_t stream) {
  const dim3 row_block(kRowTile, kRowBlockRows);
  const dim3 row_grid(Blocks(width, kRowTile), Blocks(height, kRowBlockRows));
  BlurRowsKernel<<<row_grid, row_block, 0, stream>>>(in, width, height, taps, scratch);
  PROJ_CUDA_CHECK(cudaGetLastError());
  const dim3 column_block(kColumnTileX, kColumnThreadsY);
  const dim3 column_grid(Blocks(width, kColumnTileX), Blocks(height, kColumnTileRows));
  BlurColumnsKernel<<<column_grid, column_block, 0, stream>>>(scratch, width, height, taps, out,
                                                               previous, dog);
  PROJ_CUDA_CHECK(cudaGetLastError());
}

void LaunchDifference(const float* a, const float* b, int count, float* out, cudaStream_t stream) {
  DifferenceKernel<<<Blocks(count, 256), 256, 0, stream>>>(a, b, count, out);
  PROJ_CUDA_CHECK(cudaGetLastError());
}

}  // namespace proj::cuda
