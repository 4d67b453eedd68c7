#include "geometry/solvers/null_space.h"

#include <random>

#include <Eigen/QR>
#include <gtest/gtest.h>

namespace proj {
namespace {

// The same basis as Eigen's HouseholderQR (same reflectors and signs), to rounding.
template <int M>
void ExpectEigenBasis(std::mt19937_64& rng) {
  std::normal_distribution<double> normal;
  Eigen::Matrix<double, 9, M> a_transpose;
  for (int i = 0; i < 9; ++i) {
    for (int j = 0; j < M; ++j) a_transpose(i, j) = normal(rng);
  }
  const Eigen::HouseholderQR<Eigen::Matrix<double, 9, M>> qr(a_transpose);
  const Eigen::Matrix<double, 9, 9> q = qr.householderQ();
  const Eigen::Matrix<double, 9, 9 - M> basis = NullSpaceOfTransposed(a_transpose);
  EXPECT_LT((basis - q.template rightCols<9 - M>()).norm(), 1e-12);
  EXPECT_LT((a_transpose.transpose() * basis).norm(), 1e-12);
  EXPECT_LT((basis.transpose() * basis - Eigen::Matrix<double, 9 - M, 9 - M>::Identity()).norm(),
            1e-12);
}

TEST(NullSpaceOfTransposed, MatchesEigenHouseholderQr) {
  std::mt19937_64 rng(4);
  for (int trial = 0; trial < 20; ++trial) {
    ExpectEigenBasis<7>(rng);
    ExpectEigenBasis<5>(rng);
    ExpectEigenBasis<8>(rng);
  }
}

TEST(NullSpaceOfTransposed, ZeroColumnIsSkipped) {
  // A zero column has no reflector (tau = 0), as in Eigen: the basis still spans the null space.
  Eigen::Matrix<double, 9, 2> a_transpose = Eigen::Matrix<double, 9, 2>::Zero();
  a_transpose(0, 1) = 1.0;
  const Eigen::Matrix<double, 9, 7> basis = NullSpaceOfTransposed(a_transpose);
  EXPECT_LT((a_transpose.transpose() * basis).norm(), 1e-15);
  EXPECT_LT((basis.transpose() * basis - Eigen::Matrix<double, 7, 7>::Identity()).norm(), 1e-12);
}

}  // namespace
}  // namespace proj
