// PatchMatch stereo for one reference image: a depth and a normal per pixel, chosen to
// maximise the bilateral-weighted ZNCC of the pixel's window between the reference image and
// its source images through the plane's homography.
//
// Algorithm (ACMH's, Xu & Tao 2019, with COLMAP's bilateral NCC):
//  - every pixel starts from a random plane (depth uniform in inverse depth over the range,
//    normal facing the camera), or from the sparse point seen there;
//  - a hypothesis' cost at a pixel: per source view, 1 - ZNCC over the window (weights
//    exp(-d^2 / 2 sigma_s^2 - dI^2 / 2 sigma_c^2)), 2 when the window leaves the view; then the
//    mean of the top_k_views smallest;
//  - red-black checkerboard sweeps: each pixel of one colour takes, from each of 8 regions of
//    pixels of the other colour (4 near, 4 far along the axes), the hypothesis of the region's
//    lowest-cost pixel, and keeps the best; then tries random and perturbed variants of its
//    depth and normal with perturbations that halve every sweep.
// The CPU path (mvs/patch_match_cpu.cc) and the CUDA path (cuda/mvs/) evaluate the same
// per-pixel functions (cuda/mvs/patch_match_core.h) with the same counter-based random
// numbers, so they compute the same maps up to floating-point rounding.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "core/compute_device.h"
#include "io/float_raster_file.h"
#include "mvs/dense_view.h"
#include "mvs/depth_map.h"
#include "mvs/normal_map.h"
#include "mvs/patch_match_options.h"

namespace proj::mvs {

// A sparse point seen by the reference image: where, and at which depth (seeds the sweep).
struct DepthSeed {
  int x = 0, y = 0;  // pixel
  float depth = 0;
};

struct PatchMatchProblem {
  const DenseView* reference = nullptr;
  std::vector<const DenseView*> sources;  // 1..kMaxPatchMatchSources, each of its own size
  float depth_min = 0, depth_max = 0;     // camera-frame z range searched, 0 < min < max
  std::vector<DepthSeed> seeds;
  uint32_t image_seed = 0;                // mixed into the random numbers (e.g. the image id)
  void Check() const;                     // PROJ_CHECK: a caller's bug when violated
};

struct PatchMatchResult {
  DepthMap depth;
  NormalMap normals;
  FloatRaster cost{0, 0, 1};  // aggregated cost in [0, 2] of each pixel's final hypothesis
  float gpu_sweep_ms = 0;     // on the GPU: device time of the sweeps (CUDA events); else 0
};

// kGpu runs on the current CUDA device (cuda/device.h); throws GpuError when there is none
// or CUDA fails (callers fall back to kCpu). kCpu uses `num_threads` threads (0 = all).
PatchMatchResult RunPatchMatch(const PatchMatchProblem& problem, const PatchMatchOptions& options,
                               ComputeDevice device, int num_threads = 0);

}  // namespace proj::mvs
