// Internal to cuda/klt/: device buffers and the kernel launchers the GPU KLT tracker
// composes. Every launcher enqueues on the given stream and checks the launch.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuda/cuda_check.cuh"
#include "cuda/klt/klt_affine.h"
#include "cuda/device_memory.cuh"

namespace proj::cuda::internal {

constexpr int kKltMaxLevels = 8;

// Sum over the warp, identical in every lane (lane 0's sum is broadcast so that all lanes
// take the same branches).
__device__ __forceinline__ float KltWarpSum(float value) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) value += __shfl_xor_sync(0xffffffffu, value, offset);
  return __shfl_sync(0xffffffffu, value, 0);
}

// Grow-only device array; contents are undefined after a resize.
template <typename T>
class KltDeviceArray {
 public:
  KltDeviceArray() = default;
  ~KltDeviceArray() { DeviceFree(data_, capacity_ * sizeof(T)); }  // unchecked: no throw here
  KltDeviceArray(const KltDeviceArray&) = delete;
  KltDeviceArray& operator=(const KltDeviceArray&) = delete;
  void Reserve(size_t count) {
    if (count <= capacity_) return;
    T* old = data_;
    const size_t old_bytes = capacity_ * sizeof(T);
    data_ = nullptr;
    capacity_ = 0;
    PROJ_CUDA_CHECK(DeviceFree(old, old_bytes));
    PROJ_CUDA_CHECK(DeviceMalloc(&data_, count * sizeof(T)));
    capacity_ = count;
  }
  T* data() const { return data_; }
  size_t capacity() const { return capacity_; }

 private:
  T* data_ = nullptr;
  size_t capacity_ = 0;
};

// One pyramid level in pitched device memory with a texture object over it (bilinear
// filtering, clamp-to-edge, unnormalised coordinates: pixel x covers [x, x + 1), its centre
// at x + 0.5 as in the project convention).
struct KltLevel {
  float* data = nullptr;
  size_t pitch_bytes = 0;
  int width = 0;
  int height = 0;
  cudaTextureObject_t texture = 0;
};

// Level = 5x5 binomial blur ([1 4 6 4 1] / 16 separable) of `src` sampled at even pixels,
// reflect-101 borders; dst is ((w + 1) / 2) x ((h + 1) / 2) (OpenCV pyrDown).
void LaunchPyramidDown(const KltLevel& src, const KltLevel& dst, cudaStream_t stream);

// Level 0 from an 8-bit frame (width x height bytes, contiguous): value / 255.0f, rounded as
// on the host, so the float pyramid equals the one built from the host-converted frame.
void LaunchEightBitToLevel(const uint8_t* src, const KltLevel& dst, cudaStream_t stream);

// Pyramidal Lucas-Kanade of `count` points, one warp per point.
struct KltTrackParams {
  cudaTextureObject_t from_texture[kKltMaxLevels] = {};
  cudaTextureObject_t to_texture[kKltMaxLevels] = {};
  int level_width[kKltMaxLevels] = {};
  int level_height[kKltMaxLevels] = {};
  int num_levels = 0;
  int window_size = 0;
  int max_iterations = 0;
  float epsilon_sq = 0;          // squared stop threshold, pixels^2
  float min_eigenvalue = 0;      // see KltOptions::min_eigenvalue
  float max_fb_sq = -1;          // squared forward-backward limit; < 0 disables the check
  float max_residual = -1;       // <= 0 disables the check
  int count = 0;
  const float2* points_in = nullptr;  // project convention
  float2* points_out = nullptr;       // project convention
  uint8_t* status = nullptr;          // KltStatus
  float* residual = nullptr;
  float* forward_backward = nullptr;  // pixels, -1 if not run
};
void LaunchLucasKanade(const KltTrackParams& params, cudaStream_t stream);

// Keeps the points whose status is kTracked, in order: out_points[k], out_ids[k] for the
// k-th kept one; *out_count = number kept. `flags` and `positions` are scratch of `count`
// ints; cub_temp is grown as needed.
void CompactTracked(const float2* points, const int* ids, const uint8_t* status, int count,
                    int* flags, int* positions, KltDeviceArray<unsigned char>* cub_temp,
                    float2* out_points, int* out_ids, int* out_count, cudaStream_t stream);

