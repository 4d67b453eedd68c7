#include "geometry/solvers/polynomial.h"

#include <algorithm>
#include <random>
#include <vector>

#include <Eigen/LU>
#include <gtest/gtest.h>

namespace proj {
namespace {

TEST(SolveCubicReal, ThreeRealRootsInDecreasingOrder) {
  // (x - 3)(x + 1)(x - 0.5) = x^3 - 2.5 x^2 - 2 x + 1.5
  double roots[3];
  ASSERT_EQ(SolveCubicReal(1.0, -2.5, -2.0, 1.5, roots), 3);
  EXPECT_NEAR(roots[0], 3.0, 1e-14);
  EXPECT_NEAR(roots[1], 0.5, 1e-14);
  EXPECT_NEAR(roots[2], -1.0, 1e-14);
}

TEST(SolveCubicReal, OneRealRoot) {
  // (x - 2)(x^2 + 1) = x^3 - 2 x^2 + x - 2, scaled by -3.
  double roots[3];
  ASSERT_EQ(SolveCubicReal(-3.0, 6.0, -3.0, 6.0, roots), 1);
  EXPECT_NEAR(roots[0], 2.0, 1e-14);
}

TEST(SolveCubicReal, DegeneratesToQuadratic) {
  double roots[3];
  ASSERT_EQ(SolveCubicReal(0.0, 1.0, -3.0, 2.0, roots), 2);
  EXPECT_NEAR(roots[0], 2.0, 1e-14);
  EXPECT_NEAR(roots[1], 1.0, 1e-14);
}

TEST(SolveCubicReal, RandomRootsAreRecovered) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-10.0, 10.0);
  for (int trial = 0; trial < 200; ++trial) {
    const double r1 = u(rng), r2 = u(rng), r3 = u(rng), scale = u(rng);
    const double c2 = -(r1 + r2 + r3), c1 = r1 * r2 + r1 * r3 + r2 * r3, c0 = -r1 * r2 * r3;
    double roots[3];
    const int n = SolveCubicReal(scale, scale * c2, scale * c1, scale * c0, roots);
    ASSERT_GE(n, 1);
    for (double truth : {r1, r2, r3}) {
      double best = 1e9;
      for (int i = 0; i < n; ++i) best = std::min(best, std::abs(roots[i] - truth));
      // Nearly coincident roots are only determined to ~sqrt(eps); random roots rarely are.
      EXPECT_LT(best, 1e-6) << "trial " << trial;
    }
  }
}

TEST(SolveQuadraticReal, StableForSmallRoot) {
  double roots[2];
  // x^2 - 1e8 x + 1: roots ~1e8 and ~1e-8; naive formula loses the small one.
  ASSERT_EQ(SolveQuadraticReal(1.0, -1e8, 1.0, roots), 2);
  EXPECT_NEAR(roots[1], 1e-8, 1e-20);
  EXPECT_EQ(SolveQuadraticReal(1.0, 0.0, 1.0, roots), 0);
}

// Ascending coefficients of prod_i (x - roots[i]) times `scale`.
std::vector<double> FromRoots(const std::vector<double>& roots, double scale) {
  std::vector<double> c = {scale};
  for (double r : roots) {
    std::vector<double> next(c.size() + 1, 0.0);
    for (size_t i = 0; i < c.size(); ++i) {
      next[i + 1] += c[i];
      next[i] -= r * c[i];
    }
    c = next;
  }
  return c;
}

TEST(SolvePolynomialRealSturm, RecoversKnownRealRoots) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-20.0, 20.0);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<double> truth(6);
    for (double& r : truth) r = u(rng);
    std::sort(truth.begin(), truth.end());
    // Times (x^2 + 1)(x^2 + 4): four complex roots that must not be reported.
    std::vector<double> c = FromRoots(truth, u(rng));
    std::vector<double> extended(c.size() + 4, 0.0);
    const double quartic[5] = {4.0, 0.0, 5.0, 0.0, 1.0};
    for (size_t i = 0; i < c.size(); ++i) {
      for (int j = 0; j < 5; ++j) extended[i + j] += c[i] * quartic[j];
    }
    double roots[16];
    const int n = SolvePolynomialRealSturm(extended.data(), 10, roots);
    ASSERT_EQ(n, 6) << "trial " << trial;
    for (int i = 0; i < 6; ++i)
      EXPECT_NEAR(roots[i], truth[i], 1e-7 * std::max(1.0, std::abs(truth[i])));
  }
}

TEST(SolvePolynomialRealSturm, SpreadCoefficientsAndNegligibleLeadingTerm) {
  // A degree-10 polynomial from the five-point solver whose roots span [-121, 123] and whose
  // coefficients span nine orders of magnitude (a case that once returned spurious roots).
  const double c[11] = {-12047.960434130318,    9036.1059798244169,    -4912.6891487688918,
                        4708.3461625459349,     -2139.5307845357602,   700.30866411512989,
                        -307.04298727726518,    59.367000352623677,    -0.44705750861457716,
                        -0.0040888132502100993, 3.2212775564676062e-05};
  double roots[10];
  const int n = SolvePolynomialRealSturm(c, 10, roots);
  const double expected[6] = {-120.5519328, 1.948520154, 2.144008888,
                              3.167677725,  119.658038,  122.5285835};
  ASSERT_EQ(n, 6);
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(roots[i], expected[i], 1e-6 * std::abs(expected[i]));
  // x^3 - x with a zero leading coefficient padding: degree drops to 3.
  const double padded[5] = {0.0, -1.0, 0.0, 1.0, 0.0};
  ASSERT_EQ(SolvePolynomialRealSturm(padded, 4, roots), 3);
  EXPECT_NEAR(roots[0], -1.0, 1e-14);
  EXPECT_NEAR(roots[1], 0.0, 1e-14);
  EXPECT_NEAR(roots[2], 1.0, 1e-14);
  // (x - 2)^2 (x + 1): the double root is reported once.
  const std::vector<double> double_root = FromRoots({2.0, 2.0, -1.0}, 1.0);
  const int m = SolvePolynomialRealSturm(double_root.data(), 3, roots);
  ASSERT_EQ(m, 2);
  EXPECT_NEAR(roots[0], -1.0, 1e-12);
  EXPECT_NEAR(roots[1], 2.0, 1e-6);
}

TEST(DeterminantPencilCoefficients, MatchesDirectEvaluation) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::Matrix3d a, b;
  for (int i = 0; i < 9; ++i) {
    a(i) = u(rng);
    b(i) = u(rng);
  }
  const Eigen::Vector4d c = DeterminantPencilCoefficients(a, b);
  for (double gamma : {-2.0, -0.3, 0.0, 0.7, 3.0}) {
    const double expected = (a + gamma * b).determinant();
    const double value = ((c(3) * gamma + c(2)) * gamma + c(1)) * gamma + c(0);
    EXPECT_NEAR(value, expected, 1e-12);
  }
}

}  // namespace
}  // namespace proj
