#include "geometry/solvers/essential_five_point.h"

#include <complex>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/QR>

namespace proj {
namespace {

// Polynomials in (x, y, z) of degree <= 3 with E = x X + y Y + z Z + W. Monomials follow the
// graded order of Stewénius et al.: the ten cubics first, then the basis of the quotient ring
// (x^2, xy, y^2, xz, yz, z^2, x, y, z, 1), which is what the action matrix acts on.
struct Exponent {
  int x, y, z;
};
constexpr Exponent kMonomials[20] = {
    {3, 0, 0}, {2, 1, 0}, {1, 2, 0}, {0, 3, 0}, {2, 0, 1}, {1, 1, 1}, {0, 2, 1},
    {1, 0, 2}, {0, 1, 2}, {0, 0, 3}, {2, 0, 0}, {1, 1, 0}, {0, 2, 0}, {1, 0, 1},
    {0, 1, 1}, {0, 0, 2}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 0}};
constexpr int kFirstQuadratic = 10;  // quadratics are monomials 10..19 (degree <= 2)
constexpr Exponent kLinearMonomials[4] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 0}};

using Linear = Eigen::Matrix<double, 4, 1>;      // coefficients of x, y, z, 1
using Quadratic = Eigen::Matrix<double, 10, 1>;  // monomials 10..19
using Cubic = Eigen::Matrix<double, 20, 1>;      // monomials 0..19

constexpr int MonomialIndex(int x, int y, int z) {
  for (int i = 0; i < 20; ++i) {
    if (kMonomials[i].x == x && kMonomials[i].y == y && kMonomials[i].z == z) return i;
  }
  return -1;
}

struct ProductTables {
  int linear_linear[4][4];     // index into Quadratic
  int quadratic_linear[10][4];  // index into Cubic
};
constexpr ProductTables MakeProductTables() {
  ProductTables t{};
  for (int a = 0; a < 4; ++a) {
    for (int b = 0; b < 4; ++b) {
      const Exponent& ea = kLinearMonomials[a];
      const Exponent& eb = kLinearMonomials[b];
      t.linear_linear[a][b] = MonomialIndex(ea.x + eb.x, ea.y + eb.y, ea.z + eb.z) - kFirstQuadratic;
    }
  }
  for (int a = 0; a < 10; ++a) {
    for (int b = 0; b < 4; ++b) {
      const Exponent& ea = kMonomials[kFirstQuadratic + a];
      const Exponent& eb = kLinearMonomials[b];
      t.quadratic_linear[a][b] = MonomialIndex(ea.x + eb.x, ea.y + eb.y, ea.z + eb.z);
    }
  }
  return t;
}
constexpr ProductTables kTables = MakeProductTables();

Quadratic Multiply(const Linear& a, const Linear& b) {
  Quadratic out = Quadratic::Zero();
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) out(kTables.linear_linear[i][j]) += a(i) * b(j);
  }
  return out;
}

Cubic Multiply(const Quadratic& a, const Linear& b) {
  Cubic out = Cubic::Zero();
  for (int i = 0; i < 10; ++i) {
    for (int j = 0; j < 4; ++j) out(kTables.quadratic_linear[i][j]) += a(i) * b(j);
  }
  return out;
}

// The ten cubic constraints on (x, y, z), one per row, as a 10 x 20 coefficient matrix.
Eigen::Matrix<double, 10, 20> ConstraintMatrix(const Linear e[3][3]) {
  Eigen::Matrix<double, 10, 20> m;
  // det(E) = 0 by cofactor expansion along the first row.
  const Quadratic minor0 = Multiply(e[1][1], e[2][2]) - Multiply(e[1][2], e[2][1]);
  const Quadratic minor1 = Multiply(e[1][0], e[2][2]) - Multiply(e[1][2], e[2][0]);
  const Quadratic minor2 = Multiply(e[1][0], e[2][1]) - Multiply(e[1][1], e[2][0]);
  m.row(0) = (Multiply(minor0, e[0][0]) - Multiply(minor1, e[0][1]) + Multiply(minor2, e[0][2]))
                 .transpose();
  // 2 E E^T E - tr(E E^T) E = 0, through the symmetric E E^T.
  Quadratic eet[3][3];
  for (int i = 0; i < 3; ++i) {
    for (int j = i; j < 3; ++j) {
      eet[i][j] = Multiply(e[i][0], e[j][0]) + Multiply(e[i][1], e[j][1]) +
                  Multiply(e[i][2], e[j][2]);
      eet[j][i] = eet[i][j];
    }
  }
  // Halved: (E E^T - 0.5 tr(E E^T) I) E = 0.
  const Quadratic half_trace = 0.5 * (eet[0][0] + eet[1][1] + eet[2][2]);
  for (int i = 0; i < 3; ++i) eet[i][i] -= half_trace;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      m.row(1 + 3 * i + j) = (Multiply(eet[i][0], e[0][j]) + Multiply(eet[i][1], e[1][j]) +
                              Multiply(eet[i][2], e[2][j]))
                                 .transpose();
    }
  }
  return m;
}

}  // namespace

