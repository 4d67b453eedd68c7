// Trilateral filter on the GPU: all five steps of ../shared/docs/trilateral-filter.md
// (Choudhury & Tumblin, EGSR 2003) in CUDA, behind a host-only API (no CUDA includes).
//
// Conformance with the float CPU reference (features/trilateral/trilateral_filter.h):
// gx, gy, g, sigma_r and the level map L are bit-identical; the output is within
// 1e-5 * (max I - min I) (spec §6). Two methods:
//  - kOptimized (default): the level map grown ring by ring from a shared-memory tile (no
//    stack planes); detail taps restricted to a disk of radius 7 sigma_c (domain_cut_sigmas;
//    with 0, to the disk of radius ~14.4 sigma_c outside which every float weight is exactly
//    0); one exp2 per tap; pixels sorted by level. The default schedule gives each pixel a
//    thread; kWarpAndThread gives large windows a warp each. Its
//    per-pixel logic (cuda/trilateral/trilateral_detail.cuh) is also run on the host by
//    tests/cuda/trilateral_detail_emulation_test.cu.
//  - kPublished (reference): the method of the 2024 thesis, extended to every step: one
//    thread per pixel, pixels stably sorted by window size, the full (2r+1)^2 detail window
//    with two expf per tap, the min-max stack as 2*levelMax planes, the two middle steps on
//    two streams.
// `fast_math` (kOptimized only) uses the flush-to-zero ex2 approximation for the weights and
// the corresponding smaller disk (~13.2 sigma_c).
//
// Thread safety: one instance owns one CUDA stream pair and its device buffers (reused
// across calls, grown on demand); use one instance per host thread.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace proj::cuda {

enum class TrilateralGpuMethod { kPublished, kOptimized };
// Detail-step schedule of kOptimized (all give the same result up to float rounding):
// kThreadPerPixel (default): a plain grid, one thread per pixel, disk-limited taps (fastest on
// the H200 except for small mostly-textured images, see bench/RESULTS-trilateral.md);
// kWarpAndThread: persistent grid, a warp per pixel for windows of 17x17 and up, a thread
// per pixel below;
// kFullWindow: the published detail kernel inside the optimised pipeline (diagnostic).
enum class TrilateralDetailSchedule { kWarpAndThread, kThreadPerPixel, kFullWindow };

struct TrilateralGpuOptions {
  double sigma_c = 3.0;          // spatial sigma of both bilateral stages, pixels (> 0)
  double beta = 0.15;            // sigma_r = beta * (max g - min g); in (0, 1]
  double sigma_r_override = 0;   // > 0 replaces sigma_r, R and sigma_r_theta; 0 = off
  int level_max_override = 0;    // > 0 replaces levelMax; 0 = floor(log2 min(W,H)) + 1
  int trunc_radius = 0;          // > 0 caps the detail half-window (inexact); 0 = off
  bool constant_guard = true;    // sigma_r == 0: output = input (else NaN, as the reference)
  TrilateralGpuMethod method = TrilateralGpuMethod::kOptimized;
  bool fast_math = false;        // approximate ex2 in the detail stage (kOptimized only)
  // kOptimized: detail taps further than this many sigma_c from the pixel are skipped. Their
  // domain weights sum to at most 2 pi sigma_c^2 e^(-k^2/2) (3.6e-9 for k = 7, sigma_c = 5)
  // against the centre tap's 1, far below the 1e-4 conformance bound (measured errors in
  // bench/RESULTS-trilateral.md); 7 visits ~4x fewer taps than the float-exact disk. 0 = off
  // (only taps whose float weight is exactly 0 are skipped: the full window's sums).
  double domain_cut_sigmas = 7;
  TrilateralDetailSchedule detail_schedule = TrilateralDetailSchedule::kThreadPerPixel;
  void Check() const;            // throws InputError naming the bad field
};

// Device time of each step of the last call, from CUDA events (milliseconds). The gradient
// filter runs on a second stream, overlapped with stack + region, so total_ms (upload end to
// download start) is less than the sum of the steps.
struct TrilateralGpuStepTimes {
  float gradients_ms = 0;        // §3.1
  float range_sigma_ms = 0;      // max/min reduction of g, sigma_r
  float stack_ms = 0;            // §3.2 (kPublished; fused into region_ms in kOptimized)
  float gradient_filter_ms = 0;  // §3.3
  float region_ms = 0;           // §3.4
  float sort_ms = 0;             // stable sort of pixels by level
  float detail_ms = 0;           // §3.5
  float total_ms = 0;            // all steps, on the device
  float upload_ms = 0;           // host to device (Filter only)
  float download_ms = 0;         // device to host (Filter only)
};

// Intermediates of the last call (downloaded on request), for conformance tests.
struct TrilateralGpuDiagnostics {
  int level_max = 0;
  float sigma_r = 0;
  std::vector<float> gx, gy, g, smoothed_gx, smoothed_gy;
  std::vector<uint8_t> level;
  std::vector<int> order;                 // pixel indices in detail-step order (sorted by level)
  std::vector<unsigned int> level_counts;  // histogram of level (32 bins)
  // Disk of the optimised detail kernels: the host plan's values, and what the kernel's first
  // thread received and computed ({received cut, received rows, device cut, device rows});
  // -1 each when no disk-limited kernel ran.
  long long plan_disk_cut = 0;
  int plan_disk_rows = 0;
  std::vector<long long> detail_disk_echo;
};

class TrilateralFilterGpu {
 public:
  // Throws InputError when built without CUDA or when `device` is not usable.
  explicit TrilateralFilterGpu(int device = 0);
  ~TrilateralFilterGpu();
  TrilateralFilterGpu(const TrilateralFilterGpu&) = delete;
  TrilateralFilterGpu& operator=(const TrilateralFilterGpu&) = delete;

  // Filters a host image (row-major, width * height floats) into `output` (same size, host).
  // Blocks until the result is on the host.
  void Filter(const float* image, int width, int height, const TrilateralGpuOptions& options,
              float* output);

  // Device-resident variant: `device_image` and `device_output` are device pointers on this
  // instance's device (they may not alias). Work is ordered on Stream(); the call returns once
  // the work is enqueued (no host synchronisation).
  void FilterDevice(const float* device_image, int width, int height,
                    const TrilateralGpuOptions& options, float* device_output);

  // The instance's main stream, as a cudaStream_t cast to void* (for callers that chain work).
  void* Stream() const;
  // Waits for the last call and returns its step times.
  TrilateralGpuStepTimes LastStepTimes() const;
  // Waits for the last call and downloads its intermediates.
  TrilateralGpuDiagnostics LastDiagnostics() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace proj::cuda
