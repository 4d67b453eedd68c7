// Kernels of the trilateral filter (../shared/docs/trilateral-filter.md), launched by
// trilateral_gpu.cu. Every launcher enqueues on `stream` and checks the launch.
// Arithmetic that the CPU reference must reproduce bit for bit (gradients, sigma_r, the level
// test) uses explicitly rounded intrinsics (__fadd_rn, __fmul_rn, __fsqrt_rn), never FMA.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace proj::cuda::trilateral {

// Pixels with a level >= kWarpLevel (window 17x17 and up) get a warp each in the optimised
// detail kernel; smaller windows get a thread each.
constexpr int kWarpLevel = 4;
constexpr int kMaxLevels = 32;

// Global range statistics of g and the derived sigma_r (= R = sigma_r_theta), on the device.
struct RangeParams {
  unsigned int min_bits;  // float bits of min g (g >= 0, so unsigned order = float order)
  unsigned int max_bits;
  float sigma_r;
};

// §3.1 forward differences and magnitude.
void LaunchGradients(const float* image, int width, int height, float* gx, float* gy, float* g,
                     cudaStream_t stream);
// min/max of g and sigma_r = float(beta) * (max - min), or the override when > 0.
void LaunchRangeSigma(const float* g, int count, float beta, float sigma_r_override,
                      RangeParams* range, cudaStream_t stream);
// §3.3; domain_coeff = 1 / (2 sigma_c^2).
void LaunchGradientFilter(const float* gx, const float* gy, const float* g, int width,
                          int height, int half_window, float domain_coeff,
                          const RangeParams* range, bool constant_guard, float* smoothed_gx,
                          float* smoothed_gy, cudaStream_t stream);
// §3.2 one level of the stack from the previous one (3x3 clipped min and max).
void LaunchStackLevel(const float* prev_min, const float* prev_max, int width, int height,
                      float* next_min, float* next_max, cudaStream_t stream);
// §3.4 from the stack planes: stack_min + k * count is level k (level 0 = g).
void LaunchRegionFromStack(const float* stack_min, const float* stack_max, const float* g,
                           int width, int height, int level_max, const RangeParams* range,
                           bool constant_guard, uint8_t* level, cudaStream_t stream);
// §3.4 without planes: squares grown ring by ring from a shared-memory tile of g.
void LaunchRegionRing(const float* g, int width, int height, int level_max,
                      const RangeParams* range, bool constant_guard, uint8_t* level,
                      cudaStream_t stream);
// Histogram of the level map into counts[kMaxLevels] (zeroed here), and sort keys:
// key = level (ascending) or level_max - 1 - level (descending), value = pixel index.
void LaunchLevelKeys(const uint8_t* level, int count, int level_max, bool descending,
                     unsigned int* counts, uint8_t* keys, int* pixels, cudaStream_t stream);

// Arguments of the detail bilateral filter (§3.5).
struct DetailArgs {
  const float* image = nullptr;
  const float* smoothed_gx = nullptr;
  const float* smoothed_gy = nullptr;
  const uint8_t* level = nullptr;
  const int* order = nullptr;            // pixel indices sorted by level
  const unsigned int* counts = nullptr;  // level histogram (optimised kernel)
  const RangeParams* range = nullptr;
  // The disk-limited kernels compute their disk (DiskCut) on the device from domain_coeff and
  // fast_math; the host plan's values travel only to be echoed back (diagnostics).
  long long host_disk_cut = 0;
  int host_disk_rows = 0;
  int width = 0;
  int height = 0;
  int trunc_radius = 0;                  // > 0 caps the half-window
  float domain_coeff = 0;                // 1 / (2 sigma_c^2)
  float cut_sigmas = 0;                  // disk kernels: radius limit in sigma_c (0 = none)
  bool constant_guard = true;
  bool fast_math = false;
  float* output = nullptr;
  // Optional (nullptr = off): the disk kernels' first thread writes {host_disk_cut,
  // host_disk_rows, device disk cut, device disk rows} as received/computed on the device.
  long long* echo = nullptr;
};
// DiskCut (trilateral_detail.cuh) capped at 2 radius^2, which no window exceeds.
long long DiskCutSquared(float domain_coeff, bool fast_math, float cut_sigmas, int radius);
// Rows |n| <= DiskRows(disk_cut, radius) hold taps of non-zero weight.
int DiskRows(long long disk_cut, int radius);
// The published method: thread i filters pixel order[i] over its full window.
void LaunchDetailPublished(const DetailArgs& args, cudaStream_t stream);
// The optimised method: persistent grid of `blocks` blocks of 256 threads.
void LaunchDetailOptimized(const DetailArgs& args, int blocks, cudaStream_t stream);
// One thread per pixel (plain grid over `order`), disk-limited taps, one exp2 per tap.
void LaunchDetailDiskThread(const DetailArgs& args, cudaStream_t stream);
// Blocks of the optimised detail kernel resident per multiprocessor.
int DetailOptimizedBlocksPerSm();

}  // namespace proj::cuda::trilateral
