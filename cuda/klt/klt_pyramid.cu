// Gaussian pyramid levels for the KLT tracker (OpenCV pyrDown semantics) and level 0 from
// 8-bit frames.
#include "cuda/klt/klt_internal.cuh"

namespace proj::cuda::internal {
namespace {

__device__ __forceinline__ int Reflect101(int i, int n) {
  if (i < 0) i = -i;
  if (i >= n) i = 2 * n - 2 - i;
  return min(max(i, 0), n - 1);  // only reached for n < 3
}

__device__ __forceinline__ float Load(const float* data, size_t pitch_bytes, int x, int y) {
  return __ldg(reinterpret_cast<const float*>(reinterpret_cast<const char*>(data) + y * pitch_bytes) + x);
}

__global__ void PyramidDownKernel(const float* src, size_t src_pitch, int src_width, int src_height,
                                  float* dst, size_t dst_pitch, int dst_width, int dst_height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= dst_width || y >= dst_height) return;
  constexpr float kWeights[5] = {1.f / 16, 4.f / 16, 6.f / 16, 4.f / 16, 1.f / 16};
  int columns[5];
#pragma unroll
  for (int i = 0; i < 5; ++i) columns[i] = Reflect101(2 * x + i - 2, src_width);
  float sum = 0;
#pragma unroll
  for (int j = 0; j < 5; ++j) {
    const int row = Reflect101(2 * y + j - 2, src_height);
    float row_sum = 0;
#pragma unroll
    for (int i = 0; i < 5; ++i) row_sum += kWeights[i] * Load(src, src_pitch, columns[i], row);
    sum += kWeights[j] * row_sum;
  }
  reinterpret_cast<float*>(reinterpret_cast<char*>(dst) + y * dst_pitch)[x] = sum;
}

__global__ void EightBitToLevelKernel(const uint8_t* src, int width, int height, float* dst,
                                      size_t dst_pitch) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const float value = static_cast<float>(src[static_cast<size_t>(y) * width + x]);
  reinterpret_cast<float*>(reinterpret_cast<char*>(dst) + y * dst_pitch)[x] = __fdiv_rn(value, 255.0f);
}

}  // namespace

void LaunchEightBitToLevel(const uint8_t* src, const KltLevel& dst, cudaStream_t stream) {
  const dim3 block(32, 8);
  const dim3 grid((dst.width + block.x - 1) / block.x, (dst.height + block.y - 1) / block.y);
  EightBitToLevelKernel<<<grid, block, 0, stream>>>(src, dst.width, dst.height, dst.data, dst.pitch_bytes);
  PROJ_CUDA_CHECK(cudaGetLastError());
}

void LaunchPyramidDown(const KltLevel& src, const KltLevel& dst, cudaStream_t stream) {
  const dim3 block(32, 8);
  const dim3 grid((dst.width + block.x - 1) / block.x, (dst.height + block.y - 1) / block.y);
  PyramidDownKernel<<<grid, block, 0, stream>>>(src.data, src.pitch_bytes, src.width, src.height,
                                                dst.data, dst.pitch_bytes, dst.width, dst.height);
  PROJ_CUDA_CHECK(cudaGetLastError());
}

}  // namespace proj::cuda::internal
