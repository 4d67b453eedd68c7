// Small dense block operations of the Schur-complement solver (row-major, fixed sizes), shared
// by the CPU solver and the CUDA kernels (PROJ_HOST_DEVICE). Jacobians of one observation are
// 2 x A arrays (cuda/ba/ba_residual.h). Host-compilable header.
#pragma once

#include "core/host_device.h"
#include "cuda/ba/ba_residual.h"

namespace proj::cuda {

// out (A x B) += sign * X^T Y for X (2 x A), Y (2 x B), both row-major.
template <int A, int B>
PROJ_HOST_DEVICE inline void AddXtY(const double (&x)[2][A], const double (&y)[2][B], double sign,
                                    double* out) {
  for (int a = 0; a < A; ++a) {
    for (int b = 0; b < B; ++b) out[a * B + b] += sign * (x[0][a] * y[0][b] + x[1][a] * y[1][b]);
  }
}
// out (A) += X^T v for X (2 x A).
template <int A>
PROJ_HOST_DEVICE inline void AddXtv(const double (&x)[2][A], const double* v, double* out) {
  for (int a = 0; a < A; ++a) out[a] += x[0][a] * v[0] + x[1][a] * v[1];
}
// out (2) += X v for X (2 x A).
template <int A>
PROJ_HOST_DEVICE inline void AddXv(const double (&x)[2][A], const double* v, double* out) {
  for (int r = 0; r < 2; ++r) {
    for (int a = 0; a < A; ++a) out[r] += x[r][a] * v[a];
  }
}
// out (n) = M (n x n) v.
PROJ_HOST_DEVICE inline void MatVec(const double* m, const double* v, int n, double* out) {
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int j = 0; j < n; ++j) s += m[i * n + j] * v[j];
    out[i] = s;
  }
}
// The coupling of one observation between a camera-side block (Jacobian X, 2 x A) and its
// point: b = X^T Jp (A x 3) and bainv = b Ainv, with Ainv the point's inverted 3 x 3 block. The
// observation's term of the Schur complement's diagonal block is entry (a, c) = bainv_a . b_c.
template <int A>
PROJ_HOST_DEVICE inline void SchurCoupling(const double (&x)[2][A], const double (&jp)[2][3],
                                           const double* ainv, double* b, double* bainv) {
  for (int k = 0; k < A * 3; ++k) b[k] = 0;
  AddXtY<A, 3>(x, jp, 1.0, b);
  for (int a = 0; a < A; ++a) {
    for (int k = 0; k < 3; ++k) {
      bainv[a * 3 + k] = b[a * 3] * ainv[k] + b[a * 3 + 1] * ainv[3 + k] + b[a * 3 + 2] * ainv[6 + k];
    }
  }
}
PROJ_HOST_DEVICE inline double SchurTerm(const double* bainv, const double* b, int a, int c) {
  return bainv[a * 3] * b[c * 3] + bainv[a * 3 + 1] * b[c * 3 + 1] + bainv[a * 3 + 2] * b[c * 3 + 2];
}
// out (A x A) -= the observation's Schur term (above).
template <int A>
PROJ_HOST_DEVICE inline void SubtractSchurBlock(const double (&x)[2][A], const double (&jp)[2][3],
                                                const double* ainv, double* out) {
  double b[A * 3], bainv[A * 3];
  SchurCoupling<A>(x, jp, ainv, b, bainv);
  for (int a = 0; a < A; ++a) {
    for (int c = 0; c < A; ++c) out[a * A + c] -= SchurTerm(bainv, b, a, c);
  }
}
// Inverts an SPD block in place, or replaces it by the inverse of its diagonal when it is not
// numerically positive definite (a preconditioner need not be exact).
template <int N>
PROJ_HOST_DEVICE inline void InvertPreconditionerBlock(double* m) {
  double copy[N * N];
  for (int k = 0; k < N * N; ++k) copy[k] = m[k];
  if (InvertSymmetricPositive<N>(m)) return;
  for (int k = 0; k < N * N; ++k) m[k] = 0;
  for (int k = 0; k < N; ++k) m[k * N + k] = copy[k * N + k] > 0 ? 1 / copy[k * N + k] : 1;
}

}  // namespace proj::cuda
