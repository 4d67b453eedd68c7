// Orientation assignment and descriptors, one warp per keypoint. Every lane accumulates its
// own copy of the histogram in shared memory (layout [bin][lane]: no bank conflicts, no
// atomics); the copies are then summed in a fixed order (so the summation order differs
// from the CPU's, by rounding only).
#include <cmath>

#include "cuda/cuda_check.cuh"
#include "cuda/sift/sift_kernels.cuh"

namespace proj::cuda {
namespace {

constexpr int kWarpsPerBlock = 4;      // orientation kernel
constexpr int kDescriptorWarps = 2;    // descriptor kernel (16 KiB of histograms per warp)
constexpr int kOrientationBins = 36;
constexpr float kTwoPi = 6.283185307179586f;

// As the CPU's Mod2Pi (fmod, then wrap negatives). fmodf returns its argument unchanged for
// |angle| < 2 pi, which is every call here, so the slow fmodf only runs outside that range.
__device__ float Mod2Pi(float angle) {
  if (!(fabsf(angle) < kTwoPi)) angle = fmodf(angle, kTwoPi);
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

// Runs body(idx) for every idx < total with inside(idx). The warp packs accepted indices into
// full batches of 32 through `queue` (64 ints per warp), so lanes do not idle on samples
// outside the window (about half of the descriptor's bounding square). Warp-uniform total.
template <typename Inside, typename Body>
__device__ void ForEachInside(int total, int lane, int* queue, Inside inside, Body body) {
  int queued = 0;
  for (int base = 0; base < total; base += 32) {
    const int idx = base + lane;
    const bool accept = idx < total && inside(idx);
    const unsigned mask = __ballot_sync(0xffffffffu, accept);
    if (accept) queue[queued + __popc(mask & ((1u << lane) - 1u))] = idx;
    queued += __popc(mask);
    __syncwarp();
    if (queued >= 32) {
      body(queue[lane]);
      __syncwarp();
      if (lane < queued - 32) queue[lane] = queue[lane + 32];
      queued -= 32;
      __syncwarp();
    }
  }
  if (lane < queued) body(queue[lane]);
  __syncwarp();
}

__global__ void OrientationKernel(OctaveTable table, SiftKernelParams p,
                                  const GpuDetection* detections, const int* order, int n,
                                  GpuOrientedKeypoint* keypoints, float* keys, int* values,
                                  int* count, int capacity) {
  __shared__ float lanes_all[kWarpsPerBlock][kOrientationBins * 32];
  __shared__ float hist_all[kWarpsPerBlock][kOrientationBins];
  __shared__ int queue_all[kWarpsPerBlock][64];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int item = blockIdx.x * kWarpsPerBlock + warp;
  if (item >= n) return;
  float* lanes = lanes_all[warp];  // [bin][lane]
  float* hist = hist_all[warp];
  for (int i = 0; i < kOrientationBins; ++i) lanes[i * 32 + lane] = 0;
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
  const float radius_limit = radius * radius + 0.6f;
  auto inside = [&](int idx) {
    const float dx = x0 + idx % span - d.x, dy = y0 + idx / span - d.y;
    return dx * dx + dy * dy < radius_limit;
  };
  auto body = [&](int idx) {
    const int px = x0 + idx % span, py = y0 + idx / span;
    const float dx = px - d.x, dy = py - d.y;
    const float r2 = dx * dx + dy * dy;
    float magnitude, angle;
    Gradient(plane, w, px, py, &magnitude, &angle);
    const float weight = expf(-r2 / (2 * window_sigma * window_sigma)) * magnitude;
    const float fbin = kOrientationBins * angle / kTwoPi;
    const int bin = static_cast<int>(floorf(fbin - 0.5f));
    const float frac = fbin - bin - 0.5f;
    lanes[((bin + kOrientationBins) % kOrientationBins) * 32 + lane] += (1 - frac) * weight;
    lanes[((bin + 1) % kOrientationBins) * 32 + lane] += frac * weight;
  };
  ForEachInside(total, lane, queue_all[warp], inside, body);
  __syncwarp();
  // Sum the lane copies (bins `lane` and `lane + 32`; rotated start: no bank conflicts).
  float own[2] = {0, 0};
  for (int b = 0; b < 2; ++b) {
    const int bin = lane + 32 * b;
    if (bin >= kOrientationBins) break;
    float sum = 0;
    for (int j = 0; j < 32; ++j) sum += lanes[bin * 32 + ((j + lane) & 31)];
    own[b] = sum;
  }
  const bool has_second = lane + 32 < kOrientationBins;
  // Six circular [1 1 1] / 3 smoothings; the CPU's in-place loop reads the old values of
  // both neighbours, so each pass is (old[i-1] + old[i]) + old[i+1], computed per bin.
  for (int iteration = 0; iteration < 6; ++iteration) {
    hist[lane] = own[0];
    if (has_second) hist[lane + 32] = own[1];
    __syncwarp();
    for (int b = 0; b < 2; ++b) {
      const int i = lane + 32 * b;
      if (i >= kOrientationBins) break;
      const float previous = hist[(i + kOrientationBins - 1) % kOrientationBins];
      const float next = hist[(i + 1) % kOrientationBins];
      own[b] = (previous + own[b] + next) / 3.0f;
    }
    __syncwarp();
  }
  hist[lane] = own[0];
  if (has_second) hist[lane + 32] = own[1];
  __syncwarp();
  if (lane != 0) return;
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
  constexpr int kCells = 4, kBins = 8, kHist = kCells * kCells * kBins;
  __shared__ float lanes_all[kDescriptorWarps][kHist * 32];
  __shared__ int queue_all[kDescriptorWarps][64];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int item = blockIdx.x * kDescriptorWarps + warp;
  if (item >= n) return;
  float* lanes = lanes_all[warp];  // [bin][lane]
  for (int i = 0; i < kHist; ++i) lanes[i * 32 + lane] = 0;
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
  constexpr float kHalfWidth = kCells / 2.0f + 0.5f;
  // Offset in cell units, in the keypoint's rotated frame.
  auto rotate = [&](int idx, float* nx, float* ny) {
    const float dx = x0 + idx % span - k.x, dy = y0 + idx / span - k.y;
    *nx = (c * dx + s * dy) * inv_cell;
    *ny = (-s * dx + c * dy) * inv_cell;
  };
  auto inside = [&](int idx) {
    float nx, ny;
    rotate(idx, &nx, &ny);
    return fabsf(nx) < kHalfWidth && fabsf(ny) < kHalfWidth;
  };
  auto body = [&](int idx) {
    const int px = x0 + idx % span, py = y0 + idx / span;
    float nx, ny;
    rotate(idx, &nx, &ny);
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
        float* cell_hist = lanes + (cy * kCells + cx) * kBins * 32 + lane;
        cell_hist[(bt % kBins) * 32] += wxy * (1 - rt);
        cell_hist[((bt + 1) % kBins) * 32] += wxy * rt;
      }
    }
  };
  ForEachInside(total, lane, queue_all[warp], inside, body);
  __syncwarp();
  // Sum the lane copies of bins 4 lane .. 4 lane + 3 (rotated start: no bank conflicts), then
  // normalise, clamp at 0.2, renormalise, quantise.
  float v[4] = {0, 0, 0, 0};
  for (int j = 0; j < 32; ++j) {
    const int column = (j + lane) & 31;
#pragma unroll
    for (int i = 0; i < 4; ++i) v[i] += lanes[(lane * 4 + i) * 32 + column];
  }
  float sum = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i) sum += v[i] * v[i];
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

unsigned WarpBlocks(int n, int warps) { return static_cast<unsigned>((n + warps - 1) / warps); }

}  // namespace

void LaunchOrientations(const OctaveTable& table, const SiftKernelParams& params,
                        const GpuDetection* detections, const int* order, int n,
                        GpuOrientedKeypoint* keypoints, float* keys, int* values, int* count,
                        int capacity, cudaStream_t stream) {
  if (n <= 0) return;
  OrientationKernel<<<WarpBlocks(n, kWarpsPerBlock), 32 * kWarpsPerBlock, 0, stream>>>(
      table, params, detections, order, n, keypoints, keys, values, count, capacity);
  PROJ_CUDA_CHECK(cudaGetLastError());
}

void LaunchDescriptors(const OctaveTable& table, const SiftKernelParams& params,
                       const GpuOrientedKeypoint* keypoints, const int* order, int n,
                       SiftGpuKeypoint* out_keypoints, uint8_t* out_descriptors,
                       cudaStream_t stream) {
  if (n <= 0) return;
  DescriptorKernel<<<WarpBlocks(n, kDescriptorWarps), 32 * kDescriptorWarps, 0, stream>>>(
      table, params, keypoints, order, n, out_keypoints, out_descriptors);
  PROJ_CUDA_CHECK(cudaGetLastError());
}

}  // namespace proj::cuda
