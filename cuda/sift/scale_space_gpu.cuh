// Scale-space kernels of the CUDA SIFT (device-side twin of features/sift/scale_space.h:
// same octave geometry, same taps, same summation order; this file is compiled with
// -fmad=false so the pyramid matches the CPU reference bit for bit).
//
// Hook for other smoothing operators (trilateral scale space, issue 4). Each level
// s = 0 .. S + 1 of an octave is produced by one call of a level smoother given a
// LevelSmoothArgs (all sigmas in octave pixels, all pointers device memory, all work on
// args.stream). For SiftGpuScaleSpace::kGaussian the SIFT driver uses a fused Gaussian
// path (incremental blur of the previous level, DoG written by the same kernel). For
// kTrilateral it calls
//     void TrilateralSmoothLevel(const LevelSmoothArgs& args, float sigma_c);
// which filters args.base (level -1 of the octave) at args.target_sigma into args.out,
// and then computes the DoG with LaunchDifference. To plug it in: declare that function
// in cuda/trilateral/trilateral_level.cuh, define it in a .cu of cuda/trilateral/, and in
// cuda/trilateral/sources.cmake add `target_compile_definitions(proj_cuda PRIVATE
// PROJ_HAVE_CUDA_TRILATERAL=1)`. Until then SiftGpu throws InputError("trilateral scale
// space not available").
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace proj::cuda {

constexpr int kMaxBlurRadius = 16;

// Normalised taps of a Gaussian of `sigma`, radius ceil(4 sigma) (>= 1), computed exactly
// as proj::GaussianTaps (double precision, then rounded to float).
struct BlurTaps {
  int radius = 0;
  float weights[2 * kMaxBlurRadius + 1] = {};
};
BlurTaps MakeBlurTaps(float sigma);

struct LevelSmoothArgs {
  const float* base = nullptr;      // level -1 of the octave
  float base_sigma = 0;
  const float* previous = nullptr;  // level s - 1
  float previous_sigma = 0;
  float target_sigma = 0;
  float* out = nullptr;             // level s, width x height
  float* scratch = nullptr;         // width x height floats the smoother may use
  int width = 0;
  int height = 0;
  cudaStream_t stream = nullptr;
};

// Input image (floats in [0, 1], or bytes scaled by 1/255) to the first octave's input,
// 2x bilinear upsampled when `upsample` (output 2w x 2h).
void LaunchPrepareInput(const void* input, bool input_is_bytes, int width, int height,
                        bool upsample, float* out, cudaStream_t stream);
// Every second sample: out is (width / 2) x (height / 2).
void LaunchDecimate(const float* in, int width, int height, float* out, cudaStream_t stream);
// Separable Gaussian blur of `in` into `out` (one fused kernel: both passes through shared
// memory; `scratch` is no longer used and may be null); when `dog` is set it also writes
// dog = out - previous (previous = the level below, usually `in`, which is read from the
// shared tile then).
void LaunchGaussianBlur(const float* in, int width, int height, const BlurTaps& taps,
                        float* scratch, float* out, const float* previous, float* dog,
                        cudaStream_t stream);
// out = a - b over count elements.
void LaunchDifference(const float* a, const float* b, int count, float* out, cudaStream_t stream);

}  // namespace proj::cuda
