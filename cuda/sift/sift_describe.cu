// Orientation assignment and descriptors, one warp per keypoint. Histograms are
// accumulated with shared-memory atomics (so summation order, unlike the CPU's, varies).
#include <cmath>

#include "cuda/cuda_check.cuh"
#include "cuda/sift/sift_kernels.cuh"

namespace proj::cuda {
namespace {

constexpr int kWarpsPerBlock = 4;
constexpr int kOrientationBins = 36;
constexpr float kTwoPi = 6.283185307179586f;

__device__ float Mod2Pi(float angle) {
  angle = fmodf(angle, kTwoPi);
  if (angle < 0) angle += kTwoPi;
  return angle >= kTwoPi ? 0.0f : angle;
}

__device__ const float* NearestLevel(const OctaveTable& table, int slot, int levels_per_octave,
                                     float level) {
  const int s = min(max(static_cast<int>(roundf(level)), -1), levels_per_octave + 1);
  return table.gaussians[slot][s + 1];
}

__device__ void Gradient(const float* plane, int w, int x, int y, float* magnitude, float* angle) {
  const float* p = plane + static_cast<size_t>(y) * w + x;
  const float gx = 0.5f * (p[1] - p[-1]);
  const float gy = 0.5f * (p[w] - p[-w]);
  *magnitude = sqrtf(gx * gx + gy * gy);
  *angle = Mod2Pi(atan2f(gy, gx));
}

__global__ void OrientationKernel(OctaveTable table, SiftKernelParams p,
                                  const GpuDetection* detections, const int* order, int n,
                                  GpuOrientedKeypoint* keypoints, float* keys, int* values,
                                  int* count, int capacity) {
  __shared__ float hist_all[kWarpsPerBlock][kOrientationBins];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int item = blockIdx.x * kWarpsPerBlock + warp;
  if (item >= n) return;
  float* hist = hist_all[warp];
  for (int i = lane; i < kOrientationBins; i += 32) hist[i] = 0;
  __syncwarp();
  const GpuDetection d = detections[order != nullptr ? order[item] : item];
  const int slot = d.octave_slot;
  const int w = table.width[slot], h = table.height[slot];
  const float* plane = NearestLevel(table, slot, p.levels_per_octave, d.level);
  const float window_sigma = p.orientation_window_factor * d.sigma;
  const int radius = max(1, static_cast<int>(floorf(3.0f * window_sigma)));
  const int xi = static_cast<int>(floorf(d.x + 0.5f)), yi = static_cast<int>(floorf(d.y + 0.5f));
  const int x0 = max(xi - radius, 1), x1 = min(xi + radius, w - 2);
  const int y0 = max(yi - radius, 1), y1 = min(yi + radius, h - 2);
  const int span = x1 - x0 + 1;
  const int total = span > 0 && y1 >= y0 ? span * (y1 - y0 + 1) : 0;
  for (int idx = lane; idx < total; idx += 32) {
    const int px = x0 + idx % span, py = y0 + idx / span;
    const float dx = px - d.x, dy = py - d.y;
    const float r2 = dx * dx + dy * dy;
    if (r2 >= radius * radius + 0.6f) continue;
    float magnitude, angle;
    Gradient(plane, w, px, py, &magnitude, &angle);
    const float weight = expf(-r2 / (2 * window_sigma * window_sigma)) * magnitude;
    const float fbin = kOrientationBins * angle / kTwoPi;
    const int bin = static_cast<int>(floorf(fbin - 0.5f));
    const float frac = fbin - bin - 0.5f;
    atomicAdd(&hist[(bin + kOrientationBins) % kOrientationBins], (1 - frac) * weight);
    atomicAdd(&hist[(bin + 1) % kOrientationBins], frac * weight);
  }
  __syncwarp();
  if (lane != 0) return;
  for (int iteration = 0; iteration < 6; ++iteration) {
    const float first = hist[0];
    float previous = hist[kOrientationBins - 1];
    for (int i = 0; i < kOrientationBins; ++i) {
      const float next = i + 1 < kOrientationBins ? hist[i + 1] : first;
      const float current = hist[i];
      hist[i] = (previous + current + next) / 3.0f;
      previous = current;
    }
  }
  float max_value = 0;
  for (int i = 0; i < kOrientationBins; ++i) max_value = fmaxf(max_value, hist[i]);
  if (!(max_value > 0)) return;
  // Peaks strongest first (selection by repeated maximum, as the CPU's partial sort).
  float peak_angle[kOrientationBins], peak_value[kOrientationBins];
  int peaks = 0;
  for (int i = 0; i < kOrientationBins; ++i) {
    const float h0 = hist[i];
    const float hm = hist[(i + kOrientationBins - 1) % kOrientationBins];
    const float hp = hist[(i + 1) % kOrientationBins];
    if (h0 > p.orientation_peak_ratio * max_value && h0 > hm && h0 > hp) {
      const float offset = -0.5f * (hp - hm) / (hp + hm - 2 * h0);
      peak_angle[peaks] = Mod2Pi(kTwoPi * (i + offset + 0.5f) / kOrientationBins);
      peak_value[peaks] = h0;
      ++peaks;
    }
  }
  for (int kept = 0; kept < p.max_orientations && kept < peaks; ++kept) {
    int best = kept;
    for (int i = kept + 1; i < peaks; ++i) {
      if (peak_value[i] > peak_value[best]) best = i;
    }
    const float v = peak_value[best], a = peak_angle[best];
    peak_value[best] = peak_value[kept];
    peak_angle[best] = peak_angle[kept];
    peak_value[kept] = v;
    peak_angle[kept] = a;
    const int k = atomicAdd(count, 1);
    if (k < capacity) {
      keypoints[k] = {slot, d.x, d.y, d.level, d.sigma, d.response, a};
      keys[k] = d.response;
      values[k] = k;
    }
  }
}

__global__ void DescriptorKernel(OctaveTable table, SiftKernelParams p,
                                 const GpuOrientedKeypoint* keypoints, const int* order, int n,
                                 SiftGpuKeypoint* out_keypoints, uint8_t* out_descriptors) {
  constexpr int kCells = 4, kBins = 8;
  __shared__ float hist_all[kWarpsPerBlock][kCells * kCells * kBins];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int item = blockIdx.x * kWarpsPerBlock + warp;
  if (item >= n) return;
  float* hist = hist_all[warp];
  for (int i = lane; i < kCells * kCells * kBins; i += 32) hist[i] = 0;
  __syncwarp();
  const GpuOrientedKeypoint k = keypoints[order != nullptr ? order[item] : item];
  const int slot = k.octave_slot;
  const int w = table.width[slot], h = table.height[slot];
  const float* plane = NearestLevel(table, slot, p.levels_per_octave, k.level);
  const float cell = p.descriptor_magnification * k.sigma;
  const int radius = static_cast<int>(floorf(sqrtf(2.0f) * cell * (kCells + 1) * 0.5f + 0.5f));
  float s, c;
  sincosf(k.angle, &s, &c);
  const float weight_denominator = 2 * (kCells / 2.0f) * (kCells / 2.0f);
  const int xi = static_cast<int>(floorf(k.x + 0.5f)), yi = static_cast<int>(floorf(k.y + 0.5f));
  const int x0 = max(xi - radius, 1), x1 = min(xi + radius, w - 2);
  const int y0 = max(yi - radius, 1), y1 = min(yi + radius, h - 2);
  const int span = x1 - x0 + 1;
  const int total = span > 0 && y1 >= y0 ? span * (y1 - y0 + 1) : 0;
  const float inv_cell = 1.0f / cell;
  for (int idx = lane; idx < total; idx += 32) {
    const int px = x0 + idx % span, py = y0 + idx / span;
    const float dx = px - k.x, dy = py - k.y;
    const float nx = (c * dx + s * dy) * inv_cell;
    const float ny = (-s * dx + c * dy) * inv_cell;
    if (fabsf(nx) >= kCells / 2.0f + 0.5f || fabsf(ny) >= kCells / 2.0f + 0.5f) continue;
    float magnitude, gradient_angle;
    Gradient(plane, w, px, py, &magnitude, &gradient_angle);
    const float nt = kBins * Mod2Pi(gradient_angle - k.angle) / kTwoPi;
    const float weight = expf(-(nx * nx + ny * ny) / weight_denominator) * magnitude;
    const int bx = static_cast<int>(floorf(nx - 0.5f));
    const int by = static_cast<int>(floorf(ny - 0.5f));
    const int bt = static_cast<int>(floorf(nt));
    const float rx = nx - (bx + 0.5f), ry = ny - (by + 0.5f), rt = nt - bt;
#pragma unroll
    for (int dby = 0; dby < 2; ++dby) {
      const int cy = by + dby + kCells / 2;
      if (cy < 0 || cy >= kCells) continue;
      const float wy = dby ? ry : 1 - ry;
#pragma unroll
      for (int dbx = 0; dbx < 2; ++dbx) {
        const int cx = bx + dbx + kCells / 2;
        if (cx < 0 || cx >= kCells) continue;
        const float wxy = wy * (dbx ? rx : 1 - rx) * weight;
        float* cell_hist = hist + (cy * kCells + cx) * kBins;
        atomicAdd(&cell_hist[bt % kBins], wxy * (1 - rt));
        atomicAdd(&cell_hist[(bt + 1) % kBins], wxy * rt);
      }
    }
  }
  __syncwarp();
  // Normalise, clamp at 0.2, renormalise, quantise: four bins per lane.
  float v[4];
  float sum = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    v[i] = hist[lane * 4 + i];
    sum += v[i] * v[i];
  }
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  float norm = sqrtf(sum);
  sum = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    if (norm > 0) v[i] /= norm;
    v[i] = fminf(v[i], 0.2f);
    sum += v[i] * v[i];
  }
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  norm = sqrtf(sum);
  uint32_t packed = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    if (norm > 0) v[i] /= norm;
    const uint32_t q = static_cast<uint32_t>(fminf(255.0f, roundf(512.0f * v[i])));
    packed |= q << (8 * i);
  }
  reinterpret_cast<uint32_t*>(out_descriptors + static_cast<size_t>(item) * 128)[lane] = packed;
  if (lane == 0) {
    const int octave = table.index[slot];
    const float spacing = ldexpf(1.0f, octave);
    SiftGpuKeypoint out;
    out.x = k.x * spacing + 0.5f;
    out.y = k.y * spacing + 0.5f;
    out.scale = k.sigma * spacing;
    out.orientation = k.angle;
    out.response = k.response;
    out.octave = octave;
    out_keypoints[item] = out;
  }
}

