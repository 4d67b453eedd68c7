// Robust similarity transform between corresponding 3D point sets (e.g. reconstructed camera
// centres -> ground-truth centres): RANSAC + MSAC + LO over Umeyama's closed form
// (geometry/solvers/similarity.h) on 3-point samples, refit on all inliers.
// options.max_error is a distance in the units of `dst`. Sizes must match (InputError
// otherwise). Thread-safe.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "geometry/ransac/ransac_options.h"
#include "geometry/sim3.h"

namespace proj {

// report.model is dst_from_src: dst ~ model * src. With estimate_scale == false the scale is
// fixed to 1 (rigid alignment).
RansacReport<Sim3d> EstimateSimilarityTransform(const RansacOptions& options,
                                                const std::vector<Eigen::Vector3d>& src,
                                                const std::vector<Eigen::Vector3d>& dst,
                                                bool estimate_scale = true);

}  // namespace proj
