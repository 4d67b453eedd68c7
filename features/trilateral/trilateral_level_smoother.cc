#include "features/trilateral/trilateral_level_smoother.h"

#include "core/check.h"
#include "cuda/trilateral/trilateral_gpu.h"
#include "features/trilateral/trilateral_filter.h"

namespace proj {

double TrilateralLevelSigmaC(double sigma_c_scale, double target_sigma) {
  return (sigma_c_scale > 0 ? sigma_c_scale : 1.0) * target_sigma;
}

LevelSmoother CreateTrilateralLevelSmoother(const FeatureOptions& options) {
  const double scale = options.trilateral_sigma_c;
  PROJ_REQUIRE(scale >= 0, "trilateral scale space: sigma_c scale must be >= 0 (got " << scale << ")");
  return [scale](const LevelSmoothRequest& request, Plane* out) {
    PROJ_CHECK(request.base != nullptr && out != nullptr, "trilateral level smoother: no base image");
    TrilateralOptions trilateral;
    trilateral.sigma_c = TrilateralLevelSigmaC(scale, request.target_sigma);
    trilateral.num_threads = request.num_threads;
    // As the GPU level smoother (default GPU options), so both devices give the same levels.
    trilateral.domain_cut_sigmas = cuda::TrilateralGpuOptions().domain_cut_sigmas;
    const Plane& base = *request.base;
    out->width = base.width;
    out->height = base.height;
    out->pixels = TrilateralFilter(base.pixels.data(), base.width, base.height, trilateral);
  };
}

}  // namespace proj
