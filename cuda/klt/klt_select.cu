// Shi-Tomasi corner selection on the device, with the semantics of OpenCV's
// goodFeaturesToTrack (Shi & Tomasi 1994): min eigenvalue of the Sobel structure tensor summed
// over a block, threshold relative to the maximum over the allowed region, 3x3 local maxima,
// greedy minimum-distance suppression in order of strength, strongest N kept.
//
// The greedy suppression is computed in parallel rounds: a candidate is kept once every
// stronger candidate within the minimum distance is suppressed, and suppressed once a kept
// candidate lies within it. The fixed point equals the sequential greedy result (the
// lexicographically first maximal independent set in order of strength); states only move
// forward, so concurrent reads within a round can delay a decision but never change it.
// Rounds run over a growing prefix of the candidates sorted by strength (exact, since a
// decision depends only on stronger candidates), so a frame with 10^5 candidates and N = 2000
// resolves a few thousand of them.
#include "cuda/klt/klt_internal.cuh"

#include <algorithm>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include "core/logging.h"

namespace proj::cuda::internal {
namespace {

constexpr int kTileX = 32;
constexpr int kTileY = 8;
constexpr int kMaxHalfBlock = 3;
constexpr int kMaxNmsRounds = 1024;
constexpr int kRoundsPerCheck = 4;

__device__ __forceinline__ int Reflect101(int i, int n) {
  if (i < 0) i = -i;
  if (i >= n) i = 2 * n - 2 - i;
  return min(max(i, 0), n - 1);
}

__global__ void PaintMaskKernel(const float2* points, int count, float radius, int width,
                                int height, uint8_t* mask) {
  const int index = blockIdx.x;
  if (index >= count) return;
  const float px = points[index].x - 0.5f;  // integer pixel centres
  const float py = points[index].y - 0.5f;
  const int x0 = max(0, static_cast<int>(ceilf(px - radius)));
  const int x1 = min(width - 1, static_cast<int>(floorf(px + radius)));
  const int y0 = max(0, static_cast<int>(ceilf(py - radius)));
  const int y1 = min(height - 1, static_cast<int>(floorf(py + radius)));
  const int span = x1 - x0 + 1;
  if (span <= 0 || y1 < y0) return;
  for (int k = threadIdx.x; k < span * (y1 - y0 + 1); k += blockDim.x) {
    const int y = y0 + k / span;
    const int x = x0 + k % span;
    const float dx = x - px;
    const float dy = y - py;
    if (dx * dx + dy * dy < radius * radius) mask[y * width + x] = 1;
  }
}

__device__ __forceinline__ bool Allowed(int x, int y, int width, int height, int border,
                                        const uint8_t* mask) {
  return x >= border && y >= border && x < width - border && y < height - border &&
         mask[y * width + x] == 0;
}

// Min eigenvalue per pixel; the maximum over allowed pixels goes to counters[0] (float bits,
// values are >= 0 so unsigned order is float order).
__global__ void MinEigenKernel(const float* image, size_t pitch_bytes, int width, int height,
                               int half_block, int border, const uint8_t* mask, float* eigen,
                               unsigned int* counters) {
  constexpr int kImgX = kTileX + 2 * kMaxHalfBlock + 2;
  constexpr int kImgY = kTileY + 2 * kMaxHalfBlock + 2;
  constexpr int kGradX = kTileX + 2 * kMaxHalfBlock;
  constexpr int kGradY = kTileY + 2 * kMaxHalfBlock;
  __shared__ float pixels[kImgY][kImgX];
  __shared__ float gxx[kGradY][kGradX];
  __shared__ float gxy[kGradY][kGradX];
  __shared__ float gyy[kGradY][kGradX];
  __shared__ unsigned int block_max;

  const int tid = threadIdx.y * kTileX + threadIdx.x;
  const int threads = kTileX * kTileY;
  const int origin_x = blockIdx.x * kTileX;
  const int origin_y = blockIdx.y * kTileY;
  const int img_w = kTileX + 2 * half_block + 2;
  const int img_h = kTileY + 2 * half_block + 2;
  if (tid == 0) block_max = 0;
  for (int k = tid; k < img_w * img_h; k += threads) {
    const int ly = k / img_w;
    const int lx = k - ly * img_w;
    const int gx = Reflect101(origin_x + lx - half_block - 1, width);
    const int gy = Reflect101(origin_y + ly - half_block - 1, height);
    pixels[ly][lx] = reinterpret_cast<const float*>(
        reinterpret_cast<const char*>(image) + gy * pitch_bytes)[gx];
  }
  __syncthreads();
  const int grad_w = img_w - 2;
  const int grad_h = img_h - 2;
  for (int k = tid; k < grad_w * grad_h; k += threads) {
    const int ly = k / grad_w;
    const int lx = k - ly * grad_w;
    const float dx = (pixels[ly][lx + 2] + 2 * pixels[ly + 1][lx + 2] + pixels[ly + 2][lx + 2]) -
                     (pixels[ly][lx] + 2 * pixels[ly + 1][lx] + pixels[ly + 2][lx]);
    const float dy = (pixels[ly + 2][lx] + 2 * pixels[ly + 2][lx + 1] + pixels[ly + 2][lx + 2]) -
                     (pixels[ly][lx] + 2 * pixels[ly][lx + 1] + pixels[ly][lx + 2]);
    gxx[ly][lx] = dx * dx;
    gxy[ly][lx] = dx * dy;
    gyy[ly][lx] = dy * dy;
  }
  __syncthreads();
  const int x = origin_x + threadIdx.x;
  const int y = origin_y + threadIdx.y;
  if (x < width && y < height) {
    float sxx = 0, sxy = 0, syy = 0;
    for (int j = 0; j <= 2 * half_block; ++j) {
      for (int i = 0; i <= 2 * half_block; ++i) {
        sxx += gxx[threadIdx.y + j][threadIdx.x + i];
        sxy += gxy[threadIdx.y + j][threadIdx.x + i];
        syy += gyy[threadIdx.y + j][threadIdx.x + i];
      }
    }
    const float a = 0.5f * sxx;
    const float b = sxy;
    const float c = 0.5f * syy;
    const float value = fmaxf(0.0f, (a + c) - sqrtf((a - c) * (a - c) + b * b));
    eigen[y * width + x] = value;
    if (Allowed(x, y, width, height, border, mask)) atomicMax(&block_max, __float_as_uint(value));
  }
  __syncthreads();
  if (tid == 0 && block_max > 0) atomicMax(&counters[0], block_max);
}

// Local maxima above the threshold in the allowed region become candidates.
__global__ void CandidatesKernel(const float* eigen, int width, int height, int border,
                                 const uint8_t* mask, float quality_level, unsigned int* counters,
                                 unsigned long long* keys, unsigned int capacity) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height || !Allowed(x, y, width, height, border, mask)) return;
  const float value = eigen[y * width + x];
  const float threshold = __uint_as_float(counters[0]) * quality_level;
  if (!(value > threshold)) return;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      const int nx = x + dx;
      const int ny = y + dy;
      if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
      if (eigen[ny * width + nx] > value) return;
    }
  }
  const unsigned int slot = atomicAdd(&counters[1], 1u);
  if (slot >= capacity) return;
  const unsigned int pixel = static_cast<unsigned int>(y * width + x);
  // Descending order of the key = strongest first, then lowest pixel index first.
  keys[slot] = (static_cast<unsigned long long>(__float_as_uint(value)) << 32) | (~pixel);
}

