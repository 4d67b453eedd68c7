// Rotation averaging: the cam_from_world rotations of all images from measured relative
// rotations, as global SfM does it (GLOMAP; Chatterjee & Govindu, "Robust Relative Rotation
// Averaging", TPAMI 2018): start from a maximum spanning tree of the most reliable pairs, then
// refine all rotations at once by iteratively reweighted least squares on the tangent space,
// first with L1 weights (convex, robust to the tree's errors) and then with a Cauchy-type
// weight that makes outlier pairs vanish.
//
// Each refinement step solves min sum_e w_e |x_j - x_i + r_e|^2 where r_e = log(R_i^T R_ij^T
// R_j) is the edge's residual in the world frame and R_i <- R_i exp(x_i): the three axes
// decouple into one weighted graph Laplacian, so a step costs one sparse Cholesky
// factorisation of an (images x images) matrix.
#pragma once

#include <vector>

#include <Eigen/Geometry>

#include "sfm/global/view_graph_cleanup.h"

namespace proj {

struct RotationAveragingOptions {
  int max_l1_iterations = 20;
  int max_robust_iterations = 30;
  // Residual (degrees) at which the robust phase halves an edge's weight.
  double robust_scale_deg = 5.0;
  // A phase stops when no rotation moves by more than this (degrees).
  double convergence_deg = 1e-3;
  void Check() const;
};

struct RotationAveragingSummary {
  int num_images = 0;  // images reached by the edges (the rest keep their rotation)
  int num_l1_iterations = 0;
  int num_robust_iterations = 0;
  double median_error_deg = 0;  // relative rotation error over the edges at the end
};

// cam_from_world per image, from a maximum spanning tree (by weight) of `edges`: the image
// with the largest total edge weight gets the identity and every other image reached the
// rotation chained along the tree. `reached` (optional) gets 1 per image the tree reaches.
std::vector<Eigen::Quaterniond> SpanningTreeRotations(int num_images,
                                                      const std::vector<RelativeRotation>& edges,
                                                      std::vector<char>* reached = nullptr);

// Refines `rotations` (cam_from_world per image, an initial estimate for every image an edge
// touches) by the two IRLS phases. The gauge is the first touched image's rotation, which
// stays. Edges must form one connected component.
RotationAveragingSummary RefineRotations(const RotationAveragingOptions& options,
                                         const std::vector<RelativeRotation>& edges,
                                         std::vector<Eigen::Quaterniond>* rotations);

// Spanning tree, then refinement.
std::vector<Eigen::Quaterniond> AverageRotations(const RotationAveragingOptions& options,
                                                 int num_images,
                                                 const std::vector<RelativeRotation>& edges,
                                                 RotationAveragingSummary* summary = nullptr);

}  // namespace proj
