// Builds without CUDA: the GPU path of PatchMatch is unavailable (callers use the CPU path).
#include "core/check.h"
#include "cuda/mvs/patch_match_gpu.h"

namespace proj::cuda {

void RunPatchMatchGpu(const PmViews&, const PmParams&, int, float*, float*, float*, PmGpuTimings*) {
  PROJ_REQUIRE(false, "PatchMatch on the GPU is unavailable: this program was built without CUDA");
}

}  // namespace proj::cuda
