// Compiled with -fmad=false so the refinement rounds as the CPU reference does.
#include <cmath>

#include "cuda/cuda_check.cuh"
#include "cuda/sift/sift_kernels.cuh"

namespace proj::cuda {
namespace {

__device__ bool Solve3x3(const float a_in[9], const float b_in[3], float x[3]) {
  float a[3][4];
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) a[r][c] = a_in[3 * r + c];
    a[r][3] = b_in[r];
  }
  for (int col = 0; col < 3; ++col) {
    int pivot = col;
    for (int r = col + 1; r < 3; ++r) {
      if (fabsf(a[r][col]) > fabsf(a[pivot][col])) pivot = r;
    }
    if (fabsf(a[pivot][col]) < 1e-10f) return false;
    if (pivot != col) {
      for (int c = 0; c < 4; ++c) {
        const float t = a[pivot][c];
        a[pivot][c] = a[col][c];
        a[col][c] = t;
      }
    }
    for (int r = col + 1; r < 3; ++r) {
      const float f = a[r][col] / a[col][col];
      for (int c = col; c < 4; ++c) a[r][c] -= f * a[col][c];
    }
  }
  for (int r = 2; r >= 0; --r) {
    float v = a[r][3];
    for (int c = r + 1; c < 3; ++c) v -= a[r][c] * x[c];
    x[r] = v / a[r][r];
  }
  return isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2]);
}

__device__ bool Refine(const OctaveTable& table, int slot, const SiftKernelParams& p, int x, int y,
                       int s, GpuDetection* out) {
  const int S = p.levels_per_octave;
  const int w = table.width[slot], h = table.height[slot];
  float offset[3] = {0, 0, 0};
  float g[3] = {0, 0, 0};
  float dxx = 0, dyy = 0, dxy = 0, value = 0;
  bool converged = false;
  for (int step = 0; step < p.max_refinement_steps; ++step) {
    const float* below = table.dogs[slot][s];
    const float* here = table.dogs[slot][s + 1];
    const float* above = table.dogs[slot][s + 2];
    auto at = [w](const float* plane, int px, int py) { return plane[static_cast<size_t>(py) * w + px]; };
    value = at(here, x, y);
    g[0] = 0.5f * (at(here, x + 1, y) - at(here, x - 1, y));
    g[1] = 0.5f * (at(here, x, y + 1) - at(here, x, y - 1));
    g[2] = 0.5f * (at(above, x, y) - at(below, x, y));
    dxx = at(here, x + 1, y) + at(here, x - 1, y) - 2 * value;
    dyy = at(here, x, y + 1) + at(here, x, y - 1) - 2 * value;
    const float dss = at(above, x, y) + at(below, x, y) - 2 * value;
    dxy = 0.25f * (at(here, x + 1, y + 1) - at(here, x - 1, y + 1) - at(here, x + 1, y - 1) +
                   at(here, x - 1, y - 1));
    const float dxs = 0.25f * (at(above, x + 1, y) - at(above, x - 1, y) - at(below, x + 1, y) +
                               at(below, x - 1, y));
    const float dys = 0.25f * (at(above, x, y + 1) - at(above, x, y - 1) - at(below, x, y + 1) +
                               at(below, x, y - 1));
    const float hessian[9] = {dxx, dxy, dxs, dxy, dyy, dys, dxs, dys, dss};
    const float minus_g[3] = {-g[0], -g[1], -g[2]};
    if (!Solve3x3(hessian, minus_g, offset)) return false;
    if (fabsf(offset[0]) <= 0.5f && fabsf(offset[1]) <= 0.5f && fabsf(offset[2]) <= 0.5f) {
      converged = true;
      break;
    }
    x += (offset[0] > 0.5f) - (offset[0] < -0.5f);
    y += (offset[1] > 0.5f) - (offset[1] < -0.5f);
    s += (offset[2] > 0.5f) - (offset[2] < -0.5f);
    if (x < 1 || x > w - 2 || y < 1 || y > h - 2 || s < 0 || s > S - 1) return false;
  }
  if (!converged) return false;
  const float contrast = value + 0.5f * (g[0] * offset[0] + g[1] * offset[1] + g[2] * offset[2]);
  if (fabsf(contrast) < p.peak_threshold) return false;
  if (p.edge_test) {
    const float trace = dxx + dyy;
    const float det = dxx * dyy - dxy * dxy;
    const float r = p.edge_ratio;
    if (det <= 0 || trace * trace * r >= (r + 1) * (r + 1) * det) return false;
  }
  out->octave_slot = slot;
  out->x = x + offset[0];
  out->y = y + offset[1];
  out->level = s + offset[2];
  out->sigma = p.sigma0 * powf(2.0f, out->level / S);
  out->response = fabsf(contrast);
  return true;
}

__global__ void DetectKernel(OctaveTable table, int slot, SiftKernelParams p,
                             GpuDetection* detections, float* keys, int* values, int* count,
                             int capacity) {
  const int w = table.width[slot], h = table.height[slot];
  const int x = blockIdx.x * blockDim.x + threadIdx.x + 1;
  const int y = blockIdx.y * blockDim.y + threadIdx.y + 1;
  if (x > w - 2 || y > h - 2) return;
  const size_t center = static_cast<size_t>(y) * w + x;
  for (int s = 0; s < p.levels_per_octave; ++s) {
    const float v = table.dogs[slot][s + 1][center];
    if (fabsf(v) < p.prefilter_threshold) continue;
    bool is_max = v > 0, is_min = v < 0;
    for (int d = 0; d < 3 && (is_max || is_min); ++d) {
      const float* plane = table.dogs[slot][s + d];
      for (int dy = -1; dy <= 1; ++dy) {
        const float* row = plane + center + static_cast<ptrdiff_t>(dy) * w;
        for (int dx = -1; dx <= 1; ++dx) {
          if (d == 1 && dy == 0 && dx == 0) continue;
          const float n = row[dx];
          is_max = is_max && v > n;
          is_min = is_min && v < n;
        }
      }
    }
    if (!is_max && !is_min) continue;
    GpuDetection detection;
    if (!Refine(table, slot, p, x, y, s, &detection)) continue;
    const int k = atomicAdd(count, 1);
    if (k < capacity) {
      detections[k] = detection;
      keys[k] = detection.response;
      values[k] = k;
    }
  }
}

}  // namespace

void LaunchDetect(const OctaveTable& table, int slot, const SiftKernelParams& params,
                  GpuDetection* detections, float* keys, int* values, int* count, int capacity,
                  cudaStream_t stream) {
  const int w = table.width[slot] - 2, h = table.height[slot] - 2;
  if (w <= 0 || h <= 0) return;
  const dim3 block(32, 8);
  const dim3 grid((w + 31) / 32, (h + 7) / 8);
  DetectKernel<<<grid, block, 0, stream>>>(table, slot, params, detections, keys, values, count,
                                           capacity);
  PROJ_CUDA_CHECK(cudaGetLastError());
}

}  // namespace proj::cuda
