// PatchMatch stereo on the current CUDA device (mvs/patch_match.h describes the algorithm; the
// per-pixel arithmetic is cuda/mvs/patch_match_core.h, shared with the CPU path). Host-only
// header: plain host buffers in and out.
#pragma once

#include "cuda/mvs/patch_match_core.h"

namespace proj::cuda {

// `views` holds host pointers (reference and source images); they are uploaded, swept
// `num_iterations` times and the maps copied back into `depth` (width * height; on entry,
// > 0 at seeded pixels, 0 elsewhere), `normal` (3 planes) and `cost` (width * height) of the
// reference camera's size. Throws GpuError when no device is usable or CUDA fails.
// `timings`, when given, receives the device time of the sweeps (CUDA events).
struct PmGpuTimings {
  float upload_ms = 0;  // images and seeds to the device
  float sweep_ms = 0;   // initialisation and every sweep
};
void RunPatchMatchGpu(const PmViews& views, const PmParams& params, int num_iterations, float* depth, float* normal,
                      float* cost, PmGpuTimings* timings = nullptr);

}  // namespace proj::cuda
