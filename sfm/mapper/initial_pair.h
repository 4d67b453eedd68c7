// Choice and two-view geometry of the image pair an incremental model starts from.
//
// A good start has many verified inliers that triangulate with a wide angle in front of both
// cameras. The pairs with the most matches are often the worst: in a video or a forward drive
// they are neighbours a metre apart whose points triangulate at a fraction of a degree. So the
// candidates are ranked by what verification already knows of each pair (its relative pose
// and inliers), not by match count alone.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <Eigen/Core>

#include "sfm/mapper/pose_estimation.h"
#include "sfm/scene/scene.h"
#include "sfm/scene/view_graph.h"

namespace proj {

// How well a pair may start a model, from its verification (no RANSAC).
struct InitialPairScore {
  int num_inliers = 0;           // verified inliers in front of both cameras (estimated)
  double median_angle_deg = -1;  // their median triangulation angle; -1: the pair has no pose
  double score = 0;              // larger is better; see ScoreInitialPair
};

// The pair's verified inliers under its stored relative pose (a sample of at most
// max_samples spread over them): how many lie in front of both cameras and their median
// triangulation angle. Score: inliers in front x min(1, angle / wanted_angle_deg), or half
// the inliers for pairs without a pose (uncalibrated or from a database without poses, as
// COLMAP's). Panoramic and degenerate pairs score 0.
InitialPairScore ScoreInitialPair(const VerifiedPair& pair, const Scene& scene,
                                  double wanted_angle_deg, int max_samples = 256);

// The pairs worth trying: general (calibrated or uncalibrated) before planar ones, whose pose
// from the homography may be the wrong one of its two solutions with large, false angles
// (seen on a street scene); then best score first (ties: more inliers, then input order).
// Never panoramic or degenerate ones, nor (keyframes_only) pairs with a non-keyframe
// (SceneImage::keyframe), nor (allowed_images non-null) pairs with an image it marks 0.
// Nor pairs with fewer than min_num_inliers verified inliers (they cannot give the points a
// model starts from; on a nadir survey dozens of such general pairs, far apart with a few
// inliers each, would otherwise fill the list ahead of the overlapping, planar, neighbours).
// At most max_candidates. Only the pairs that may make the list are scored (a score never
// exceeds the pair's inlier count, so pairs are scored by decreasing inlier count until none
// left can): with thousands of pairs, a few hundred usually; *num_scored (when non-null) says
// how many.
std::vector<const VerifiedPair*> InitialPairCandidates(const std::vector<VerifiedPair>& pairs,
                                                       const Scene& scene, double wanted_angle_deg,
                                                       int max_candidates, int* num_scored = nullptr,
                                                       bool keyframes_only = true,
                                                       const std::vector<char>* allowed_images = nullptr,
                                                       int min_num_inliers = 0);

// The pair's relative pose for the normalized coordinates n1, n2 of its inlier matches.
// Verification decomposed E (or H) on those inliers already: a calibrated or planar pair with a
// non-zero translation starts from that pose, every match an inlier. Others (uncalibrated
// pairs, databases without poses such as COLMAP's) are estimated again by five-point RANSAC
// with threshold max_error (normalized units).
RelativePoseResult InitialRelativePose(const VerifiedPair& pair,
                                       const std::vector<Eigen::Vector2d>& n1,
                                       const std::vector<Eigen::Vector2d>& n2, double max_error,
                                       uint64_t seed);

// Triangulation angles (degrees) of the inlier correspondences of `relative` that
// triangulate in front of both cameras.
std::vector<double> TriangulationAnglesDeg(const RelativePoseResult& relative,
                                           const std::vector<Eigen::Vector2d>& n1,
                                           const std::vector<Eigen::Vector2d>& n2);

// Median of TriangulationAnglesDeg; nullopt when fewer than min_num_points (or none)
// triangulate in front.
std::optional<double> MedianTriangulationAngleDeg(const RelativePoseResult& relative,
                                                  const std::vector<Eigen::Vector2d>& n1,
                                                  const std::vector<Eigen::Vector2d>& n2,
                                                  int min_num_points);

}  // namespace proj