unsigned WarpBlocks(int n) { return static_cast<unsigned>((n + kWarpsPerBlock - 1) / kWarpsPerBlock); }

}  // namespace

void LaunchOrientations(const OctaveTable& table, const SiftKernelParams& params,
                        const GpuDetection* detections, const int* order, int n,
                        GpuOrientedKeypoint* keypoints, float* keys, int* values, int* count,
                        int capacity, cudaStream_t stream) {
  if (n <= 0) return;
  OrientationKernel<<<WarpBlocks(n), 32 * kWarpsPerBlock, 0, stream>>>(
      table, params, detections, order, n, keypoints, keys, values, count, capacity);
  PROJ_CUDA_CHECK(cudaGetLastError());
}

void LaunchDescriptors(const OctaveTable& table, const SiftKernelParams& params,
                       const GpuOrientedKeypoint* keypoints, const int* order, int n,
                       SiftGpuKeypoint* out_keypoints, uint8_t* out_descriptors,
                       cudaStream_t stream) {
  if (n <= 0) return;
  DescriptorKernel<<<WarpBlocks(n), 32 * kWarpsPerBlock, 0, stream>>>(
      table, params, keypoints, order, n, out_keypoints, out_descriptors);
  PROJ_CUDA_CHECK(cudaGetLastError());
}

}  // namespace proj::cuda
