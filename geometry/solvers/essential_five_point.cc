#include "geometry/solvers/essential_five_point.h"

#include <cmath>

#include <Eigen/Cholesky>
#include <Eigen/Geometry>

#include "geometry/solvers/null_space.h"
#include "geometry/solvers/polynomial.h"

namespace proj {
namespace {

// Polynomials in (x, y, z) of degree <= 3 with E = x X + y Y + z Z + W: the ten cubic
// monomials first, then the quadratics, linear terms and 1 (monomials 10..19 have degree <= 2).
struct Exponent {
  int x, y, z;
};
constexpr Exponent kMonomials[20] = {{3, 0, 0}, {2, 1, 0}, {1, 2, 0}, {0, 3, 0}, {2, 0, 1},
                                     {1, 1, 1}, {0, 2, 1}, {1, 0, 2}, {0, 1, 2}, {0, 0, 3},
                                     {2, 0, 0}, {1, 1, 0}, {0, 2, 0}, {1, 0, 1}, {0, 1, 1},
                                     {0, 0, 2}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 0}};
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
  int linear_linear[4][4];      // index into Quadratic
  int quadratic_linear[10][4];  // index into Cubic
};
constexpr ProductTables MakeProductTables() {
  ProductTables t{};
  for (int a = 0; a < 4; ++a) {
    for (int b = 0; b < 4; ++b) {
      const Exponent& ea = kLinearMonomials[a];
      const Exponent& eb = kLinearMonomials[b];
      t.linear_linear[a][b] =
          MonomialIndex(ea.x + eb.x, ea.y + eb.y, ea.z + eb.z) - kFirstQuadratic;
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
      eet[i][j] =
          Multiply(e[i][0], e[j][0]) + Multiply(e[i][1], e[j][1]) + Multiply(e[i][2], e[j][2]);
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

// Values of the 20 monomials at (x, y, z) and their partial derivatives.
void EvaluateMonomials(double x, double y, double z, Cubic* value,
                       Eigen::Matrix<double, 20, 3>* d) {
  for (int i = 0; i < 20; ++i) {
    const Exponent& e = kMonomials[i];
    const auto power = [](double base, int exponent) {
      double out = 1.0;
      for (int k = 0; k < exponent; ++k) out *= base;
      return out;
    };
    const double px = power(x, e.x), py = power(y, e.y), pz = power(z, e.z);
    (*value)(i) = px * py * pz;
    (*d)(i, 0) = e.x > 0 ? e.x * power(x, e.x - 1) * py * pz : 0.0;
    (*d)(i, 1) = e.y > 0 ? e.y * px * power(y, e.y - 1) * pz : 0.0;
    (*d)(i, 2) = e.z > 0 ? e.z * px * py * power(z, e.z - 1) : 0.0;
  }
}

// One Gauss-Newton step on all ten cubic constraints: the root of the degree-10 polynomial
// can lose digits to its conditioning; the constraints themselves are well conditioned.
void PolishSolution(const Eigen::Matrix<double, 10, 20>& m, Eigen::Vector3d* xyz) {
  Cubic value;
  Eigen::Matrix<double, 20, 3> d;
  EvaluateMonomials(xyz->x(), xyz->y(), xyz->z(), &value, &d);
  // lazyProduct: coefficient-based products, no GEMM dispatch for these tiny sizes.
  const Eigen::Matrix<double, 10, 1> residual = m.lazyProduct(value);
  const Eigen::Matrix<double, 10, 3> jacobian = m.lazyProduct(d);
  const Eigen::Matrix3d jtj = jacobian.transpose() * jacobian;
  const Eigen::Vector3d step = jtj.ldlt().solve(jacobian.transpose() * residual);
  if (step.allFinite()) *xyz -= step;
}

// Gauss-Jordan elimination with partial pivoting of [A | B] (A square) into [I | A^-1 B], in
// place, with fixed sizes (Eigen's PartialPivLU takes dynamic-size paths for these). False
// when A is singular.
template <int N, int Columns>
bool GaussJordanLeftSquare(Eigen::Matrix<double, N, Columns, Eigen::RowMajor>* system) {
  auto& s = *system;
  for (int col = 0; col < N; ++col) {
    int pivot = col;
    for (int r = col + 1; r < N; ++r) {
      if (std::abs(s(r, col)) > std::abs(s(pivot, col))) pivot = r;
    }
    if (!(s(pivot, col) != 0.0)) return false;
    if (pivot != col) s.row(pivot).swap(s.row(col));
    const double inverse = 1.0 / s(col, col);
    for (int c = col; c < Columns; ++c) s(col, c) *= inverse;
    for (int r = 0; r < N; ++r) {
      if (r == col) continue;
      const double factor = s(r, col);
      if (factor == 0.0) continue;
      for (int c = col; c < Columns; ++c) s(r, c) -= factor * s(col, c);
    }
  }
  return true;
}

}  // namespace

void SolveEssentialFivePoint(const std::array<Eigen::Vector3d, 5>& b1,
                             const std::array<Eigen::Vector3d, 5>& b2,
                             std::vector<Eigen::Matrix3d>* solutions) {
  // Epipolar rows kron(b2, b1) . vec_rowmajor(E) = 0; the null space of the 5 x 9 system.
  Eigen::Matrix<double, 9, 5> a_transpose;
  for (int i = 0; i < 5; ++i) {
    const Eigen::Vector3d p = b1[i].normalized(), q = b2[i].normalized();
    a_transpose.col(i) << q(0) * p, q(1) * p, q(2) * p;
  }
  const Eigen::Matrix<double, 9, 4> basis = NullSpaceOfTransposed(a_transpose);  // X, Y, Z, W

  Linear e[3][3];
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) e[i][j] = basis.row(3 * i + j).transpose();
  }
  const Eigen::Matrix<double, 10, 20> m = ConstraintMatrix(e);

  // Gauss-Jordan elimination (Nistér's variant): eliminate the ten monomials that are not of
  // the form {x, y, 1} * z^p, so that each remaining row pair (m z, m) combines into one
  // equation linear in x and y with coefficients polynomial in z.
  constexpr int kEliminated[10] = {MonomialIndex(3, 0, 0), MonomialIndex(0, 3, 0),
                                   MonomialIndex(2, 1, 0), MonomialIndex(1, 2, 0),
                                   MonomialIndex(2, 0, 1), MonomialIndex(2, 0, 0),
                                   MonomialIndex(0, 2, 1), MonomialIndex(0, 2, 0),
                                   MonomialIndex(1, 1, 1), MonomialIndex(1, 1, 0)};
  // Remaining monomials grouped as x z^p, y z^p, z^p (p = 0..2 for x and y, 0..3 for 1).
  constexpr int kRemainingX[3] = {MonomialIndex(1, 0, 0), MonomialIndex(1, 0, 1),
                                  MonomialIndex(1, 0, 2)};
  constexpr int kRemainingY[3] = {MonomialIndex(0, 1, 0), MonomialIndex(0, 1, 1),
                                  MonomialIndex(0, 1, 2)};
  constexpr int kRemainingOne[4] = {MonomialIndex(0, 0, 0), MonomialIndex(0, 0, 1),
                                    MonomialIndex(0, 0, 2), MonomialIndex(0, 0, 3)};
  // [eliminated | remaining] reduced to [I | reduced]; row i: eliminated_i + reduced(i, :) .
  // remaining = 0.
  Eigen::Matrix<double, 10, 20, Eigen::RowMajor> system;
  for (int j = 0; j < 10; ++j) system.col(j) = m.col(kEliminated[j]);
  for (int p = 0; p < 3; ++p) {
    system.col(10 + p) = m.col(kRemainingX[p]);
    system.col(13 + p) = m.col(kRemainingY[p]);
  }
  for (int p = 0; p < 4; ++p) system.col(16 + p) = m.col(kRemainingOne[p]);
  if (!GaussJordanLeftSquare(&system)) return;
  const Eigen::Matrix<double, 10, 10, Eigen::RowMajor> reduced = system.rightCols<10>();
  if (!reduced.allFinite()) return;

  // Rows of (x^2 z, x^2), (y^2 z, y^2), (x y z, x y) in kEliminated: row(m z) - z row(m) has
  // no eliminated monomial left: bx(z) x + by(z) y + b1(z) = 0.
  constexpr int kPairs[3][2] = {{4, 5}, {6, 7}, {8, 9}};
  // b[r][0..2]: coefficients (ascending in z) of x (degree 3), y (degree 3), 1 (degree 4).
  double b[3][3][5] = {};
  for (int r = 0; r < 3; ++r) {
    const int with_z = kPairs[r][0], without_z = kPairs[r][1];
    for (int group = 0; group < 3; ++group) {
      const int first_col = 3 * group;
      const int num_powers = group == 2 ? 4 : 3;
      for (int p = 0; p < num_powers; ++p) {
        b[r][group][p] += reduced(with_z, first_col + p);
        b[r][group][p + 1] -= reduced(without_z, first_col + p);
      }
    }
  }
  // det B(z): degree 3 + 3 + 4 = 10 (Nistér 2004, eq. 14-16).
  const auto multiply = [](const double* a, int da, const double* c, int dc, double* out) {
    for (int i = 0; i <= da + dc; ++i) out[i] = 0.0;
    for (int i = 0; i <= da; ++i) {
      for (int j = 0; j <= dc; ++j) out[i + j] += a[i] * c[j];
    }
  };
  double cofactor_x[8], cofactor_y[8], cofactor_1[7], t1[8], t2[8];
  // cofactor_x = by1 * b1_2 - b1_1 * by_2 (degree 7), etc., along the first row.
  multiply(b[1][1], 3, b[2][2], 4, t1);
  multiply(b[1][2], 4, b[2][1], 3, t2);
  for (int i = 0; i < 8; ++i) cofactor_x[i] = t1[i] - t2[i];
  multiply(b[1][2], 4, b[2][0], 3, t1);
  multiply(b[1][0], 3, b[2][2], 4, t2);
  for (int i = 0; i < 8; ++i) cofactor_y[i] = t1[i] - t2[i];
  multiply(b[1][0], 3, b[2][1], 3, t1);
  multiply(b[1][1], 3, b[2][0], 3, t2);
  for (int i = 0; i < 7; ++i) cofactor_1[i] = t1[i] - t2[i];
  double det[11], term[11];
  multiply(b[0][0], 3, cofactor_x, 7, det);
  multiply(b[0][1], 3, cofactor_y, 7, term);
  for (int i = 0; i < 11; ++i) det[i] += term[i];
  multiply(b[0][2], 4, cofactor_1, 6, term);
  for (int i = 0; i < 11; ++i) det[i] += term[i];

  double z_roots[10];
  const int num_roots = SolvePolynomialRealSturm(det, 10, z_roots);
  for (int k = 0; k < num_roots; ++k) {
    const double z = z_roots[k];
    const auto evaluate = [z](const double* coeffs, int degree) {
      double value = 0.0;
      for (int i = degree; i >= 0; --i) value = value * z + coeffs[i];
      return value;
    };
    Eigen::Matrix3d b_z;
    for (int r = 0; r < 3; ++r) {
      b_z(r, 0) = evaluate(b[r][0], 3);
      b_z(r, 1) = evaluate(b[r][1], 3);
      b_z(r, 2) = evaluate(b[r][2], 4);
    }
    // (x, y, 1) spans the null space of B(z): the largest cross product of two rows.
    const Eigen::Vector3d c01 = b_z.row(0).cross(b_z.row(1));
    const Eigen::Vector3d c02 = b_z.row(0).cross(b_z.row(2));
    const Eigen::Vector3d c12 = b_z.row(1).cross(b_z.row(2));
    Eigen::Vector3d v = c01;
    if (c02.squaredNorm() > v.squaredNorm()) v = c02;
    if (c12.squaredNorm() > v.squaredNorm()) v = c12;
    if (!(std::abs(v(2)) > 1e-14 * v.norm())) continue;
    Eigen::Vector3d xyz(v(0) / v(2), v(1) / v(2), z);
    PolishSolution(m, &xyz);
    const Eigen::Matrix<double, 9, 1> e = basis * xyz.homogeneous();
    Eigen::Matrix3d essential;
    essential << e(0), e(1), e(2), e(3), e(4), e(5), e(6), e(7), e(8);
    const double norm = essential.norm();
    if (norm > 0.0 && essential.allFinite()) solutions->push_back(essential / norm);
  }
}

}  // namespace proj
