// Null spaces of small wide matrices A (M x N, M < N), which the minimal solvers (seven-point
// F, five-point E, four-point H) need once per RANSAC sample.
#pragma once

#include <cmath>
#include <limits>

#include <Eigen/Core>

namespace proj {

// Orthonormal basis, from A^T (N x M): the last N - M columns of Q in the Householder
// factorization A^T = QR. Eigen's HouseholderQR + householderQ() compute the same basis (same
// reflectors, same signs) but through dynamic-size blocks and a full N x N Q; this fixed-size
// version is several times faster and differs only by rounding (one reciprocal per reflector
// where Eigen divides each entry). The loops are unrolled completely (their bounds are
// constants then): a third of the instructions of the loops.
template <int N, int M>
Eigen::Matrix<double, N, N - M> NullSpaceOfTransposed(Eigen::Matrix<double, N, M> a_transpose) {
  static_assert(M >= 1 && M < N, "the matrix must be wider than tall");
  auto& m = a_transpose;  // becomes R above the diagonal, the reflectors' tails below it
  double tau[M];
#pragma GCC unroll 16
  for (int k = 0; k < M; ++k) {
    // Reflector H_k = I - tau v v^T, v = (1, tail), mapping column k onto (beta, 0, ..., 0), as
    // Eigen's makeHouseholder: beta takes the sign opposite to the leading entry.
    double tail_squared = 0.0;
#pragma GCC unroll 16
    for (int i = k + 1; i < N; ++i) tail_squared += m(i, k) * m(i, k);
    const double c0 = m(k, k);
    if (tail_squared <= std::numeric_limits<double>::min()) {
      tau[k] = 0.0;
  #pragma GCC unroll 16
    for (int i = k + 1; i < N; ++i) m(i, k) = 0.0;
      continue;
    }
    double beta = std::sqrt(c0 * c0 + tail_squared);
    if (c0 >= 0.0) beta = -beta;
    const double inverse = 1.0 / (c0 - beta);
#pragma GCC unroll 16
    for (int i = k + 1; i < N; ++i) m(i, k) *= inverse;
    tau[k] = (beta - c0) / beta;
    m(k, k) = beta;
#pragma GCC unroll 16
    for (int j = k + 1; j < M; ++j) {
      double t = m(k, j);
  #pragma GCC unroll 16
    for (int i = k + 1; i < N; ++i) t += m(i, k) * m(i, j);
      t *= tau[k];
      m(k, j) -= t;
  #pragma GCC unroll 16
    for (int i = k + 1; i < N; ++i) m(i, j) -= m(i, k) * t;
    }
  }
  // Column M + c of Q = H_0 H_1 ... H_{M-1} e_{M+c}.
  Eigen::Matrix<double, N, N - M> basis = Eigen::Matrix<double, N, N - M>::Zero();
#pragma GCC unroll 16
  for (int c = 0; c < N - M; ++c) {
    auto v = basis.col(c);
    v(M + c) = 1.0;
#pragma GCC unroll 16
    for (int k = M - 1; k >= 0; --k) {
      double t = v(k);
  #pragma GCC unroll 16
    for (int i = k + 1; i < N; ++i) t += m(i, k) * v(i);
      t *= tau[k];
      v(k) -= t;
  #pragma GCC unroll 16
    for (int i = k + 1; i < N; ++i) v(i) -= m(i, k) * t;
    }
  }
  return basis;
}

}  // namespace proj