// Drift correction (cuda/klt/klt_affine.h): aligns each track's template to the current
// level 0 under an affine warp, starting from the Lucas-Kanade result, one warp per point.
// Points whose status is not kTracked are left alone; the others get the refined position,
// residual, warp and status, with the checks of RefineKltTrack (features/klt/klt_affine_refiner.h)
// in the same order.
struct KltAffineParams {
  cudaTextureObject_t texture = 0;  // level 0 of the frame tracked into
  int width = 0;
  int height = 0;
  int window_size = 0;
  int max_iterations = 0;
  float epsilon = 0;         // corner shift below which the iterations stop, pixels
  float max_scale = 0;
  float max_correction = 0;  // pixels
  float max_residual = -1;   // <= 0 disables the check
  int count = 0;
  const float* templates = nullptr;  // count x (window_size + 2)^2, with the gradient ring
  KltAffineWarp* warps = nullptr;    // count, in/out
  float2* points = nullptr;          // in: Lucas-Kanade results, out: refined (project convention)
  uint8_t* status = nullptr;         // in/out
  float* residual = nullptr;         // out where refined
};
void LaunchAffineRefine(const KltAffineParams& params, cudaStream_t stream);

// Templates of `count` new tracks beginning at `points` (project convention) in level 0
// (`texture`), and identity warps at those points.
void LaunchCaptureTemplates(cudaTextureObject_t texture, const float2* points, int count,
                            int window_size, float* templates, KltAffineWarp* warps,
                            cudaStream_t stream);

// The templates and warps of the tracks CompactTracked kept (its flags and positions), in
// the same order.
void ScatterKeptTemplates(const float* templates, const KltAffineWarp* warps, const int* flags,
                          const int* positions, int count, int window_size, float* out_templates,
                          KltAffineWarp* out_warps, cudaStream_t stream);

// Shi-Tomasi corner selection on a level-0 image.
struct KltSelectParams {
  const float* image = nullptr;  // pitched level 0
  size_t pitch_bytes = 0;
  int width = 0;
  int height = 0;
  int border = 0;              // corners only in [border, size - 1 - border] (integer pixels)
  int block_size = 3;
  float quality_level = 0.01f;
  float min_distance = 0;      // pixels
  const float2* existing = nullptr;  // points to keep away from (project convention)
  int num_existing = 0;
  int max_new = 0;
  // Outputs, any may be null: position (project convention), score, track id = first_id + k.
  float2* out_points = nullptr;
  float* out_scores = nullptr;
  int* out_ids = nullptr;
  int first_id = 0;
};

// Scratch of the selection, sized for one image size.
struct KltSelectBuffers {
  KltDeviceArray<float> eigen;              // width * height
  KltDeviceArray<uint8_t> mask;             // width * height, 1 = near an existing point
  KltDeviceArray<int> rank;                 // width * height, candidate rank or -1
  KltDeviceArray<unsigned long long> keys;  // candidates: score bits << 32 | ~pixel index
  KltDeviceArray<unsigned long long> sorted_keys;
  KltDeviceArray<uint8_t> state;            // per candidate: 0 undecided, 1 kept, 2 suppressed
  KltDeviceArray<int> flags;
  KltDeviceArray<int> positions;
  KltDeviceArray<unsigned int> counters;    // [0] max eigenvalue bits, [1] candidates,
                                            // [2] selected, [3..] undecided per NMS round
  KltDeviceArray<unsigned char> cub_temp;
};

// Runs the selection; returns the number of corners written (<= max_new). Synchronises the
// stream a few times (candidate count, NMS rounds, result count); `host_scratch` is pinned
// memory of at least 4 unsigned ints.
int SelectCorners(const KltSelectParams& params, KltSelectBuffers* buffers,
                  unsigned int* host_scratch, cudaStream_t stream);

}  // namespace proj::cuda::internal