__global__ void RankKernel(const unsigned long long* sorted_keys, int count, int* rank,
                           uint8_t* state) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const unsigned int pixel = ~static_cast<unsigned int>(sorted_keys[i] & 0xffffffffull);
  rank[pixel] = i;
  state[i] = 0;
}

__global__ void SuppressionRoundKernel(const unsigned long long* sorted_keys, int count,
                                       const int* rank, volatile uint8_t* state, int width,
                                       int height, float min_distance, unsigned int* undecided) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count || state[i] != 0) return;
  const unsigned int pixel = ~static_cast<unsigned int>(sorted_keys[i] & 0xffffffffull);
  const int x = static_cast<int>(pixel % width);
  const int y = static_cast<int>(pixel / width);
  const int reach = static_cast<int>(ceilf(min_distance));
  const float limit = min_distance * min_distance;
  bool blocked = false;
  for (int dy = -reach; dy <= reach; ++dy) {
    const int ny = y + dy;
    if (ny < 0 || ny >= height) continue;
    for (int dx = -reach; dx <= reach; ++dx) {
      const int nx = x + dx;
      if (nx < 0 || nx >= width || static_cast<float>(dx * dx + dy * dy) >= limit) continue;
      const int j = rank[ny * width + nx];
      if (j < 0 || j == i) continue;
      const uint8_t other = state[j];
      if (other == 1) {
        state[i] = 2;
        return;
      }
      if (other == 0 && j < i) blocked = true;
    }
  }
  if (blocked) {
    atomicAdd(undecided, 1u);
  } else {
    state[i] = 1;
  }
}

