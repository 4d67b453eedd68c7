#include "geometry/solvers/triangulation.h"

#include <cmath>
#include <limits>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

#include "geometry/solvers/essential_decomposition.h"

namespace proj {
namespace {

// Homogeneous 4-vector to a finite point; false at (or numerically near) infinity.
bool Dehomogenize(const Eigen::Vector4d& x, Eigen::Vector3d* point3d) {
  if (!(std::abs(x(3)) > 1e-14 * x.head<3>().norm())) return false;
  *point3d = x.head<3>() / x(3);
  return point3d->allFinite();
}

// Cost and Gauss-Newton system of RefineTriangulatedPoint at `point3d`.
double ReprojectionSystem(const std::vector<Rigid3d>& cams_from_world,
                          const std::vector<Eigen::Vector2d>& points_normalized,
                          const Eigen::Vector3d& point3d, Eigen::Matrix3d* jtj,
                          Eigen::Vector3d* jtr, int* num_used) {
  double cost = 0.0;
  if (jtj != nullptr) {
    jtj->setZero();
    jtr->setZero();
  }
  *num_used = 0;
  for (size_t i = 0; i < cams_from_world.size(); ++i) {
    const Eigen::Matrix3d rotation = cams_from_world[i].rotation.toRotationMatrix();
    const Eigen::Vector3d p = rotation * point3d + cams_from_world[i].translation;
    if (!(p.z() > 0.0)) continue;
    const double inv_z = 1.0 / p.z();
    const Eigen::Vector2d residual = p.head<2>() * inv_z - points_normalized[i];
    cost += residual.squaredNorm();
    ++*num_used;
    if (jtj == nullptr) continue;
    Eigen::Matrix<double, 2, 3> d_projection;
    d_projection << inv_z, 0.0, -p.x() * inv_z * inv_z,  //
        0.0, inv_z, -p.y() * inv_z * inv_z;
    const Eigen::Matrix<double, 2, 3> jacobian = d_projection * rotation;
    jtj->noalias() += jacobian.transpose() * jacobian;
    jtr->noalias() += jacobian.transpose() * residual;
  }
  return cost;
}

}  // namespace

bool TriangulatePointDlt(const Rigid3d& cam1_from_world, const Rigid3d& cam2_from_world,
                         const Eigen::Vector2d& point1, const Eigen::Vector2d& point2,
                         Eigen::Vector3d* point3d) {
  const Eigen::Matrix<double, 3, 4> p1 = cam1_from_world.ToMatrix();
  const Eigen::Matrix<double, 3, 4> p2 = cam2_from_world.ToMatrix();
  Eigen::Matrix4d a;
  a.row(0) = point1.x() * p1.row(2) - p1.row(0);
  a.row(1) = point1.y() * p1.row(2) - p1.row(1);
  a.row(2) = point2.x() * p2.row(2) - p2.row(0);
  a.row(3) = point2.y() * p2.row(2) - p2.row(1);
  const Eigen::JacobiSVD<Eigen::Matrix4d> svd(a, Eigen::ComputeFullV);
  return Dehomogenize(svd.matrixV().col(3), point3d);
}

void CorrectObservationsLindstrom(const Eigen::Matrix3d& e, const Eigen::Vector2d& point1,
                                  const Eigen::Vector2d& point2, Eigen::Vector2d* corrected1,
                                  Eigen::Vector2d* corrected2) {
  // Lindstrom's notation: x^T E x' = 0 with x = point2 and x' = point1 (our x2^T E x1 = 0).
  const Eigen::Vector3d x = point2.homogeneous();
  const Eigen::Vector3d x_prime = point1.homogeneous();
  const Eigen::Matrix2d e_tilde = e.topLeftCorner<2, 2>();
  Eigen::Vector2d n = (e * x_prime).head<2>();
  Eigen::Vector2d n_prime = (e.transpose() * x).head<2>();
  const double a = n.dot(e_tilde * n_prime);
  const double b = 0.5 * (n.squaredNorm() + n_prime.squaredNorm());
  const double c = x.dot(e * x_prime);
  const double d = std::sqrt(std::max(0.0, b * b - a * c));
  double lambda = (b + d) != 0.0 ? c / (b + d) : 0.0;
  // Second iteration (niter2): re-linearize at the first-order correction.
  const Eigen::Vector2d delta = lambda * n;
  const Eigen::Vector2d delta_prime = lambda * n_prime;
  n -= e_tilde * delta_prime;
  n_prime -= e_tilde.transpose() * delta;
  const double norm2 = n.squaredNorm() + n_prime.squaredNorm();
  if (norm2 > 0.0) lambda *= 2.0 * d / norm2;
  *corrected2 = point2 - lambda * n;
  *corrected1 = point1 - lambda * n_prime;
}

bool TriangulatePointOptimal(const Rigid3d& cam1_from_world, const Rigid3d& cam2_from_world,
                             const Eigen::Vector2d& point1, const Eigen::Vector2d& point2,
                             Eigen::Vector3d* point3d) {
  const Rigid3d cam2_from_cam1 = cam2_from_world * cam1_from_world.Inverse();
  const Eigen::Matrix3d e = EssentialMatrixFromPose(cam2_from_cam1);
  Eigen::Vector2d corrected1, corrected2;
  CorrectObservationsLindstrom(e, point1, point2, &corrected1, &corrected2);
  return TriangulatePointDlt(cam1_from_world, cam2_from_world, corrected1, corrected2, point3d);
}

bool TriangulateMultiViewDlt(const std::vector<Rigid3d>& cams_from_world,
                             const std::vector<Eigen::Vector2d>& points_normalized,
                             Eigen::Vector3d* point3d) {
  const size_t n = cams_from_world.size();
  if (n < 2 || points_normalized.size() != n) return false;
  Eigen::Matrix4d normal = Eigen::Matrix4d::Zero();
  for (size_t i = 0; i < n; ++i) {
    const Eigen::Matrix<double, 3, 4> p = cams_from_world[i].ToMatrix();
    for (int k = 0; k < 2; ++k) {
      Eigen::RowVector4d row = points_normalized[i](k) * p.row(2) - p.row(k);
      const double norm = row.norm();
      if (norm > 0.0) row /= norm;
      normal.noalias() += row.transpose() * row;
    }
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix4d> eigen(normal);
  if (eigen.info() != Eigen::Success) return false;
  return Dehomogenize(eigen.eigenvectors().col(0), point3d);
}

bool RefineTriangulatedPoint(const std::vector<Rigid3d>& cams_from_world,
                             const std::vector<Eigen::Vector2d>& points_normalized,
                             Eigen::Vector3d* point3d, int max_iterations) {
  if (cams_from_world.size() != points_normalized.size()) return false;
  Eigen::Vector3d point = *point3d;
  Eigen::Matrix3d jtj;
  Eigen::Vector3d jtr;
  int num_used = 0;
  double cost =
      ReprojectionSystem(cams_from_world, points_normalized, point, &jtj, &jtr, &num_used);
  if (num_used < 2) return false;
  for (int iteration = 0; iteration < max_iterations; ++iteration) {
    const Eigen::LDLT<Eigen::Matrix3d> ldlt(jtj);
    if (ldlt.info() != Eigen::Success || !ldlt.isPositive()) break;
    const Eigen::Vector3d step = -ldlt.solve(jtr);
    if (!step.allFinite()) break;
    const Eigen::Vector3d candidate = point + step;
    Eigen::Matrix3d candidate_jtj;
    Eigen::Vector3d candidate_jtr;
    int candidate_used = 0;
    const double candidate_cost =
        ReprojectionSystem(cams_from_world, points_normalized, candidate, &candidate_jtj,
                           &candidate_jtr, &candidate_used);
    // Gauss-Newton without damping: stop at the first step that does not improve.
    if (candidate_used < num_used || !(candidate_cost <= cost)) break;
    point = candidate;
    cost = candidate_cost;
    jtj = candidate_jtj;
    jtr = candidate_jtr;
    if (step.norm() <= 1e-12 * std::max(1.0, point.norm())) break;
  }
  *point3d = point;
  return true;
}

double TriangulationAngle(const Eigen::Vector3d& center1, const Eigen::Vector3d& center2,
                          const Eigen::Vector3d& point3d) {
  const Eigen::Vector3d ray1 = point3d - center1;
  const Eigen::Vector3d ray2 = point3d - center2;
  // atan2 of |cross| and dot is accurate for small angles, unlike acos.
  return std::atan2(ray1.cross(ray2).norm(), ray1.dot(ray2));
}

double SquaredReprojectionErrorNormalized(const Rigid3d& cam_from_world,
                                          const Eigen::Vector3d& point3d,
                                          const Eigen::Vector2d& point_normalized) {
  const Eigen::Vector3d p = cam_from_world * point3d;
  if (!(p.z() > 0.0)) return std::numeric_limits<double>::infinity();
  return (p.head<2>() / p.z() - point_normalized).squaredNorm();
}

}  // namespace proj
