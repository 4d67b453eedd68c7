#include "geometry/solvers/p3p.h"

#include <cmath>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include "geometry/solvers/polynomial.h"

namespace proj {
namespace {

// Squared world distances a_ij and bearing cosines b_ij; the depths satisfy
// lambda_i^2 + lambda_j^2 - 2 b_ij lambda_i lambda_j = a_ij for the pairs 12, 13, 23.
struct P3PData {
  double a12, a13, a23, b12, b13, b23;
};

// Gauss-Newton (square system, so Newton) on the three distance equations (paper, sec. 3.5).
void RefineDepths(const P3PData& d, Eigen::Vector3d* lambda) {
  for (int iteration = 0; iteration < 5; ++iteration) {
    const double l1 = (*lambda)(0), l2 = (*lambda)(1), l3 = (*lambda)(2);
    const Eigen::Vector3d residual(l1 * l1 + l2 * l2 - 2.0 * d.b12 * l1 * l2 - d.a12,
                                   l1 * l1 + l3 * l3 - 2.0 * d.b13 * l1 * l3 - d.a13,
                                   l2 * l2 + l3 * l3 - 2.0 * d.b23 * l2 * l3 - d.a23);
    if (residual.lpNorm<1>() < 1e-13 * (d.a12 + d.a13 + d.a23)) return;
    Eigen::Matrix3d jacobian;
    jacobian << l1 - d.b12 * l2, l2 - d.b12 * l1, 0.0,  //
        l1 - d.b13 * l3, 0.0, l3 - d.b13 * l1,          //
        0.0, l2 - d.b23 * l3, l3 - d.b23 * l2;
    jacobian *= 2.0;
    Eigen::Matrix3d inverse;
    bool invertible = false;
    jacobian.computeInverseWithCheck(inverse, invertible, 1e-300);
    if (!invertible) return;
    const Eigen::Vector3d step = inverse * residual;
    if (!step.allFinite()) return;
    *lambda -= step;
  }
}

// One line factor u . lambda = 0 of the degenerate conic, substituted into the homogeneous
// combination of two distance equations: a quadratic in the depth ratio tau. Appends the
// positive depth triples.
int DepthsOnLine(const P3PData& d, const Eigen::Vector3d& u, Eigen::Vector3d depths[2]) {
  int n = 0;
  double roots[2];
  if (std::abs(u(0)) >= std::abs(u(1))) {
    if (u(0) == 0.0) return 0;
    // lambda1 = w0 lambda2 + w1 lambda3, tau = lambda3 / lambda2, from
    // a13 * (eq12) - a12 * (eq13) = 0; then lambda2 from eq23.
    const double w0 = -u(1) / u(0), w1 = -u(2) / u(0);
    const double da = d.a13 - d.a12;
    const double qa = da * w1 * w1 + 2.0 * d.a12 * d.b13 * w1 - d.a12;
    const double qb = 2.0 * da * w0 * w1 - 2.0 * d.a13 * d.b12 * w1 + 2.0 * d.a12 * d.b13 * w0;
    const double qc = da * w0 * w0 - 2.0 * d.a13 * d.b12 * w0 + d.a13;
    const int num_roots = SolveQuadraticReal(qa, qb, qc, roots);
    for (int k = 0; k < num_roots; ++k) {
      const double tau = roots[k];
      if (!(tau > 0.0)) continue;
      const double denominator = tau * tau - 2.0 * d.b23 * tau + 1.0;
      if (!(denominator > 0.0)) continue;
      const double l2 = std::sqrt(d.a23 / denominator);
      const double l3 = tau * l2;
      const double l1 = w0 * l2 + w1 * l3;
      if (l1 > 0.0) depths[n++] = Eigen::Vector3d(l1, l2, l3);
    }
  } else {
    // lambda2 = w0 lambda1 + w1 lambda3, tau = lambda3 / lambda1, from
    // a13 * (eq23) - a23 * (eq13) = 0; then lambda1 from eq13.
    const double w0 = -u(0) / u(1), w1 = -u(2) / u(1);
    const double qa = d.a13 * w1 * w1 + d.a13 - 2.0 * d.a13 * d.b23 * w1 - d.a23;
    const double qb = 2.0 * d.a13 * w0 * w1 - 2.0 * d.a13 * d.b23 * w0 + 2.0 * d.a23 * d.b13;
    const double qc = d.a13 * w0 * w0 - d.a23;
    const int num_roots = SolveQuadraticReal(qa, qb, qc, roots);
    for (int k = 0; k < num_roots; ++k) {
      const double tau = roots[k];
      if (!(tau > 0.0)) continue;
      const double denominator = tau * tau - 2.0 * d.b13 * tau + 1.0;
      if (!(denominator > 0.0)) continue;
      const double l1 = std::sqrt(d.a13 / denominator);
      const double l3 = tau * l1;
      const double l2 = w0 * l1 + w1 * l3;
      if (l2 > 0.0) depths[n++] = Eigen::Vector3d(l1, l2, l3);
    }
  }
  return n;
}

}  // namespace

void SolveP3P(const std::array<Eigen::Vector3d, 3>& bearings,
              const std::array<Eigen::Vector3d, 3>& points3d,
              std::vector<Rigid3d>* cams_from_world) {
  const Eigen::Vector3d y1 = bearings[0].normalized();
  const Eigen::Vector3d y2 = bearings[1].normalized();
  const Eigen::Vector3d y3 = bearings[2].normalized();
  const Eigen::Vector3d d12 = points3d[0] - points3d[1];
  const Eigen::Vector3d d13 = points3d[0] - points3d[2];
  const Eigen::Vector3d d23 = points3d[1] - points3d[2];

  // World frame of the triangle; singular when the points are collinear.
  Eigen::Matrix3d world_frame;
  world_frame << d12, d13, d12.cross(d13);
  Eigen::Matrix3d world_frame_inverse;
  bool invertible = false;
  world_frame.computeInverseWithCheck(world_frame_inverse, invertible, 1e-300);
  if (!invertible || !world_frame_inverse.allFinite()) return;

  const P3PData d{d12.squaredNorm(), d13.squaredNorm(), d23.squaredNorm(),
                  y1.dot(y2),        y1.dot(y3),        y2.dot(y3)};
  if (!(d.a12 > 0.0 && d.a13 > 0.0 && d.a23 > 0.0)) return;

  // Homogeneous conics lambda^T D1 lambda = 0 (a23 eq12 - a12 eq23) and lambda^T D2 lambda = 0
  // (a23 eq13 - a13 eq23).
  Eigen::Matrix3d d1, d2;
  d1 << d.a23, -d.a23 * d.b12, 0.0,                  //
      -d.a23 * d.b12, d.a23 - d.a12, d.a12 * d.b23,  //
      0.0, d.a12 * d.b23, -d.a12;
  d2 << d.a23, 0.0, -d.a23 * d.b13,  //
      0.0, -d.a13, d.a13 * d.b23,    //
      -d.a23 * d.b13, d.a13 * d.b23, d.a23 - d.a13;

  // gamma with det(D1 + gamma D2) = 0 makes D0 = D1 + gamma D2 a degenerate conic (a pair of
  // lines through the origin) containing every solution.
  const Eigen::Vector4d c = DeterminantPencilCoefficients(d1, d2);
  double gammas[3];
  const int num_gammas = SolveCubicReal(c(3), c(2), c(1), c(0), gammas);
  if (num_gammas == 0) return;

  // Prefer a root whose conic is indefinite (two real lines); any root is valid in theory.
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eigen;
  int big = 0, small = 0;
  const auto decompose = [&](double gamma) {
    eigen.computeDirect(d1 + gamma * d2);
    const Eigen::Vector3d& ev = eigen.eigenvalues();
    int zero = 0;
    for (int k = 1; k < 3; ++k) {
      if (std::abs(ev(k)) < std::abs(ev(zero))) zero = k;
    }
    big = (zero + 1) % 3;
    small = (zero + 2) % 3;
    if (std::abs(ev(small)) > std::abs(ev(big))) std::swap(big, small);
    return ev(big) * ev(small) < 0.0;
  };
  bool indefinite = false;
  for (int g = 0; g < num_gammas && !indefinite; ++g) indefinite = decompose(gammas[g]);
  const Eigen::Vector3d& ev = eigen.eigenvalues();
  if (!(ev(big) != 0.0)) return;
  // sigma_big (e_big . lambda)^2 + sigma_small (e_small . lambda)^2 = 0
  //   =>  (e_big -/+ s e_small) . lambda = 0 with s = sqrt(-sigma_small / sigma_big).
  const double s = std::sqrt(std::max(0.0, -ev(small) / ev(big)));
  const Eigen::Vector3d e_big = eigen.eigenvectors().col(big);
  const Eigen::Vector3d e_small = eigen.eigenvectors().col(small);

  for (int sign = -1; sign <= 1; sign += 2) {
    Eigen::Vector3d depths[2];
    const int num_depths = DepthsOnLine(d, e_big + sign * s * e_small, depths);
    for (int k = 0; k < num_depths; ++k) {
      Eigen::Vector3d lambda = depths[k];
      RefineDepths(d, &lambda);
      if (!(lambda.minCoeff() > 0.0)) continue;
      // R maps the world triangle frame onto the camera one: R [d12 d13 d12 x d13] =
      // [v1 v2 v1 x v2] with v1 = l1 y1 - l2 y2, v2 = l1 y1 - l3 y3.
      const Eigen::Vector3d v1 = lambda(0) * y1 - lambda(1) * y2;
      const Eigen::Vector3d v2 = lambda(0) * y1 - lambda(2) * y3;
      Eigen::Matrix3d camera_frame;
      camera_frame << v1, v2, v1.cross(v2);
      const Eigen::Matrix3d rotation = camera_frame * world_frame_inverse;
      if (!rotation.allFinite()) continue;
      Eigen::Quaterniond q(rotation);
      q.normalize();
      const Eigen::Vector3d translation = lambda(0) * y1 - q * points3d[0];
      cams_from_world->emplace_back(q, translation);
    }
    if (s == 0.0) break;  // a double line: both signs give the same factor
  }
}

}  // namespace proj