__global__ void KeptFlagsKernel(const uint8_t* state, int count, int* flags) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) flags[i] = state[i] == 1 ? 1 : 0;
}

__global__ void WriteCornersKernel(const unsigned long long* sorted_keys, const int* flags,
                                   const int* positions, int count, int width, int max_new,
                                   float2* out_points, float* out_scores, int* out_ids,
                                   int first_id, unsigned int* counters) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  if (i == count - 1) counters[2] = min(positions[i] + flags[i], max_new);
  if (!flags[i] || positions[i] >= max_new) return;
  const int k = positions[i];
  const unsigned long long key = sorted_keys[i];
  const unsigned int pixel = ~static_cast<unsigned int>(key & 0xffffffffull);
  if (out_points) {
    out_points[k] = make_float2(static_cast<float>(pixel % width) + 0.5f,
                                static_cast<float>(pixel / width) + 0.5f);
  }
  if (out_scores) out_scores[k] = __uint_as_float(static_cast<unsigned int>(key >> 32));
  if (out_ids) out_ids[k] = first_id + k;
}

void Synchronize(cudaStream_t stream) { PROJ_CUDA_CHECK(cudaStreamSynchronize(stream)); }

}  // namespace

int SelectCorners(const KltSelectParams& p, KltSelectBuffers* b, unsigned int* host_scratch,
                  cudaStream_t stream) {
  PROJ_CHECK(p.block_size / 2 <= kMaxHalfBlock, "corner block size too large");
  if (p.max_new <= 0) return 0;
  const size_t pixels = static_cast<size_t>(p.width) * p.height;
  const unsigned int capacity = static_cast<unsigned int>(pixels / 2 + 1);
  b->eigen.Reserve(pixels);
  b->mask.Reserve(pixels);
  b->rank.Reserve(pixels);
  b->keys.Reserve(capacity);
  b->sorted_keys.Reserve(capacity);
  b->state.Reserve(capacity);
  b->flags.Reserve(capacity);
  b->positions.Reserve(capacity);
  b->counters.Reserve(3 + kMaxNmsRounds);

  PROJ_CUDA_CHECK(cudaMemsetAsync(b->counters.data(), 0, (3 + kMaxNmsRounds) * sizeof(unsigned int), stream));
  PROJ_CUDA_CHECK(cudaMemsetAsync(b->mask.data(), 0, pixels, stream));
  if (p.num_existing > 0 && p.min_distance > 0) {
    PaintMaskKernel<<<p.num_existing, 128, 0, stream>>>(p.existing, p.num_existing, p.min_distance,
                                                       p.width, p.height, b->mask.data());
    PROJ_CUDA_CHECK(cudaGetLastError());
  }
  const dim3 tile(kTileX, kTileY);
  const dim3 grid((p.width + kTileX - 1) / kTileX, (p.height + kTileY - 1) / kTileY);
  MinEigenKernel<<<grid, tile, 0, stream>>>(p.image, p.pitch_bytes, p.width, p.height,
                                            p.block_size / 2, p.border, b->mask.data(),
                                            b->eigen.data(), b->counters.data());
  PROJ_CUDA_CHECK(cudaGetLastError());
  CandidatesKernel<<<grid, tile, 0, stream>>>(b->eigen.data(), p.width, p.height, p.border,
                                              b->mask.data(), p.quality_level, b->counters.data(),
                                              b->keys.data(), capacity);
  PROJ_CUDA_CHECK(cudaGetLastError());
  PROJ_CUDA_CHECK(cudaMemcpyAsync(host_scratch, b->counters.data() + 1, sizeof(unsigned int),
                                  cudaMemcpyDeviceToHost, stream));
  Synchronize(stream);
  const int count = static_cast<int>(std::min(host_scratch[0], capacity));
  if (count == 0) return 0;

  size_t temp_bytes = 0;
  PROJ_CUDA_CHECK(cub::DeviceRadixSort::SortKeysDescending(nullptr, temp_bytes, b->keys.data(),
                                                           b->sorted_keys.data(), count, 0, 64, stream));
  b->cub_temp.Reserve(temp_bytes);
  PROJ_CUDA_CHECK(cub::DeviceRadixSort::SortKeysDescending(
      b->cub_temp.data(), temp_bytes, b->keys.data(), b->sorted_keys.data(), count, 0, 64, stream));
  PROJ_CUDA_CHECK(cudaMemsetAsync(b->rank.data(), 0xff, pixels * sizeof(int), stream));
  const int threads = 256;
  const int blocks = (count + threads - 1) / threads;
  RankKernel<<<blocks, threads, 0, stream>>>(b->sorted_keys.data(), count, b->rank.data(),
                                             b->state.data());
  PROJ_CUDA_CHECK(cudaGetLastError());

  // A candidate's decision depends only on stronger ones, so the suppression over the
  // strongest `limit` candidates is exact; the prefix grows until it holds max_new kept
  // corners or every candidate.
  int limit = std::min(count, std::max(4 * p.max_new, 4096));
  int round = 0;
  int kept = 0;
  while (true) {
    const int limit_blocks = (limit + threads - 1) / threads;
    bool converged = false;
    for (; round < kMaxNmsRounds && !converged; ++round) {
      SuppressionRoundKernel<<<limit_blocks, threads, 0, stream>>>(
          b->sorted_keys.data(), limit, b->rank.data(), b->state.data(), p.width, p.height,
          p.min_distance, b->counters.data() + 3 + round);
      PROJ_CUDA_CHECK(cudaGetLastError());
      if (round % kRoundsPerCheck == kRoundsPerCheck - 1 || round == kMaxNmsRounds - 1) {
        PROJ_CUDA_CHECK(cudaMemcpyAsync(host_scratch, b->counters.data() + 3 + round,
                                        sizeof(unsigned int), cudaMemcpyDeviceToHost, stream));
        Synchronize(stream);
        converged = host_scratch[0] == 0;
      }
    }
    if (!converged) {
      PROJ_LOG(kWarning, "KLT corner suppression stopped after " << kMaxNmsRounds
                             << " rounds; undecided corners are dropped");
    }
    KeptFlagsKernel<<<limit_blocks, threads, 0, stream>>>(b->state.data(), limit, b->flags.data());
    PROJ_CUDA_CHECK(cudaGetLastError());
    temp_bytes = 0;
    PROJ_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, b->flags.data(),
                                                  b->positions.data(), limit, stream));
    b->cub_temp.Reserve(temp_bytes);
    PROJ_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(b->cub_temp.data(), temp_bytes, b->flags.data(),
                                                  b->positions.data(), limit, stream));
    WriteCornersKernel<<<limit_blocks, threads, 0, stream>>>(
        b->sorted_keys.data(), b->flags.data(), b->positions.data(), limit, p.width, p.max_new,
        p.out_points, p.out_scores, p.out_ids, p.first_id, b->counters.data());
    PROJ_CUDA_CHECK(cudaGetLastError());
    PROJ_CUDA_CHECK(cudaMemcpyAsync(host_scratch, b->counters.data() + 2, sizeof(unsigned int),
                                    cudaMemcpyDeviceToHost, stream));
    Synchronize(stream);
    kept = static_cast<int>(host_scratch[0]);
    if (kept >= p.max_new || limit == count || !converged) break;
    limit = static_cast<int>(std::min<long long>(count, 4LL * limit));
  }
  return kept;
}

}  // namespace proj::cuda::internal
