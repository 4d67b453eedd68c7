#include "geometry/solvers/polynomial.h"

#include <random>

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
