// Validation of the GPU trilateral options (compiled with and without CUDA).
#include <cmath>

#include "core/check.h"
#include "cuda/trilateral/trilateral_gpu.h"

namespace proj::cuda {

void TrilateralGpuOptions::Check() const {
  PROJ_REQUIRE(std::isfinite(sigma_c) && sigma_c > 0,
               "TrilateralGpuOptions.sigma_c must be a positive number of pixels (got "
                   << sigma_c << ")");
  PROJ_REQUIRE(std::isfinite(beta) && beta > 0 && beta <= 1,
               "TrilateralGpuOptions.beta must be in (0, 1] (got " << beta << ")");
  PROJ_REQUIRE(std::isfinite(sigma_r_override) && sigma_r_override >= 0,
               "TrilateralGpuOptions.sigma_r_override must be >= 0");
  PROJ_REQUIRE(level_max_override >= 0 && level_max_override <= 24,
               "TrilateralGpuOptions.level_max_override must be in [0, 24]");
  PROJ_REQUIRE(trunc_radius >= 0, "TrilateralGpuOptions.trunc_radius must be >= 0");
  PROJ_REQUIRE(std::isfinite(domain_cut_sigmas) && (domain_cut_sigmas == 0 || domain_cut_sigmas >= 5),
               "TrilateralGpuOptions.domain_cut_sigmas must be 0 (off) or >= 5 (got "
                   << domain_cut_sigmas << ")");
  PROJ_REQUIRE(!fast_math || method == TrilateralGpuMethod::kOptimized,
               "TrilateralGpuOptions.fast_math is only available with the optimised method");
}

}  // namespace proj::cuda
