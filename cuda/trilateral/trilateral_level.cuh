// Trilateral level smoother for the CUDA SIFT scale space (hook documented in
// cuda/sift/scale_space_gpu.cuh): level s of an octave is the trilateral filter of the
// octave's base image (args.base, level -1) at sigma_c = scale * args.target_sigma (octave
// pixels; scale = sigma_c_scale when > 0, else 1), written to args.out. Default method of
// TrilateralGpuOptions (the published one, conformant with the CPU reference). Everything is
// enqueued on args.stream, with stream-ordered temporary allocations (cudaMallocAsync); no
// host synchronisation. args.previous and args.scratch are not used.
#pragma once

#include "cuda/sift/scale_space_gpu.cuh"

namespace proj::cuda {

void TrilateralSmoothLevel(const LevelSmoothArgs& args, float sigma_c_scale);

}  // namespace proj::cuda
