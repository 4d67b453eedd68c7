// The CPU path of PatchMatch stereo: the same per-pixel functions as the CUDA kernels
// (cuda/mvs/patch_match_core.h), pixels of one colour spread over threads. Used by
// mvs/patch_match.cc; `state` is in host memory, seeded pixels have depth > 0, others 0.
#pragma once

#include "cuda/mvs/patch_match_core.h"

namespace proj::mvs {

void RunPatchMatchCpu(const cuda::PmViews& views, const cuda::PmParams& params, int num_iterations,
                      const cuda::PmState& state, int num_threads);

}  // namespace proj::mvs
