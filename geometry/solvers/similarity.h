// Least-squares similarity (or rigid) transform between corresponding 3D point sets.
// S. Umeyama, "Least-squares estimation of transformation parameters between two point
// patterns", PAMI 13(4), 1991: minimizes sum_i |dst_i - (s R src_i + t)|^2 in closed form,
// with the reflection correction of eq. (39)-(43).
#pragma once

#include <vector>

#include <Eigen/Core>

#include "geometry/sim3.h"

namespace proj {

// Returns false for fewer than 3 points, mismatched sizes, or degenerate configurations
// (all source points equal, or all points collinear). With estimate_scale == false the scale is
// fixed to 1 (rigid alignment, Kabsch).
bool EstimateSimilarityUmeyama(const std::vector<Eigen::Vector3d>& src,
                               const std::vector<Eigen::Vector3d>& dst, Sim3d* dst_from_src,
                               bool estimate_scale = true);

// The rotation nearest to m in the Frobenius norm (m = U S V^T -> U diag(1, 1, det) V^T): the
// chordal L2 mean of rotations when m is their sum.
Eigen::Matrix3d NearestRotation(const Eigen::Matrix3d& m);

// Scale and translation of dst = s R src + t for a known rotation R, by least squares (where
// the rotation is better known than the points' spread can tell it: camera centres along a
// strip with their orientations). False for fewer than 2 points, mismatched sizes, all source
// points equal or a scale <= 0.
bool EstimateScaleAndTranslation(const std::vector<Eigen::Vector3d>& src, const std::vector<Eigen::Vector3d>& dst,
                                 const Eigen::Quaterniond& rotation, Sim3d* dst_from_src);

}  // namespace proj
