// Which verified pairs the global mapper averages: pairs with a relative pose of enough inliers,
// restricted to the largest connected group of images, and without pairs whose relative
// rotation disagrees with the averaged rotations (a wrong pose that survived verification, e.g.
// a repeated facade element).
#pragma once

#include <vector>

#include <Eigen/Geometry>

#include "sfm/scene/view_graph.h"

namespace proj {

// One measured relative rotation: cam_from_world of image2 = cam2_from_cam1 * that of image1.
struct RelativeRotation {
  int image1 = kInvalidId;
  int image2 = kInvalidId;
  Eigen::Quaterniond cam2_from_cam1 = Eigen::Quaterniond::Identity();
  double weight = 1;  // confidence: the pair's inlier count
};

// The relative rotations of the pairs with a relative pose and at least min_num_inliers inlier
// matches, calibrated or uncalibrated (from E, or from F and the focal priors), weighted by
// their inlier count. Planar pairs (a homography explains them) with their weight times
// planar_weight, or not at all when it is 0: the homography's decomposition is two-fold
// ambiguous, and on the synthetic ring (textured boxes) wrong planar poses outnumbered what
// the robust averaging can outvote; but a nadir survey of flat ground has little else (a
// 24-image flat flight: every pair planar), so they enter with less weight, the spanning tree
// and the robust averaging prefer the other pairs, and a wrong one is dropped as inconsistent.
// Panoramic pairs count: their rotation is as good as any.
std::vector<RelativeRotation> UsableRelativeRotations(const std::vector<VerifiedPair>& pairs,
                                                      int min_num_inliers, double planar_weight);

// LargestConnectedComponent (view_graph.h) of the graph of `edges`.
std::vector<char> LargestConnectedComponent(int num_images,
                                            const std::vector<RelativeRotation>& edges);

// The edges between images of `in_component`.
std::vector<RelativeRotation> EdgesWithin(const std::vector<RelativeRotation>& edges,
                                          const std::vector<char>& in_component);

// Angle (degrees) between an edge's measured relative rotation and the one of `rotations`
// (cam_from_world per image).
double RelativeRotationErrorDeg(const RelativeRotation& edge,
                                const std::vector<Eigen::Quaterniond>& rotations);

// The edges whose relative rotation error is at most max_error_deg.
std::vector<RelativeRotation> ConsistentEdges(const std::vector<RelativeRotation>& edges,
                                              const std::vector<Eigen::Quaterniond>& rotations,
                                              double max_error_deg);

}  // namespace proj
