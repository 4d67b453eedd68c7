#include "sfm/global/rotation_averaging.h"

#include <algorithm>
#include <cmath>
#include <queue>
#include <tuple>

#include <Eigen/SparseCholesky>

#include "core/check.h"

namespace proj {

void RotationAveragingOptions::Check() const {
  PROJ_REQUIRE(max_l1_iterations >= 0 && max_robust_iterations >= 0,
               "rotation averaging iteration counts must be >= 0");
  PROJ_REQUIRE(robust_scale_deg > 0, "rotation averaging robust_scale_deg must be > 0");
  PROJ_REQUIRE(convergence_deg > 0, "rotation averaging convergence_deg must be > 0");
}

namespace {

constexpr double kDegPerRad = 180.0 / M_PI;
// L1 weights are 1/|r|, floored at 0.01 degrees so that exact edges do not dominate.
constexpr double kL1FloorRad = 0.01 / kDegPerRad;

Eigen::Vector3d Log(const Eigen::Quaterniond& q) {
  const Eigen::AngleAxisd aa(q);
  return aa.angle() * aa.axis();
}

Eigen::Quaterniond Exp(const Eigen::Vector3d& v) {
  const double angle = v.norm();
  if (angle < 1e-12) return Eigen::Quaterniond::Identity();
  return Eigen::Quaterniond(Eigen::AngleAxisd(angle, v / angle));
}

// The edge's residual in the world frame: log(R_i^T R_ij^T R_j), zero when consistent.
Eigen::Vector3d Residual(const RelativeRotation& edge, const std::vector<Eigen::Quaterniond>& r) {
  return Log(r[edge.image1].conjugate() * edge.cam2_from_cam1.conjugate() * r[edge.image2]);
}

}  // namespace

std::vector<Eigen::Quaterniond> SpanningTreeRotations(int num_images,
                                                      const std::vector<RelativeRotation>& edges,
                                                      std::vector<char>* reached) {
  std::vector<Eigen::Quaterniond> rotations(num_images, Eigen::Quaterniond::Identity());
  std::vector<char> done(num_images, 0);
  std::vector<std::vector<int>> incident(num_images);
  std::vector<double> total_weight(num_images, 0);
  for (size_t e = 0; e < edges.size(); ++e) {
    incident[edges[e].image1].push_back(static_cast<int>(e));
    incident[edges[e].image2].push_back(static_cast<int>(e));
    total_weight[edges[e].image1] += edges[e].weight;
    total_weight[edges[e].image2] += edges[e].weight;
  }
  if (!edges.empty()) {
    const int root = static_cast<int>(
        std::max_element(total_weight.begin(), total_weight.end()) - total_weight.begin());
    // Prim: always extend the tree by the heaviest edge leaving it (ties: lower edge index).
    std::priority_queue<std::tuple<double, int, int>> frontier;  // weight, -edge, from image
    auto add = [&](int image) {
      done[image] = 1;
      for (int e : incident[image]) frontier.emplace(edges[e].weight, -e, image);
    };
    add(root);
    while (!frontier.empty()) {
      const auto [weight, negative_edge, from] = frontier.top();
      frontier.pop();
      const RelativeRotation& edge = edges[-negative_edge];
      const int to = edge.image1 == from ? edge.image2 : edge.image1;
      if (done[to]) continue;
      rotations[to] = edge.image1 == from ? edge.cam2_from_cam1 * rotations[from]
                                          : edge.cam2_from_cam1.conjugate() * rotations[from];
      rotations[to].normalize();
      add(to);
    }
  }
  if (reached) *reached = done;
  return rotations;
}

RotationAveragingSummary RefineRotations(const RotationAveragingOptions& options,
                                         const std::vector<RelativeRotation>& edges,
                                         std::vector<Eigen::Quaterniond>* rotations) {
  options.Check();
  RotationAveragingSummary summary;
  // Compact indices of the images the edges touch; the first one is the gauge.
  std::vector<int> index(rotations->size(), -1);
  std::vector<int> images;
  for (const RelativeRotation& edge : edges) {
    for (int image : {edge.image1, edge.image2}) {
      PROJ_CHECK(image >= 0 && image < static_cast<int>(rotations->size()), "bad edge image");
      if (index[image] < 0) {
        index[image] = static_cast<int>(images.size());
        images.push_back(image);
      }
    }
  }
  summary.num_images = static_cast<int>(images.size());
  if (images.size() < 2) return summary;
  const int n = static_cast<int>(images.size()) - 1;  // unknowns: all but the gauge image
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> solver;
  bool analysed = false;
  const double robust_scale = options.robust_scale_deg / kDegPerRad;

  // One IRLS step; returns the largest rotation update (radians), or -1 if the system is
  // singular (edges not connected).
  auto step = [&](bool l1) -> double {
    std::vector<Eigen::Triplet<double>> triplets;
    triplets.reserve(edges.size() * 4);
    Eigen::MatrixXd rhs = Eigen::MatrixXd::Zero(n, 3);
    for (const RelativeRotation& edge : edges) {
      const Eigen::Vector3d r = Residual(edge, *rotations);
      const double norm = r.norm();
      // L1 as IRLS, or the Cauchy weight of the robust phase.
      const double w = edge.weight * (l1 ? 1.0 / std::max(norm, kL1FloorRad)
                                         : 1.0 / (1.0 + (norm / robust_scale) * (norm / robust_scale)));
      // Variables are shifted by one: the gauge (compact index 0) is not a variable.
      const int i = index[edge.image1] - 1, j = index[edge.image2] - 1;
      if (i >= 0) {
        triplets.emplace_back(i, i, w);
        rhs.row(i) += w * r.transpose();
      }
      if (j >= 0) {
        triplets.emplace_back(j, j, w);
        rhs.row(j) -= w * r.transpose();
      }
      if (i >= 0 && j >= 0) {
        triplets.emplace_back(i, j, -w);
        triplets.emplace_back(j, i, -w);
      }
    }
    Eigen::SparseMatrix<double> laplacian(n, n);
    laplacian.setFromTriplets(triplets.begin(), triplets.end());
    if (!analysed) {
      solver.analyzePattern(laplacian);
      analysed = true;
    }
    solver.factorize(laplacian);
    if (solver.info() != Eigen::Success) return -1;
    const Eigen::MatrixXd x = solver.solve(rhs);
    double largest = 0;
    for (int k = 0; k < n; ++k) {
      const Eigen::Vector3d update = x.row(k).transpose();
      Eigen::Quaterniond& rotation = (*rotations)[images[k + 1]];
      rotation = (rotation * Exp(update)).normalized();
      largest = std::max(largest, update.norm());
    }
    return largest;
  };

  const double tolerance = options.convergence_deg / kDegPerRad;
  for (int it = 0; it < options.max_l1_iterations; ++it) {
    ++summary.num_l1_iterations;
    const double moved = step(true);
    PROJ_CHECK(moved >= 0, "rotation averaging: the edges do not connect the images");
    if (moved < tolerance) break;
  }
  for (int it = 0; it < options.max_robust_iterations; ++it) {
    ++summary.num_robust_iterations;
    if (step(false) < tolerance) break;
  }
  std::vector<double> errors;
  for (const RelativeRotation& edge : edges) errors.push_back(RelativeRotationErrorDeg(edge, *rotations));
  std::nth_element(errors.begin(), errors.begin() + errors.size() / 2, errors.end());
  summary.median_error_deg = errors[errors.size() / 2];
  return summary;
}

std::vector<Eigen::Quaterniond> AverageRotations(const RotationAveragingOptions& options,
                                                 int num_images,
                                                 const std::vector<RelativeRotation>& edges,
                                                 RotationAveragingSummary* summary) {
  std::vector<Eigen::Quaterniond> rotations = SpanningTreeRotations(num_images, edges);
  const RotationAveragingSummary result = RefineRotations(options, edges, &rotations);
  if (summary) *summary = result;
  return rotations;
}

}  // namespace proj