void SolveEssentialFivePoint(const std::array<Eigen::Vector3d, 5>& b1,
                             const std::array<Eigen::Vector3d, 5>& b2,
                             std::vector<Eigen::Matrix3d>* solutions) {
  // Epipolar rows kron(b2, b1) . vec_rowmajor(E) = 0; the null space of the 5 x 9 system is
  // spanned by the last four columns of Q in A^T = QR.
  Eigen::Matrix<double, 9, 5> a_transpose;
  for (int i = 0; i < 5; ++i) {
    const Eigen::Vector3d p = b1[i].normalized(), q = b2[i].normalized();
    a_transpose.col(i) << q(0) * p, q(1) * p, q(2) * p;
  }
  const Eigen::HouseholderQR<Eigen::Matrix<double, 9, 5>> qr(a_transpose);
  const Eigen::Matrix<double, 9, 9> q = qr.householderQ();
  const Eigen::Matrix<double, 9, 4> basis = q.rightCols<4>();  // X, Y, Z, W

  Linear e[3][3];
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) e[i][j] = basis.row(3 * i + j).transpose();
  }
  const Eigen::Matrix<double, 10, 20> m = ConstraintMatrix(e);

  // Gauss-Jordan on the cubic monomials: cubic_k + reduced(k, :) . basis_monomials = 0.
  const Eigen::PartialPivLU<Eigen::Matrix<double, 10, 10>> lu(m.leftCols<10>());
  const Eigen::Matrix<double, 10, 10> reduced = lu.solve(m.rightCols<10>());
  if (!reduced.allFinite()) return;

  // Action matrix of multiplication by x on the quotient basis b = (x^2, xy, y^2, xz, yz, z^2,
  // x, y, z, 1): action * b = x * b, so b at each solution is an eigenvector, x its eigenvalue.
  Eigen::Matrix<double, 10, 10> action = Eigen::Matrix<double, 10, 10>::Zero();
  action.row(0) = -reduced.row(MonomialIndex(3, 0, 0));  // x * x^2
  action.row(1) = -reduced.row(MonomialIndex(2, 1, 0));  // x * xy
  action.row(2) = -reduced.row(MonomialIndex(1, 2, 0));  // x * y^2
  action.row(3) = -reduced.row(MonomialIndex(2, 0, 1));  // x * xz
  action.row(4) = -reduced.row(MonomialIndex(1, 1, 1));  // x * yz
  action.row(5) = -reduced.row(MonomialIndex(1, 0, 2));  // x * z^2
  action(6, 0) = 1.0;                                    // x * x = x^2
  action(7, 1) = 1.0;                                    // x * y = xy
  action(8, 3) = 1.0;                                    // x * z = xz
  action(9, 6) = 1.0;                                    // x * 1 = x

  const Eigen::EigenSolver<Eigen::Matrix<double, 10, 10>> eigen(action, true);
  if (eigen.info() != Eigen::Success) return;
  const auto& values = eigen.eigenvalues();
  const auto& vectors = eigen.eigenvectors();
  for (int k = 0; k < 10; ++k) {
    if (std::abs(values(k).imag()) > 1e-8 * std::max(1.0, std::abs(values(k).real()))) continue;
    const std::complex<double> w = vectors(9, k);
    if (std::abs(w) < 1e-12 * vectors.col(k).norm()) continue;  // solution at infinity
    const double x = (vectors(6, k) / w).real();
    const double y = (vectors(7, k) / w).real();
    const double z = (vectors(8, k) / w).real();
    const Eigen::Matrix<double, 9, 1> v = basis * Eigen::Vector4d(x, y, z, 1.0);
    Eigen::Matrix3d essential;
    essential << v(0), v(1), v(2), v(3), v(4), v(5), v(6), v(7), v(8);
    const double norm = essential.norm();
    if (norm > 0.0 && essential.allFinite()) solutions->push_back(essential / norm);
  }
}

}  // namespace proj
