// Drift correction of the GPU KLT tracker: per-track templates and the affine alignment of
// each template to the current frame (cuda/klt/klt_affine.h), one warp per point. The steps
// and checks are those of the CPU refiner (features/klt/klt_affine_refiner.cc); the image is
// sampled through the level-0 texture (hardware bilinear filtering).
#include "cuda/klt/klt_internal.cuh"

#include "cuda/klt/klt_types.h"

namespace proj::cuda::internal {
namespace {

constexpr int kWarpsPerBlock = 4;

struct RefineOutcome {
  KltStatus status = KltStatus::kTracked;
  KltAffineWarp warp;
  float residual = 0;
};

// The steepest-descent row of window pixel k (row-major, window x window) of the template in
// `patch` (with its ring, row stride window + 2).
__device__ __forceinline__ void SteepestDescentAt(const float* patch, int k, int window, float* sd) {
  const int half = window / 2;
  const int wy = k / window;
  const int wx = k - wy * window;
  float gx, gy;
  KltScharrGradient(patch, (wy + 1) * (window + 2) + wx + 1, window + 2, &gx, &gy);
  KltAffineSteepestDescent(static_cast<float>(wx - half), static_cast<float>(wy - half), gx, gy, sd);
}

// Template value at window pixel k and the frame's value where `warp` puts it.
__device__ __forceinline__ float DifferenceAt(const KltAffineParams& p, const float* patch, int k,
                                              const KltAffineWarp& warp) {
  const int window = p.window_size;
  const int half = window / 2;
  const int wy = k / window;
  const int wx = k - wy * window;
  const float i = static_cast<float>(wx - half);
  const float j = static_cast<float>(wy - half);
  const float x = warp.a11 * i + warp.a12 * j + warp.tx;
  const float y = warp.a21 * i + warp.a22 * j + warp.ty;
  return tex2D<float>(p.texture, x + 0.5f, y + 0.5f) - patch[(wy + 1) * (window + 2) + wx + 1];
}

// Every lane returns the same outcome (all sums are broadcast from lane 0).
__device__ RefineOutcome Refine(const KltAffineParams& p, const float* patch, KltAffineWarp warp,
                                int lane) {
  const int window = p.window_size;
  const float half = static_cast<float>(window / 2);
  const int area = window * window;
  float normal[kKltAffineNormalEntries];
#pragma unroll
  for (int e = 0; e < kKltAffineNormalEntries; ++e) normal[e] = 0;
  for (int k = lane; k < area; k += 32) {
    float sd[6];
    SteepestDescentAt(patch, k, window, sd);
    int e = 0;
#pragma unroll
    for (int r = 0; r < 6; ++r) {
#pragma unroll
      for (int c = r; c < 6; ++c) normal[e++] += sd[r] * sd[c];
    }
  }
#pragma unroll
  for (int e = 0; e < kKltAffineNormalEntries; ++e) normal[e] = KltWarpSum(normal[e]);

  RefineOutcome outcome;
  const float start_x = warp.tx, start_y = warp.ty;
  for (int iteration = 0; iteration < p.max_iterations; ++iteration) {
    if (!KltWarpInside(warp, half, p.width, p.height)) {
      outcome.status = KltStatus::kLost;
      return outcome;
    }
    float b[6] = {0, 0, 0, 0, 0, 0};
    for (int k = lane; k < area; k += 32) {
      float sd[6];
      SteepestDescentAt(patch, k, window, sd);
      const float difference = DifferenceAt(p, patch, k, warp);
#pragma unroll
      for (int r = 0; r < 6; ++r) b[r] += sd[r] * difference;
    }
#pragma unroll
    for (int r = 0; r < 6; ++r) b[r] = KltWarpSum(b[r]);
    const KltAffineStep step = KltTakeAffineStep(normal, b, half, p.epsilon, &warp);
    if (step == KltAffineStep::kFailed) {
      outcome.status = KltStatus::kTemplateMismatch;
      return outcome;
    }
    if (step == KltAffineStep::kConverged) break;
  }
  const float correction = hypotf(warp.tx - start_x, warp.ty - start_y);
  if (!KltWarpScaleWithin(warp, p.max_scale) || !(correction <= p.max_correction)) {
    outcome.status = KltStatus::kTemplateMismatch;
    return outcome;
  }
  if (!(warp.tx - half >= 0 && warp.ty - half >= 0 && warp.tx + half <= p.width - 1 &&
        warp.ty + half <= p.height - 1) ||
      !KltWarpInside(warp, half, p.width, p.height)) {
    outcome.status = KltStatus::kOutOfImage;
    return outcome;
  }
  float sum = 0;
  for (int k = lane; k < area; k += 32) sum += fabsf(DifferenceAt(p, patch, k, warp));
  outcome.residual = KltWarpSum(sum) / area;
  if (p.max_residual > 0 && outcome.residual > p.max_residual) {
    outcome.status = KltStatus::kLargeResidual;
    return outcome;
  }
  outcome.warp = warp;
  return outcome;
}

template <int kMaxWindow>
__global__ void __launch_bounds__(kWarpsPerBlock * 32) AffineRefineKernel(const KltAffineParams p) {
  constexpr int kPatchFloats = (kMaxWindow + 2) * (kMaxWindow + 2);
  __shared__ float patches[kWarpsPerBlock][kPatchFloats];
  const int warp_in_block = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const int index = blockIdx.x * kWarpsPerBlock + warp_in_block;
  if (index >= p.count) return;  // uniform over the warp
  if (p.status[index] != static_cast<uint8_t>(KltStatus::kTracked)) return;
  const int patch_floats = (p.window_size + 2) * (p.window_size + 2);
  float* patch = patches[warp_in_block];
  const float* source = p.templates + static_cast<size_t>(index) * patch_floats;
  for (int k = lane; k < patch_floats; k += 32) patch[k] = source[k];
  __syncwarp();
  KltAffineWarp warp = p.warps[index];
  const float2 tracked = p.points[index];
  warp.tx = tracked.x - 0.5f;
  warp.ty = tracked.y - 0.5f;
  const RefineOutcome outcome = Refine(p, patch, warp, lane);
  if (lane != 0) return;
  p.status[index] = static_cast<uint8_t>(outcome.status);
  if (outcome.status != KltStatus::kTracked) return;
  p.points[index] = make_float2(outcome.warp.tx + 0.5f, outcome.warp.ty + 0.5f);
  p.residual[index] = outcome.residual;
  p.warps[index] = outcome.warp;
}

// One block per new track: its template, sampled where the corner lies (corners sit on pixel
// centres, so the samples are the pixels themselves, as on the CPU).
__global__ void CaptureTemplatesKernel(cudaTextureObject_t texture, const float2* points,
                                       int window_size, float* templates, KltAffineWarp* warps) {
  const int index = blockIdx.x;
  const int stride = window_size + 2;
  const int half = window_size / 2;
  const float2 point = points[index];
  const float x0 = point.x - 0.5f, y0 = point.y - 0.5f;
  float* patch = templates + static_cast<size_t>(index) * stride * stride;
  for (int k = threadIdx.x; k < stride * stride; k += blockDim.x) {
    const int r = k / stride;
    const int c = k - r * stride;
    patch[k] = tex2D<float>(texture, x0 + (c - 1 - half) + 0.5f, y0 + (r - 1 - half) + 0.5f);
  }
  if (threadIdx.x == 0) {
    KltAffineWarp warp;
    warp.tx = x0;
    warp.ty = y0;
    warps[index] = warp;
  }
}

// One block per track; kept ones are copied to their compacted position.
__global__ void ScatterTemplatesKernel(const float* templates, const KltAffineWarp* warps,
                                       const int* flags, const int* positions, int patch_floats,
                                       float* out_templates, KltAffineWarp* out_warps) {
  const int index = blockIdx.x;
  if (!flags[index]) return;
  const int to = positions[index];
  const float* from_patch = templates + static_cast<size_t>(index) * patch_floats;
  float* to_patch = out_templates + static_cast<size_t>(to) * patch_floats;
  for (int k = threadIdx.x; k < patch_floats; k += blockDim.x) to_patch[k] = from_patch[k];
  if (threadIdx.x == 0) out_warps[to] = warps[index];
}

}  // namespace

void LaunchAffineRefine(const KltAffineParams& params, cudaStream_t stream) {
  if (params.count == 0) return;
  const int blocks = (params.count + kWarpsPerBlock - 1) / kWarpsPerBlock;
  if (params.window_size <= 21) {
    AffineRefineKernel<21><<<blocks, kWarpsPerBlock * 32, 0, stream>>>(params);
  } else {
    AffineRefineKernel<31><<<blocks, kWarpsPerBlock * 32, 0, stream>>>(params);
  }
  PROJ_CUDA_CHECK(cudaGetLastError());
}

void LaunchCaptureTemplates(cudaTextureObject_t texture, const float2* points, int count,
                            int window_size, float* templates, KltAffineWarp* warps,
                            cudaStream_t stream) {
  if (count == 0) return;
  CaptureTemplatesKernel<<<count, 128, 0, stream>>>(texture, points, window_size, templates, warps);
  PROJ_CUDA_CHECK(cudaGetLastError());
}

void ScatterKeptTemplates(const float* templates, const KltAffineWarp* warps, const int* flags,
                          const int* positions, int count, int window_size, float* out_templates,
                          KltAffineWarp* out_warps, cudaStream_t stream) {
  if (count == 0) return;
  const int patch_floats = (window_size + 2) * (window_size + 2);
  ScatterTemplatesKernel<<<count, 128, 0, stream>>>(templates, warps, flags, positions, patch_floats,
                                                    out_templates, out_warps);
  PROJ_CUDA_CHECK(cudaGetLastError());
}

}  // namespace proj::cuda::internal
