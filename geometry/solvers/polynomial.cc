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

namespace proj {
namespace {

constexpr int kMaxSturmDegree = 16;

// Polynomial with ascending coefficients, fixed capacity.
struct Poly {
  int degree = -1;  // -1: zero polynomial
  double c[kMaxSturmDegree + 1];
  double Evaluate(double x) const {
    double value = 0.0;
    for (int i = degree; i >= 0; --i) value = value * x + c[i];
    return value;
  }
};

// out = -(a mod b), with b->degree >= 0. Coefficients below `tolerance` times the largest
// magnitude of `a` are treated as zero when trimming the degree.
void NegatedRemainder(const Poly& a, const Poly& b, Poly* out) {
  double r[kMaxSturmDegree + 1];
  double scale = 0.0;
  for (int i = 0; i <= a.degree; ++i) {
    r[i] = a.c[i];
    scale = std::max(scale, std::abs(a.c[i]));
  }
  const double lead = b.c[b.degree];
  for (int i = a.degree; i >= b.degree; --i) {
    const double q = r[i] / lead;
    for (int j = 0; j <= b.degree; ++j) r[i - b.degree + j] -= q * b.c[j];
    r[i] = 0.0;
  }
  out->degree = -1;
  for (int i = b.degree - 1; i >= 0; --i) {
    if (std::abs(r[i]) > 1e-13 * scale) {
      out->degree = i;
      break;
    }
  }
  // Positive rescaling keeps the signs (all Sturm needs) and the magnitudes near 1.
  double out_scale = 0.0;
  for (int i = 0; i <= out->degree; ++i) out_scale = std::max(out_scale, std::abs(r[i]));
  for (int i = 0; i <= out->degree; ++i) out->c[i] = -r[i] / out_scale;
}

// |p(x)| small relative to the magnitude of its terms: rejects spurious roots that come from
// rounding in the Sturm sequence.
bool IsRoot(const Poly& p, double x) {
  double value = 0.0, magnitude = 0.0;
  const double ax = std::abs(x);
  for (int i = p.degree; i >= 0; --i) {
    value = value * x + p.c[i];
    magnitude = magnitude * ax + std::abs(p.c[i]);
  }
  return std::abs(value) <= 1e-9 * magnitude;
}

struct SturmSequence {
  int size = 0;
  Poly p[kMaxSturmDegree + 1];
  int SignChanges(double x) const {
    int changes = 0;
    double previous = 0.0;
    for (int i = 0; i < size; ++i) {
      const double value = p[i].Evaluate(x);
      if (value == 0.0) continue;
      if (previous != 0.0 && (value > 0.0) != (previous > 0.0)) ++changes;
      previous = value;
    }
    return changes;
  }
};

// The single root of p in (lo, hi), where p(lo) and p(hi) have opposite signs: Newton steps
// while they stay inside the bracket and at least halve the step, bisection otherwise
// (the safeguard of "rtsafe", Numerical Recipes 9.4), so convergence is never slower than
// bisection even far from the root.
double RefineBracketedRoot(const Poly& p, const Poly& dp, double lo, double hi) {
  if (p.Evaluate(lo) > 0.0) std::swap(lo, hi);  // now p(lo) < 0 < p(hi)
  double x = 0.5 * (lo + hi);
  double step_before_last = std::abs(hi - lo), last_step = step_before_last;
  double f = p.Evaluate(x), df = dp.Evaluate(x);
  for (int iteration = 0; iteration < 200; ++iteration) {
    const bool newton_leaves_bracket = ((x - hi) * df - f) * ((x - lo) * df - f) > 0.0;
    const bool newton_too_slow = std::abs(2.0 * f) > std::abs(step_before_last * df);
    step_before_last = last_step;
    if (newton_leaves_bracket || newton_too_slow || df == 0.0) {
      last_step = 0.5 * (hi - lo);
      x = lo + last_step;
    } else {
      last_step = f / df;
      x -= last_step;
    }
    if (std::abs(last_step) <= 1e-15 * std::max(1.0, std::abs(x))) return x;
    f = p.Evaluate(x);
    if (f == 0.0) return x;
    df = dp.Evaluate(x);
    if (f < 0.0) {
      lo = x;
    } else {
      hi = x;
    }
  }
  return x;
}

}  // namespace

int SolvePolynomialRealSturm(const double* c, int degree, double* roots) {
  if (degree > kMaxSturmDegree) return 0;
  double scale = 0.0;
  for (int i = 0; i <= degree; ++i) scale = std::max(scale, std::abs(c[i]));
  if (!(scale > 0.0) || !std::isfinite(scale)) return 0;
  while (degree > 0 && std::abs(c[degree]) <= 1e-14 * scale) --degree;
  if (degree < 1) return 0;

  SturmSequence sturm;
  Poly& p = sturm.p[0];
  p.degree = degree;
  for (int i = 0; i <= degree; ++i) p.c[i] = c[i] / c[degree];  // monic
  Poly& dp = sturm.p[1];
  dp.degree = degree - 1;
  for (int i = 1; i <= degree; ++i) dp.c[i - 1] = i * p.c[i];
  sturm.size = 2;
  while (sturm.size <= kMaxSturmDegree && sturm.p[sturm.size - 1].degree > 0) {
    NegatedRemainder(sturm.p[sturm.size - 2], sturm.p[sturm.size - 1], &sturm.p[sturm.size]);
    if (sturm.p[sturm.size].degree < 0) break;  // gcd reached: multiple roots
    ++sturm.size;
  }

  // Fujiwara's bound on the root magnitudes of the monic p: 2 max_k |c_{n-k}|^(1/k), with the
  // constant term halved. Much tighter than Cauchy's 1 + max |c_i| for spread coefficients.
  double bound = 0.0;
  for (int k = 1; k <= degree; ++k) {
    const double coefficient = std::abs(p.c[degree - k]) * (k == degree ? 0.5 : 1.0);
    bound = std::max(bound, std::pow(coefficient, 1.0 / k));
  }
  bound = 2.0 * bound * (1.0 + 1e-12) + 1e-300;

  struct Interval {
    double lo, hi;
    int changes_lo, changes_hi;
  };
  Interval stack[64];
  int stack_size = 0;
  stack[stack_size++] = {-bound, bound, sturm.SignChanges(-bound), sturm.SignChanges(bound)};
  int n = 0;
  while (stack_size > 0) {
    const Interval interval = stack[--stack_size];
    const int count = interval.changes_lo - interval.changes_hi;
    if (count <= 0) continue;
    const double width = interval.hi - interval.lo;
    const double mid = 0.5 * (interval.lo + interval.hi);
    if (count == 1) {
      const double f_lo = p.Evaluate(interval.lo), f_hi = p.Evaluate(interval.hi);
      if (f_hi == 0.0) {  // Sturm counts roots in (lo, hi]
        roots[n++] = interval.hi;
        continue;
      }
      if ((f_lo > 0.0) != (f_hi > 0.0) && f_lo != 0.0 && f_hi != 0.0) {
        const double root = RefineBracketedRoot(p, dp, interval.lo, interval.hi);
        if (IsRoot(p, root)) roots[n++] = root;
        continue;
      }
      // A root of even multiplicity (no sign change): fall through to bisection.
    }
    if (width <= 1e-14 * std::max(1.0, std::abs(mid)) || stack_size + 2 > 64) {
      if (IsRoot(p, mid)) roots[n++] = mid;  // a cluster that cannot be separated further
      continue;
    }
    const int changes_mid = sturm.SignChanges(mid);
    // Push the upper half first so that roots come out in increasing order.
    stack[stack_size++] = {mid, interval.hi, changes_mid, interval.changes_hi};
    stack[stack_size++] = {interval.lo, mid, interval.changes_lo, changes_mid};
  }
  return n;
}

}  // namespace proj
