// Detection, orientation and descriptor kernels of the CUDA SIFT; device twins of
// features/sift/sift_detector.cc and sift_descriptor.cc (same formulas, same order of
// operations; see those files for the algorithm and references).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/sift/sift_gpu.h"

namespace proj::cuda {

constexpr int kMaxOctaves = 16;
constexpr int kMaxLevels = 8;  // S + 3 Gaussian levels, so S <= 5

// Device pointers and sizes of every octave of the current image (passed by value).
struct OctaveTable {
  int count = 0;
  int index[kMaxOctaves] = {};   // o: sample spacing 2^o input pixels
  int width[kMaxOctaves] = {};
  int height[kMaxOctaves] = {};
  const float* gaussians[kMaxOctaves][kMaxLevels] = {};  // [s + 1], s = -1 .. S + 1
  const float* dogs[kMaxOctaves][kMaxLevels] = {};       // [s + 1], s = -1 .. S
};

struct SiftKernelParams {
  int levels_per_octave = 3;
  float sigma0 = 1.6f;
  float peak_threshold = 0;
  float prefilter_threshold = 0;
  bool edge_test = true;
  float edge_ratio = 10;
  int max_refinement_steps = 5;
  float orientation_window_factor = 1.5f;
  float orientation_peak_ratio = 0.8f;
  int max_orientations = 4;
  float descriptor_magnification = 3;
};

// A refined detection in octave coordinates (as proj::SiftDetection).
struct GpuDetection {
  int octave_slot;
  float x;
  float y;
  float level;
  float sigma;
  float response;
};

// An oriented keypoint before its descriptor, still in octave coordinates.
struct GpuOrientedKeypoint {
  int octave_slot;
  float x;
  float y;
  float level;
  float sigma;
  float response;
  float angle;
};

// Extrema of DoG levels 0 .. S - 1 of octave `slot`, refined; accepted detections are
// appended at atomicAdd(count) (dropped beyond capacity, count still counts them) with
// keys[k] = response and values[k] = k for the sort.
void LaunchDetect(const OctaveTable& table, int slot, const SiftKernelParams& params,
                  GpuDetection* detections, float* keys, int* values, int* count, int capacity,
                  cudaStream_t stream);

// Orientations of detections[order[i]], i < n, one warp each; appends keypoints like
// LaunchDetect.
void LaunchOrientations(const OctaveTable& table, const SiftKernelParams& params,
                        const GpuDetection* detections, const int* order, int n,
                        GpuOrientedKeypoint* keypoints, float* keys, int* values, int* count,
                        int capacity, cudaStream_t stream);

// Orders each run of equal sorted_keys[0..n) (descending, from the stable radix sort) by the
// contents of the records order[] points to, so ties no longer keep the atomicAdd order of
// LaunchDetect and LaunchOrientations (sift_order.cu).
void LaunchOrderTies(const float* sorted_keys, int* order, const GpuDetection* detections, int n,
                     cudaStream_t stream);
void LaunchOrderTies(const float* sorted_keys, int* order, const GpuOrientedKeypoint* keypoints, int n,
                     cudaStream_t stream);

// Descriptors of keypoints[order[i]], i < n, one warp each; writes the final keypoint (in
// input image pixels) and 128 bytes per keypoint at position i.
void LaunchDescriptors(const OctaveTable& table, const SiftKernelParams& params,
                       const GpuOrientedKeypoint* keypoints, const int* order, int n,
                       SiftGpuKeypoint* out_keypoints, uint8_t* out_descriptors,
                       cudaStream_t stream);

}  // namespace proj::cuda
