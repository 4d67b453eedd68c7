// Choice and two-view geometry of the image pair an incremental model starts from.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <Eigen/Core>

#include "sfm/mapper/pose_estimation.h"
#include "sfm/view_graph.h"

namespace proj {

// The pairs worth trying, best first: general (calibrated or uncalibrated) before planar, then
// by number of inlier matches (stable for ties); never panoramic or degenerate ones. At most
// max_candidates.
std::vector<const VerifiedPair*> InitialPairCandidates(const std::vector<VerifiedPair>& pairs,
                                                       int max_candidates);

// The pair's relative pose for the normalized coordinates n1, n2 of its inlier matches.
// Verification decomposed E (or H) on those inliers already: a calibrated or planar pair with a
// non-zero translation starts from that pose, every match an inlier. Others (uncalibrated
// pairs, databases without poses such as COLMAP's) are estimated again by five-point RANSAC
// with threshold max_error (normalized units).
RelativePoseResult InitialRelativePose(const VerifiedPair& pair,
                                       const std::vector<Eigen::Vector2d>& n1,
                                       const std::vector<Eigen::Vector2d>& n2, double max_error,
                                       uint64_t seed);

// Median triangulation angle (degrees) of the inlier correspondences that triangulate in front
// of both cameras of `relative`; nullopt when fewer than min_num_points do.
std::optional<double> MedianTriangulationAngleDeg(const RelativePoseResult& relative,
                                                  const std::vector<Eigen::Vector2d>& n1,
                                                  const std::vector<Eigen::Vector2d>& n2,
                                                  int min_num_points);

}  // namespace proj
