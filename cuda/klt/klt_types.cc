#include "cuda/klt/klt_types.h"

#include "core/check.h"

namespace proj {

void KltOptions::Check() const {
  PROJ_REQUIRE(max_features > 0, "KltOptions.max_features must be > 0 (got " << max_features << ")");
  PROJ_REQUIRE(quality_level > 0 && quality_level < 1,
               "KltOptions.quality_level must be in (0, 1) (got " << quality_level << ")");
  PROJ_REQUIRE(min_distance_px >= 0 && min_distance_px <= 100,
               "KltOptions.min_distance_px must be in [0, 100] (got " << min_distance_px << ")");
  PROJ_REQUIRE(corner_block_size >= 3 && corner_block_size <= 7 && corner_block_size % 2 == 1,
               "KltOptions.corner_block_size must be 3, 5 or 7 (got " << corner_block_size << ")");
  PROJ_REQUIRE(window_size >= 5 && window_size <= 31 && window_size % 2 == 1,
               "KltOptions.window_size must be odd in [5, 31] (got " << window_size << ")");
  PROJ_REQUIRE(num_levels >= 1 && num_levels <= 8,
               "KltOptions.num_levels must be in [1, 8] (got " << num_levels << ")");
  PROJ_REQUIRE(max_iterations >= 1 && max_iterations <= 1000,
               "KltOptions.max_iterations must be in [1, 1000] (got " << max_iterations << ")");
  PROJ_REQUIRE(epsilon_px > 0, "KltOptions.epsilon_px must be > 0 (got " << epsilon_px << ")");
  PROJ_REQUIRE(min_eigenvalue >= 0,
               "KltOptions.min_eigenvalue must be >= 0 (got " << min_eigenvalue << ")");
  PROJ_REQUIRE(reselect_interval_frames >= 1,
               "KltOptions.reselect_interval_frames must be >= 1 (got " << reselect_interval_frames << ")");
  PROJ_REQUIRE(reselect_min_fraction >= 0 && reselect_min_fraction <= 1,
               "KltOptions.reselect_min_fraction must be in [0, 1] (got " << reselect_min_fraction << ")");
  PROJ_REQUIRE(affine_max_iterations >= 1 && affine_max_iterations <= 1000,
               "KltOptions.affine_max_iterations must be in [1, 1000] (got " << affine_max_iterations << ")");
  PROJ_REQUIRE(affine_max_scale > 1, "KltOptions.affine_max_scale must be > 1 (got " << affine_max_scale << ")");
  PROJ_REQUIRE(affine_max_correction_px > 0,
               "KltOptions.affine_max_correction_px must be > 0 (got " << affine_max_correction_px << ")");
}

const char* KltStatusName(KltStatus status) {
  switch (status) {
    case KltStatus::kTracked: return "tracked";
    case KltStatus::kLost: return "lost";
    case KltStatus::kLowTexture: return "low-texture";
    case KltStatus::kOutOfImage: return "out-of-image";
    case KltStatus::kLargeResidual: return "large-residual";
    case KltStatus::kForwardBackward: return "forward-backward";
    case KltStatus::kTemplateMismatch: return "template-mismatch";
  }
  return "unknown";
}

}  // namespace proj
