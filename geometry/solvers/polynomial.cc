#include "geometry/solvers/polynomial.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Geometry>
#include <Eigen/LU>

namespace proj {
namespace {

// Adjugate of a 3x3 matrix (transpose of the cofactor matrix).
Eigen::Matrix3d Adjugate(const Eigen::Matrix3d& m) {
  Eigen::Matrix3d cofactor;
  cofactor.col(0) = m.col(1).cross(m.col(2));
  cofactor.col(1) = m.col(2).cross(m.col(0));
  cofactor.col(2) = m.col(0).cross(m.col(1));
  // Column i of `cofactor` holds the cofactors of column i of m; adj(m) = cofactor^T.
  return cofactor.transpose();
}

double PolishCubicRoot(double c3, double c2, double c1, double c0, double x) {
  for (int i = 0; i < 2; ++i) {
    const double f = ((c3 * x + c2) * x + c1) * x + c0;
    const double df = (3.0 * c3 * x + 2.0 * c2) * x + c1;
    if (df == 0.0) break;
    const double step = f / df;
    if (!std::isfinite(step)) break;
    x -= step;
  }
  return x;
}

}  // namespace

int SolveQuadraticReal(double a, double b, double c, double roots[2]) {
  if (a == 0.0) {
    if (b == 0.0) return 0;
    roots[0] = -c / b;
    return 1;
  }
  const double discriminant = b * b - 4.0 * a * c;
  if (discriminant < 0.0) return 0;
  if (discriminant == 0.0) {
    roots[0] = -b / (2.0 * a);
    return 1;
  }
  const double q = -0.5 * (b + std::copysign(std::sqrt(discriminant), b));
  roots[0] = q / a;
  roots[1] = c / q;  // q != 0 because discriminant > 0 and |q| >= sqrt(disc)/2
  if (roots[0] < roots[1]) std::swap(roots[0], roots[1]);
  return 2;
}

int SolveCubicReal(double c3, double c2, double c1, double c0, double roots[3]) {
  const double scale = std::max({std::abs(c2), std::abs(c1), std::abs(c0)});
  if (std::abs(c3) <= 1e-12 * scale || c3 == 0.0) {
    return SolveQuadraticReal(c2, c1, c0, roots);
  }
  // Monic x^3 + a x^2 + b x + c, depressed with x = t - a/3: t^3 + p t + q.
  const double a = c2 / c3, b = c1 / c3, c = c0 / c3;
  const double shift = a / 3.0;
  const double p = b - a * a / 3.0;
  const double q = 2.0 * a * a * a / 27.0 - a * b / 3.0 + c;
  const double half_q = 0.5 * q;
  const double third_p = p / 3.0;
  const double discriminant = half_q * half_q + third_p * third_p * third_p;
  int n = 0;
  if (discriminant > 0.0) {
    const double sqrt_d = std::sqrt(discriminant);
    const double t = std::cbrt(-half_q + sqrt_d) + std::cbrt(-half_q - sqrt_d);
    roots[n++] = t - shift;
  } else if (p == 0.0) {
    roots[n++] = -shift;  // triple root (q == 0 as well)
  } else {
    // Three real roots: t_k = 2 sqrt(-p/3) cos(phi/3 - 2 pi k / 3).
    const double r = std::sqrt(-third_p);
    const double cos_arg = std::clamp(-half_q / (r * r * r), -1.0, 1.0);
    const double phi = std::acos(cos_arg);
    const double kTwoPiOver3 = 2.0943951023931954923;
    for (int k = 0; k < 3; ++k) {
      roots[n++] = 2.0 * r * std::cos(phi / 3.0 - kTwoPiOver3 * k) - shift;
    }
  }
  for (int i = 0; i < n; ++i) roots[i] = PolishCubicRoot(c3, c2, c1, c0, roots[i]);
  std::sort(roots, roots + n, [](double x, double y) { return x > y; });
  return n;
}

Eigen::Vector4d DeterminantPencilCoefficients(const Eigen::Matrix3d& a, const Eigen::Matrix3d& b) {
  const Eigen::Matrix3d adj_a = Adjugate(a);
  const Eigen::Matrix3d adj_b = Adjugate(b);
  return Eigen::Vector4d(a.determinant(), (adj_a * b).trace(), (adj_b * a).trace(),
                         b.determinant());
}

}  // namespace proj
