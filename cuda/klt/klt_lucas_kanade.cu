// Pyramidal Lucas-Kanade (Bouguet 2001) with a forward-backward check, one warp per point.
// The iteration follows OpenCV's calcOpticalFlowPyrLK (so the GPU and CPU paths agree):
// window gradients are Scharr derivatives of the bilinearly sampled previous image, the
// update solves the 2x2 normal equations, iterations stop when the update is below epsilon
// or oscillates, and a level whose gradient matrix is too weak is skipped (failure at level
// 0). Images are sampled through texture objects with hardware bilinear filtering.
#include "cuda/klt/klt_internal.cuh"

#include <cub/device/device_scan.cuh>

#include "cuda/klt/klt_types.h"

namespace proj::cuda::internal {
namespace {

constexpr int kWarpsPerBlock = 4;

__device__ __forceinline__ bool WindowOutside(float left, float top, int window, int width,
                                              int height) {
  // OpenCV's test: the window's integer top-left corner more than a window outside.
  const int ix = static_cast<int>(floorf(left));
  const int iy = static_cast<int>(floorf(top));
  return ix < -window || ix >= width || iy < -window || iy >= height;
}

// Lane `lane` owns the window pixels k = lane + 32 t (row-major, k < area); their
// coordinates advance by (step_x, step_y) with carry from one t to the next.
struct PixelWalk {
  int start_x, start_y, step_x, step_y, window, area, lane;
};

// Calls body(t, x, y) for each pixel the lane owns; t is a compile-time index after
// unrolling, so per-pixel register arrays stay in registers.
template <int kPerLane, typename Body>
__device__ __forceinline__ void ForEachPixel(const PixelWalk& walk, Body&& body) {
  int x = walk.start_x;
  int y = walk.start_y;
#pragma unroll
  for (int t = 0; t < kPerLane; ++t) {
    if (walk.lane + 32 * t < walk.area) body(t, x, y);
    x += walk.step_x;
    y += walk.step_y;
    if (x >= walk.window) {
      x -= walk.window;
      ++y;
    }
  }
}

struct TrackOutcome {
  KltStatus status = KltStatus::kTracked;
  float2 position;  // level-0 pixel coordinates with pixel centres at integers
  float residual = 0;
};

// Tracks `from_point` (integer pixel centres, level 0) from `from` into `to`, starting the
// search at `guess`. Every lane returns the same outcome.
template <int kMaxWindow>
__device__ TrackOutcome TrackPoint(const KltTrackParams& p, const cudaTextureObject_t* from,
                                   const cudaTextureObject_t* to, float2 from_point, float2 guess,
                                   bool want_residual, float* patch, int lane) {
  constexpr int kPatchStride = kMaxWindow + 2;
  constexpr int kPerLane = (kMaxWindow * kMaxWindow + 31) / 32;
  const int window = p.window_size;
  const int half = window / 2;
  const int area = window * window;
  const int patch_size = window + 2;

  float values[kPerLane];
  float grad_x[kPerLane];
  float grad_y[kPerLane];
  const PixelWalk walk{lane % window, lane / window, 32 % window, 32 / window, window, area, lane};

  TrackOutcome outcome;
  float2 next = guess;  // centre, scaled to the current level below
  for (int level = p.num_levels - 1; level >= 0; --level) {
    const float scale = 1.0f / static_cast<float>(1 << level);
    const int width = p.level_width[level];
    const int height = p.level_height[level];
    if (level == p.num_levels - 1) {
      next = make_float2(guess.x * scale, guess.y * scale);
    } else {
      next = make_float2(next.x * 2.0f, next.y * 2.0f);
    }
    const float prev_left = from_point.x * scale - half;
    const float prev_top = from_point.y * scale - half;
    if (WindowOutside(prev_left, prev_top, window, width, height)) {
      if (level == 0) outcome.status = KltStatus::kLost;
      continue;
    }

    // Previous window with a one-pixel ring, for the Scharr derivatives.
    __syncwarp();
    for (int k = lane; k < patch_size * patch_size; k += 32) {
      const int cy = k / patch_size;
      const int cx = k - cy * patch_size;
      patch[cy * kPatchStride + cx] =
          tex2D<float>(from[level], prev_left + (cx - 1) + 0.5f, prev_top + (cy - 1) + 0.5f);
    }
    __syncwarp();
    float a11 = 0, a12 = 0, a22 = 0;
#pragma unroll
    for (int t = 0; t < kPerLane; ++t) values[t] = grad_x[t] = grad_y[t] = 0;
    ForEachPixel<kPerLane>(walk, [&](int t, int wx, int wy) {
      const int c = (wy + 1) * kPatchStride + wx + 1;
      values[t] = patch[c];
      grad_x[t] = (3.0f * (patch[c - kPatchStride + 1] - patch[c - kPatchStride - 1]) +
                   10.0f * (patch[c + 1] - patch[c - 1]) +
                   3.0f * (patch[c + kPatchStride + 1] - patch[c + kPatchStride - 1])) * (1.0f / 32);
      grad_y[t] = (3.0f * (patch[c + kPatchStride - 1] - patch[c - kPatchStride - 1]) +
                   10.0f * (patch[c + kPatchStride] - patch[c - kPatchStride]) +
                   3.0f * (patch[c + kPatchStride + 1] - patch[c - kPatchStride + 1])) * (1.0f / 32);
      a11 += grad_x[t] * grad_x[t];
      a12 += grad_x[t] * grad_y[t];
      a22 += grad_y[t] * grad_y[t];
    });
    a11 = KltWarpSum(a11);
    a12 = KltWarpSum(a12);
    a22 = KltWarpSum(a22);
    const float det = a11 * a22 - a12 * a12;
    const float min_eigen =
        (a22 + a11 - sqrtf((a11 - a22) * (a11 - a22) + 4.0f * a12 * a12)) / (2.0f * area);
    if (!(min_eigen >= p.min_eigenvalue) || !(det > 1e-20f)) {
      if (level == 0) outcome.status = KltStatus::kLowTexture;
      continue;
    }
    const float inv_det = 1.0f / det;

    float left = next.x - half;
    float top = next.y - half;
    float2 previous_delta = make_float2(0, 0);
    for (int iteration = 0; iteration < p.max_iterations; ++iteration) {
      if (WindowOutside(left, top, window, width, height)) {
        if (level == 0) outcome.status = KltStatus::kLost;
        break;
      }
      float b1 = 0, b2 = 0;
      ForEachPixel<kPerLane>(walk, [&](int t, int wx, int wy) {
        const float diff = tex2D<float>(to[level], left + wx + 0.5f, top + wy + 0.5f) - values[t];
        b1 += diff * grad_x[t];
        b2 += diff * grad_y[t];
      });
      b1 = KltWarpSum(b1);
      b2 = KltWarpSum(b2);
      const float2 delta = make_float2((a12 * b2 - a22 * b1) * inv_det, (a12 * b1 - a11 * b2) * inv_det);
      left += delta.x;
      top += delta.y;
      if (delta.x * delta.x + delta.y * delta.y <= p.epsilon_sq) break;
      if (iteration > 0 && fabsf(delta.x + previous_delta.x) < 0.01f &&
          fabsf(delta.y + previous_delta.y) < 0.01f) {
        left -= delta.x * 0.5f;
        top -= delta.y * 0.5f;
        break;
      }
      previous_delta = delta;
    }
    next = make_float2(left + half, top + half);
    if (!isfinite(next.x) || !isfinite(next.y)) {
      outcome.status = KltStatus::kLost;
      break;
    }
    if (level == 0 && want_residual && outcome.status == KltStatus::kTracked) {
      float sum = 0;
      ForEachPixel<kPerLane>(walk, [&](int t, int wx, int wy) {
        sum += fabsf(tex2D<float>(to[0], left + wx + 0.5f, top + wy + 0.5f) - values[t]);
      });
      outcome.residual = KltWarpSum(sum) / area;
    }
  }
  outcome.position = next;
  return outcome;
}

template <int kMaxWindow>
__global__ void __launch_bounds__(kWarpsPerBlock * 32)
    LucasKanadeKernel(const KltTrackParams params) {
  __shared__ float patches[kWarpsPerBlock][(kMaxWindow + 2) * (kMaxWindow + 2)];
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const int index = blockIdx.x * kWarpsPerBlock + warp;
  if (index >= params.count) return;  // uniform over the warp
  float* patch = patches[warp];

  const float2 start = params.points_in[index];
  const float2 from_point = make_float2(start.x - 0.5f, start.y - 0.5f);
  const float half = static_cast<float>(params.window_size / 2);
  // Pass 0 tracks forward; pass 1 tracks the result back (one call site keeps the kernel
  // small enough for good occupancy).
  KltStatus status = KltStatus::kTracked;
  TrackOutcome forward;
  float forward_backward = -1;
  for (int pass = 0; pass < 2; ++pass) {
    const bool backward = pass == 1;
    const float2 origin = backward ? forward.position : from_point;
    const TrackOutcome outcome = TrackPoint<kMaxWindow>(
        params, backward ? params.to_texture : params.from_texture,
        backward ? params.from_texture : params.to_texture, origin, origin, !backward, patch, lane);
    if (!backward) {
      forward = outcome;
      status = outcome.status;
      if (status == KltStatus::kTracked &&
          !(outcome.position.x - half >= 0 && outcome.position.y - half >= 0 &&
            outcome.position.x + half <= params.level_width[0] - 1 &&
            outcome.position.y + half <= params.level_height[0] - 1)) {
        status = KltStatus::kOutOfImage;
      }
      if (status == KltStatus::kTracked && params.max_residual > 0 &&
          outcome.residual > params.max_residual) {
        status = KltStatus::kLargeResidual;
      }
      if (status != KltStatus::kTracked || params.max_fb_sq < 0) break;
    } else {
      const float dx = outcome.position.x - from_point.x;
      const float dy = outcome.position.y - from_point.y;
      forward_backward = sqrtf(dx * dx + dy * dy);
      if (outcome.status != KltStatus::kTracked || !(dx * dx + dy * dy <= params.max_fb_sq)) {
        status = KltStatus::kForwardBackward;
      }
    }
  }
  if (lane == 0) {
    params.points_out[index] = make_float2(forward.position.x + 0.5f, forward.position.y + 0.5f);
    params.status[index] = static_cast<uint8_t>(status);
    params.residual[index] = forward.residual;
    params.forward_backward[index] = forward_backward;
  }
}

__global__ void KeepFlagsKernel(const uint8_t* status, int count, int* flags) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) flags[i] = status[i] == static_cast<uint8_t>(KltStatus::kTracked) ? 1 : 0;
}

