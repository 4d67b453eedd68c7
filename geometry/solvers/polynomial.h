// Small closed-form polynomial helpers shared by the minimal solvers.
#pragma once

#include <Eigen/Core>

namespace proj {

// Real roots of a*x^2 + b*x + c, written to roots[0..n), n returned (0, 1 or 2). Falls back to
// the linear equation when a == 0. A double root is reported once. Uses the cancellation-free
// form (Numerical Recipes 5.6).
int SolveQuadraticReal(double a, double b, double c, double roots[2]);

// Real roots of c3*x^3 + c2*x^2 + c1*x + c0, written to roots[0..n) in decreasing order, n
// returned (0..3). Falls back to the quadratic when |c3| is negligible relative to the other
// coefficients. Closed form (trigonometric for three real roots, Cardano otherwise) followed by
// two Newton steps per root for full double precision.
int SolveCubicReal(double c3, double c2, double c1, double c0, double roots[3]);

// Real roots of the polynomial c[0] + c[1] x + ... + c[degree] x^degree (degree <= 16), by
// Sturm-sequence root isolation and safeguarded Newton/bisection refinement. Roots are written
// to roots[0..n) in increasing order, n returned; multiple roots are reported once. Leading
// coefficients that are negligible relative to the others lower the degree (roots at
// infinity are dropped). Allocation-free.
int SolvePolynomialRealSturm(const double* c, int degree, double* roots);

// Coefficients of the cubic det(a + gamma * b) = c[3] gamma^3 + c[2] gamma^2 + c[1] gamma +
// c[0], from the adjugates: c0 = det a, c1 = tr(adj(a) b), c2 = tr(adj(b) a), c3 = det b.
Eigen::Vector4d DeterminantPencilCoefficients(const Eigen::Matrix3d& a, const Eigen::Matrix3d& b);

}  // namespace proj
