#include "geometry/ransac/ransac_options.h"

#include <cmath>

#include "core/check.h"

namespace proj {

void RansacOptions::Check() const {
  PROJ_REQUIRE(std::isfinite(max_error) && max_error > 0.0,
               "RansacOptions.max_error must be a positive number, got " << max_error);
  PROJ_REQUIRE(confidence > 0.0 && confidence < 1.0,
               "RansacOptions.confidence must be in (0, 1), got " << confidence);
  PROJ_REQUIRE(min_iterations >= 0,
               "RansacOptions.min_iterations must be >= 0, got " << min_iterations);
  PROJ_REQUIRE(
      max_iterations >= 1 && max_iterations >= min_iterations,
      "RansacOptions.max_iterations must be >= max(1, min_iterations), got " << max_iterations);
  PROJ_REQUIRE(min_num_inliers >= 0,
               "RansacOptions.min_num_inliers must be >= 0, got " << min_num_inliers);
  PROJ_REQUIRE(min_inlier_ratio >= 0.0 && min_inlier_ratio <= 1.0,
               "RansacOptions.min_inlier_ratio must be in [0, 1], got " << min_inlier_ratio);
  PROJ_REQUIRE(
      local_optimization_steps >= 1,
      "RansacOptions.local_optimization_steps must be >= 1, got " << local_optimization_steps);
  PROJ_REQUIRE(local_optimization_threshold_factor >= 1.0,
               "RansacOptions.local_optimization_threshold_factor must be >= 1, got "
                   << local_optimization_threshold_factor);
  PROJ_REQUIRE(sprt_initial_delta > 0.0 && sprt_initial_delta <= 0.5,
               "RansacOptions.sprt_initial_delta must be in (0, 0.5], got " << sprt_initial_delta);
}

}  // namespace proj