__global__ void ScatterKeptKernel(const float2* points, const int* ids, const int* flags,
                                  const int* positions, int count, float2* out_points,
                                  int* out_ids, int* out_count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  if (flags[i]) {
    out_points[positions[i]] = points[i];
    out_ids[positions[i]] = ids[i];
  }
  if (i == count - 1) *out_count = positions[i] + flags[i];
}

}  // namespace

void LaunchLucasKanade(const KltTrackParams& params, cudaStream_t stream) {
  if (params.count == 0) return;
  const int blocks = (params.count + kWarpsPerBlock - 1) / kWarpsPerBlock;
  if (params.window_size <= 21) {
    LucasKanadeKernel<21><<<blocks, kWarpsPerBlock * 32, 0, stream>>>(params);
  } else {
    LucasKanadeKernel<31><<<blocks, kWarpsPerBlock * 32, 0, stream>>>(params);
  }
  PROJ_CUDA_CHECK(cudaGetLastError());
}

void CompactTracked(const float2* points, const int* ids, const uint8_t* status, int count,
                    int* flags, int* positions, KltDeviceArray<unsigned char>* cub_temp,
                    float2* out_points, int* out_ids, int* out_count, cudaStream_t stream) {
  if (count == 0) {
    PROJ_CUDA_CHECK(cudaMemsetAsync(out_count, 0, sizeof(int), stream));
    return;
  }
  const int threads = 256;
  const int blocks = (count + threads - 1) / threads;
  KeepFlagsKernel<<<blocks, threads, 0, stream>>>(status, count, flags);
  PROJ_CUDA_CHECK(cudaGetLastError());
  size_t temp_bytes = 0;
  PROJ_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, flags, positions, count, stream));
  cub_temp->Reserve(temp_bytes);
  PROJ_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(cub_temp->data(), temp_bytes, flags, positions,
                                                count, stream));
  ScatterKeptKernel<<<blocks, threads, 0, stream>>>(points, ids, flags, positions, count,
                                                     out_points, out_ids, out_count);
  PROJ_CUDA_CHECK(cudaGetLastError());
}

}  // namespace proj::cuda::internal
